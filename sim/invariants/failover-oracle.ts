import { isTerminalCondition } from '../../src/scheduler/model/condition';
import type { MarathonEvent } from '../../src/scheduler/model/events';
import type { Instance } from '../../src/scheduler/model/instance';
import type { RunSpec } from '../../src/scheduler/model/run-spec';
import type { Scheduler } from '../../src/scheduler/index';
import type { LiveTask } from '../cluster/cluster-types';

/** What the oracle reads of a core (a subset of the Scheduler facade). */
export type FailoverView = Pick<Scheduler, 'runSpecs' | 'instances' | 'instance' | 'deployments'>;

/** A live instance of the dead core. */
interface KnownInstance {
  readonly runSpecId: string;
  readonly goal: string;
  readonly agentId: string | undefined;
  readonly taskIds: readonly string[];
  /**
   * When it is unreachable: the (absolute) time its unreachable strategy expunges it. A core
   * recovered after that forgets it, as the dead one would have when its timer fired.
   */
  readonly expungeAtMs: number | undefined;
}

/** What the dead core knew, as the oracle keeps it. */
interface Known {
  /** Run spec id → version. */
  readonly runSpecs: ReadonlyMap<string, string>;
  readonly instances: ReadonlyMap<string, KnownInstance>;
  /** Running deployment id → the run specs it affects. */
  readonly deployments: ReadonlyMap<string, readonly string[]>;
}

/**
 * Simulator invariant of a scheduler failover (`schedulerFailover`): nothing is lost and nothing
 * is relaunched. When the leading core dies the oracle notes what it knew — run specs and their
 * versions, live instances (goal, agent, tasks), running deployments. Right after the new core is
 * built from the store (before it handles anything) it must know exactly those run specs and
 * deployments and every one of those instances, with the same goal, agent and tasks — except an
 * unreachable instance whose expunge deadline passed while no scheduler led. (Re-applying a
 * running Stop while recovering forgets nothing the dead core kept: the kill rule that forgets an
 * instance not to run again that cannot answer a kill applies in a running core too, the moment
 * such an instance becomes unreachable — kill/kill-instance.ts `cannotAnswerKill`.) Once its
 * reconciliation is answered (when the clock moves past the takeover; the master answers at once)
 * every task the dead core knew that still runs on a connected agent must belong to an instance the
 * new core knows — unless the new core knew it when it was built and has since killed or forgotten
 * it by its own decision (a command of that instant: a kill with wipe, a scale-down) — and none of
 * them may have been killed as unknown meanwhile.
 */
export class FailoverOracle {
  private known: Known | undefined;
  private knownTasks = new Set<string>();
  /** The takeover instant whose reconciliation is still to be checked. */
  private reconcilingAtMs: number | undefined;
  /** The tasks the new core knew when it was built: what it does with them afterwards is its own decision. */
  private recoveredTasks = new Set<string>();
  private pending: string[] = [];

  /** The leading core died: remember what it knew. */
  onCrash(core: FailoverView): void {
    const instances = new Map<string, KnownInstance>();
    const runSpecs = new Map<string, string>();
    const deployments = new Map<string, readonly string[]>();
    for (const { deployment } of core.deployments()) deployments.set(deployment.plan.id, deployment.plan.affectedRunSpecIds);
    for (const spec of core.runSpecs()) {
      runSpecs.set(spec.id, spec.version);
      for (const inst of core.instances(spec.id)) {
        if (isTerminalCondition(inst.condition)) continue;
        instances.set(inst.instanceId, {
          runSpecId: spec.id, goal: inst.goal, agentId: inst.agent?.agentId, taskIds: inst.tasks.map((t) => t.taskId),
          expungeAtMs: expungeAtMs(spec, inst),
        });
      }
    }
    this.known = { runSpecs, instances, deployments };
    this.knownTasks = new Set([...instances.values()].flatMap((i) => i.taskIds));
  }

