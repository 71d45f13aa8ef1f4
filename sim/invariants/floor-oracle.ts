import { floorCapacity, unhealthyKillFloor } from '../../src/scheduler/index';
import type { MarathonEvent } from '../../src/scheduler/model/events';
import type { Instance } from '../../src/scheduler/model/instance';
import type { RunSpec } from '../../src/scheduler/model/run-spec';
import type { GoneCheck } from './backoff-oracle';

/** What the oracle reads of the core after a step (a subset of the Scheduler facade). */
export interface FloorView {
  runSpec(runSpecId: string): RunSpec | undefined;
  instances(runSpecId: string): readonly Instance[];
}

/**
 * Simulator invariant: no unhealthy kill the scheduler makes leaves an app with fewer instances
 * counting towards its floor than the floor (kill-storm protection, issue 18). An independent
 * model of who counts, fed only with events: an instance counts once an
 * `instance_health_changed_event` said it is healthy, until its incarnation ends (terminal or
 * Scheduled again); after a step, an instance counts when it also is Running with goal Running
 * and no kill under way. A kill is the scheduler's own when the instance was Running (by its
 * last `instance_changed_event`) as `unhealthy_instance_kill_event` came: an agent-run check's
 * kill is reported after the task ended, and is not held to the floor (the scheduler cannot hold
 * it back). A kill of an instance that did not count cannot lower the count and is not checked.
 * The floor's number comes from the core's pure rule (unhealthy-kill-floor.ts: label, flag,
 * minimumHealthCapacity, the n − 1 cap); what is independent here is the counting, the decisions
 * and their timing. A takeover needs no step here: the core stores whether an instance was healthy
 * in its incarnation (`proven`, store format 9), so a new core counts what this oracle counted.
 */
export class FloorOracle {
  private readonly proven = new Set<string>();
  private readonly lastCondition = new Map<string, string>();
  /** Apps with a kill of a counting instance in this step. */
  private readonly killedCounting = new Set<string>();

  constructor(private readonly flag: number | undefined) {}

  onEvent(event: MarathonEvent): void {
    switch (event.eventType) {
      case 'instance_changed_event':
        this.lastCondition.set(event.instanceId, event.condition);
        if (event.condition === 'Scheduled' || TERMINAL.has(event.condition)) this.proven.delete(event.instanceId);
        return;
      case 'instance_health_changed_event':
        if (event.healthy === true) this.proven.add(event.instanceId);
        return;
      case 'unhealthy_instance_kill_event':
        if (this.lastCondition.get(event.instanceId) === 'Running' && this.proven.has(event.instanceId)) this.killedCounting.add(event.appId);
        return;
      default:
    }
  }

  /** Entries held for instances (the checker sweeps when it doubled). */
  get size(): number {
    return this.proven.size + this.lastCondition.size;
  }

  /** Forgets the instances the core no longer holds (an expunged instance never comes back). */
  forgetGone(gone: GoneCheck): void {
    for (const id of this.proven) if (gone.instance(id)) this.proven.delete(id);
    for (const id of this.lastCondition.keys()) if (gone.instance(id)) this.lastCondition.delete(id);
  }

  /** After every step: the apps whose counting instances a kill of this step took below the floor. */
  afterStep(view: FloorView): string[] {
    const out: string[] = [];
    for (const appId of this.killedCounting) {
      const spec = view.runSpec(appId);
      if (spec === undefined) continue;
      const floor = unhealthyKillFloor(spec.instances, floorCapacity(spec, this.flag).capacity);
      const counted = view.instances(appId).filter((i) => this.counts(i)).length;
      if (counted < floor) {
        out.push(`${appId}: an unhealthy kill left ${counted} instances counting towards its floor of ${floor} (target ${spec.instances})`);
      }
    }
    this.killedCounting.clear();
    return out;
  }

  private counts(inst: Instance): boolean {
    return inst.condition === 'Running' && inst.goal === 'Running' && inst.killReason === undefined
      && inst.killRequestedAtMs === undefined && this.proven.has(inst.instanceId);
  }
}

const TERMINAL = new Set(['Killed', 'Finished', 'Failed', 'Error', 'Gone', 'Dropped', 'Unknown']);
