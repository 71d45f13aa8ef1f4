import type { MarathonEvent } from '../../../../src/scheduler/model/events';

/** One scheduling decision: an instance placed on an agent, or a placed instance killed there. */
export interface Decision {
  readonly kind: 'placed' | 'killed';
  /** Virtual ms since the start of the run. */
  readonly atMs: number;
  readonly runSpecId: string;
  readonly instanceId: string;
  readonly agentId: string;
}

/**
 * The placement and kill decisions of one run, read from the core's `instance_changed_event`s
 * (the same events in the simulator and against the fake master): an instance is `placed` each
 * time it names an agent after naming none (Provisioned on an accepted offer: its first launch,
 * and each relaunch of a failed instance, which keeps its id and goes back to Scheduled without
 * an agent first, as a pod instance does), and `killed` when it reaches `Killed` (a scale-down,
 * a constraint-driven kill or a replaced version; the agent is the one it was last placed on).
 *
 * It also keeps {@link events}: every event the core emitted, in order, with its virtual time.
 */
export class PlacementLog {
  readonly decisions: Decision[] = [];
  /** Every event of the run as `<virtual ms> <event JSON>`, in emission order (task statuses, instance conditions, deployments...). */
  readonly events: string[] = [];
  /** The agent each instance was last placed on. */
  private readonly agentOf = new Map<string, string>();
  /** Instances whose last event named an agent. */
  private readonly onAgent = new Set<string>();

  onEvent(atMs: number, event: MarathonEvent): void {
    this.events.push(`${atMs} ${JSON.stringify(event)}`);
    if (event.eventType !== 'instance_changed_event') return;
    if (event.agentId === null) this.onAgent.delete(event.instanceId);
    else if (!this.onAgent.has(event.instanceId)) {
      this.onAgent.add(event.instanceId);
      this.agentOf.set(event.instanceId, event.agentId);
      this.push('placed', atMs, event.runSpecId, event.instanceId, event.agentId);
    }
    const known = this.agentOf.get(event.instanceId);
    if (event.condition === 'Killed' && known !== undefined) this.push('killed', atMs, event.runSpecId, event.instanceId, known);
  }

  /** Per run spec, the sorted agents of the decisions of one kind (a multiset, as a sorted list). */
  agentsByRunSpec(kind: Decision['kind']): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    for (const d of this.decisions) if (d.kind === kind) (out[d.runSpecId] ??= []).push(d.agentId);
    for (const list of Object.values(out)) list.sort();
    return out;
  }

  private push(kind: Decision['kind'], atMs: number, runSpecId: string, instanceId: string, agentId: string): void {
    this.decisions.push({ kind, atMs, runSpecId, instanceId, agentId });
  }
}
