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
 * (the same events in the simulator and against the fake master): an instance is `placed` the
 * first time it names an agent (Provisioned on an accepted offer), and `killed` when it reaches
 * `Killed` (a scale-down or a constraint-driven kill; the agent is the one it was placed on).
 */
export class PlacementLog {
  readonly decisions: Decision[] = [];
  private readonly agentOf = new Map<string, string>();

  onEvent(atMs: number, event: MarathonEvent): void {
    if (event.eventType !== 'instance_changed_event') return;
    const known = this.agentOf.get(event.instanceId);
    if (known === undefined && event.agentId !== null) {
      this.agentOf.set(event.instanceId, event.agentId);
      this.push('placed', atMs, event.runSpecId, event.instanceId, event.agentId);
    }
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
