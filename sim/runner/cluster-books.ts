import type { OfferedPool } from '../../src/scheduler/model/offer';
import type { ClusterBooks } from '../invariants/invariant-checker';
import type { SimCluster } from '../cluster/sim-cluster';

/** What {@link clusterBooks} reads of the simulated cluster. */
export type ClusterBooksSource = Pick<SimCluster, 'violations' | 'liveTasks' | 'agentStatus' | 'agentCapacity' | 'agentUsage'>;

/**
 * The invariant checker's view of the simulated cluster's books: an agent is over-committed when
 * the live tasks of a pool use more cpus, mem, disk or gpus than the pool has, use a port outside
 * it, or use one port twice.
 *
 * Usage is held against the capacity of the same pool, found by its reservation (role and, for a
 * resident instance's dynamic reservation, its reservation id: the ledger's `poolKey`), not by role alone: an
 * agent may hold a static reservation of a role and dynamic ones of the same role, one per
 * resident instance, and each has its own amounts and ports. The message names the pool by role,
 * followed by `#` and the reservation id for a dynamic one.
 */
export function clusterBooks(cluster: ClusterBooksSource): ClusterBooks {
  return {
    get violations() {
      return cluster.violations;
    },
    connectedTasks: () => cluster.liveTasks().filter((task) => cluster.agentStatus(task.agentId)?.phase === 'connected'),
    overcommitted(agentId: string): string | undefined {
      const capacity = cluster.agentCapacity(agentId);
      for (const used of cluster.agentUsage(agentId)) {
        const cap = capacity.find((c) => c.reservedFor === used.reservedFor && c.reservationId === used.reservationId);
        const problem = cap === undefined ? 'no such pool' : poolProblem(used, cap);
        if (problem !== undefined) return `agent ${agentId} over-committed in pool ${poolName(used)}: ${problem}`;
      }
      return undefined;
    },
  };
}

/** A pool as the message names it: `*`, the role, or the role and `#` its reservation id. */
function poolName(pool: OfferedPool): string {
  if (pool.reservedFor === undefined) return '*';
  return pool.reservationId === undefined ? pool.reservedFor : `${pool.reservedFor}#${pool.reservationId}`;
}

function poolProblem(used: OfferedPool, cap: OfferedPool): string | undefined {
  if (used.cpusMilli > cap.cpusMilli) return `cpus ${used.cpusMilli / 1000} > ${cap.cpusMilli / 1000}`;
  if (used.memMilli > cap.memMilli) return `mem ${used.memMilli / 1000} > ${cap.memMilli / 1000}`;
  if (used.diskMilli > cap.diskMilli) return `disk ${used.diskMilli / 1000} > ${cap.diskMilli / 1000}`;
  if (used.gpus > cap.gpus) return `gpus ${used.gpus} > ${cap.gpus}`;
  const seen = new Set<number>();
  for (const [begin, end] of used.ports) {
    for (let p = begin; p <= end; p++) {
      if (seen.has(p)) return `port ${p} used twice`;
      seen.add(p);
      if (!cap.ports.some(([b, e]) => p >= b && p <= e)) return `port ${p} outside the agent's ranges`;
    }
  }
  return undefined;
}