  /**
   * The new core was built from the store at `nowMs` (`clockMs`: the same instant on the core's
   * clock), before any input: what it lost, as violations.
   */
  onTakeover(core: FailoverView, nowMs: number, clockMs = nowMs): string[] {
    const known = this.known;
    if (known === undefined) return [];
    this.reconcilingAtMs = nowMs;
    this.recoveredTasks = new Set(core.runSpecs().flatMap((spec) => core.instances(spec.id).flatMap((inst) => inst.tasks.map((t) => t.taskId))));
    const out: string[] = [];
    const now = new Map(core.runSpecs().map((s) => [s.id, s.version]));
    for (const [id, version] of known.runSpecs) {
      const got = now.get(id);
      if (got === undefined) out.push(`failover: run spec ${id} was lost (the new scheduler did not recover it from the store)`);
      else if (got !== version) out.push(`failover: run spec ${id} came back as version ${got}, not ${version}`);
    }
    for (const id of now.keys()) if (!known.runSpecs.has(id)) out.push(`failover: run spec ${id} appeared in the new scheduler`);
    const deployments = new Set(core.deployments().map((d) => d.deployment.plan.id));
    for (const id of known.deployments.keys()) if (!deployments.has(id)) out.push(`failover: deployment ${id} was lost`);
    for (const id of deployments) if (!known.deployments.has(id)) out.push(`failover: deployment ${id} appeared in the new scheduler`);
    for (const [id, before] of known.instances) {
      const inst = core.instance(id);
      if (inst === undefined) {
        if (before.expungeAtMs !== undefined && before.expungeAtMs <= clockMs) continue;
        out.push(`failover: instance ${id} was lost (goal ${before.goal}${before.agentId === undefined ? '' : ` on ${before.agentId}`})`);
        continue;
      }
      const differs = differences(before, inst);
      if (differs !== undefined) out.push(`failover: instance ${id} came back with ${differs}`);
    }
    return out;
  }

  /**
   * A task the dead core knew, killed as unknown by its successor while it reconciles, is a task
   * the failover orphaned. (Later the new core may forget an instance by its own rules — an
   * unreachable one expunged — and kill its task when it comes back, as any core would.)
   */
  onEvent(event: MarathonEvent): void {
    if (event.eventType !== 'unknown_instance_terminated_event' || this.reconcilingAtMs === undefined) return;
    if (this.known?.instances.has(event.instanceId) === true) {
      this.pending.push(`failover: the new scheduler killed instance ${event.instanceId} of ${event.runSpecId} as unknown (${event.condition})`);
    }
  }

  /**
   * After every step: once the takeover's reconciliation is answered, every known task still
   * running on a connected agent (`connectedTasks`) is known to the new core. (A task on a
   * partitioned agent is the unreachable strategy's business: the new core may have expunged it.)
   */
  afterStep(nowMs: number, core: FailoverView, connectedTasks: () => readonly LiveTask[]): string[] {
    const out = this.pending;
    this.pending = [];
    if (this.reconcilingAtMs === undefined || nowMs <= this.reconcilingAtMs) return out;
    this.reconcilingAtMs = undefined;
    for (const task of connectedTasks()) {
      // A task the new core recovered and then killed or forgot (a kill with wipe, a scale-down
      // the step at that instant asked for) left by the new core's own decision, not the failover's.
      if (!this.knownTasks.has(task.taskId) || this.recoveredTasks.has(task.taskId)) continue;
      const inst = core.instance(task.instanceId);
      if (inst === undefined || !inst.tasks.some((t) => t.taskId === task.taskId)) {
        out.push(`failover: task ${task.taskId} of ${task.runSpecId} runs on ${task.agentId} (${task.state}) but the new scheduler does not know it after reconciliation`);
      }
    }
    return out;
  }
}

/** When the unreachable strategy expunges an unreachable instance, or undefined. */
function expungeAtMs(spec: RunSpec, inst: Instance): number | undefined {
  if (inst.condition !== 'Unreachable' && inst.condition !== 'UnreachableInactive') return undefined;
  if (spec.unreachable.kind !== 'enabled' || inst.unreachableSinceMs === undefined) return undefined;
  return inst.unreachableSinceMs + spec.unreachable.expungeAfterMs;
}

function differences(before: { readonly goal: string; readonly agentId: string | undefined; readonly taskIds: readonly string[] }, inst: Instance): string | undefined {
  if (inst.goal !== before.goal) return `goal ${inst.goal}, not ${before.goal}`;
  if (inst.agent?.agentId !== before.agentId) return `agent ${inst.agent?.agentId ?? '(none)'}, not ${before.agentId ?? '(none)'}`;
  const tasks = inst.tasks.map((t) => t.taskId).join(',');
  if (tasks !== before.taskIds.join(',')) return `tasks [${tasks}], not [${before.taskIds.join(',')}]`;
  return undefined;
}
