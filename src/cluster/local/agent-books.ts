import type { OfferedPool } from '../../scheduler/model/offer';
import type { LocalAgent } from './local-agent';
import { normalizeRanges, subtractRanges } from './port-ranges';

/**
 * What each agent has handed out: the allocation of every live executor, keyed by executor key.
 * Free = capacity − allocations. The local cluster offers only unreserved resources, so every
 * pool here is unreserved. Allocations on agents no longer configured (adopted after a restart
 * with a changed agent list) are kept but count against nothing.
 */
export class AgentBooks {
  private readonly used = new Map<string, { readonly agentId: string; readonly allocation: readonly OfferedPool[] }>();

  constructor(private readonly agents: ReadonlyMap<string, LocalAgent>) {}

  /** Record an executor's allocation on `agentId`. */
  consume(agentId: string, executorKey: string, allocation: readonly OfferedPool[]): void {
    this.used.set(executorKey, { agentId, allocation });
  }

  /** The executor ended: its resources are free again. Returns its agent id, if it was booked. */
  release(executorKey: string): string | undefined {
    const entry = this.used.get(executorKey);
    this.used.delete(executorKey);
    return entry?.agentId;
  }

  /** The agent's free resources as one unreserved pool. */
  free(agentId: string): OfferedPool {
    const agent = this.agents.get(agentId);
    if (agent === undefined) return { cpusMilli: 0, memMilli: 0, diskMilli: 0, gpus: 0, ports: [] };
    const left = { ...agent.capacity };
    let ports = normalizeRanges(agent.ports);
    for (const entry of this.used.values()) {
      if (entry.agentId !== agentId) continue;
      for (const pool of entry.allocation) {
        left.cpusMilli -= pool.cpusMilli;
        left.memMilli -= pool.memMilli;
        left.diskMilli -= pool.diskMilli;
        left.gpus -= pool.gpus;
        ports = subtractRanges(ports, pool.ports);
      }
    }
    return { ...left, ports };
  }
}
