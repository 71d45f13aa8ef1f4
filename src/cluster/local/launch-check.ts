import type { LaunchOperation, TaskLaunch } from '../../scheduler/model/launch';
import type { OfferedPool } from '../../scheduler/model/offer';
import type { ScalarResources } from '../../scheduler/model/resources';
import { containsPort, containsRanges, normalizeRanges, subtractRanges } from './port-ranges';

const SCALARS = ['cpusMilli', 'memMilli', 'diskMilli', 'gpus'] as const;

/** The tasks of a launch operation (one for LAUNCH, the group for LAUNCH_GROUP). */
export function tasksOf(op: LaunchOperation): readonly TaskLaunch[] {
  return op.kind === 'launch' ? [op.task] : op.tasks;
}

/**
 * What is left of one offer while the operations of an ACCEPT are applied in order (Mesos
 * applies them in order against the offer's pooled resources, mesos-v1-scheduler-api.md §2.3).
 * {@link take} validates one operation and deducts its allocation only when it is valid; the
 * caller answers an invalid one with TASK_ERROR, as the master does.
 */
export class LaunchCheck {
  private left: OfferedPool;
  private readonly taskIds = new Set<string>();

  constructor(offered: OfferedPool, private readonly agentId: string, private readonly taskIdInUse: (taskId: string) => boolean) {
    this.left = offered;
  }

  /** The first problem of `op`, or undefined after deducting its allocation. */
  take(op: LaunchOperation): string | undefined {
    const tasks = tasksOf(op);
    const problem = this.taskProblem(tasks) ?? this.allocationProblem(op, tasks);
    if (problem !== undefined) return problem;
    const given = sumPools(op.allocation);
    this.left = {
      cpusMilli: this.left.cpusMilli - given.cpusMilli,
      memMilli: this.left.memMilli - given.memMilli,
      diskMilli: this.left.diskMilli - given.diskMilli,
      gpus: this.left.gpus - given.gpus,
      ports: subtractRanges(this.left.ports, given.ports),
    };
    for (const t of tasks) this.taskIds.add(t.taskId);
    return undefined;
  }

  private taskProblem(tasks: readonly TaskLaunch[]): string | undefined {
    if (tasks.length === 0) return 'launch without tasks';
    for (const t of tasks) {
      if (t.agentId !== this.agentId) return `task ${t.taskId} targets agent ${t.agentId}, the offer is on ${this.agentId}`;
      if (this.taskIds.has(t.taskId) || this.taskIdInUse(t.taskId)) return `duplicate task id ${t.taskId}`;
    }
    return undefined;
  }

  private allocationProblem(op: LaunchOperation, tasks: readonly TaskLaunch[]): string | undefined {
    if (op.allocation.some((p) => p.reservedFor !== undefined)) return 'the local cluster offers no reserved resources';
    const given = sumPools(op.allocation);
    const needed: ScalarResources = { cpusMilli: 0, memMilli: 0, diskMilli: 0, gpus: 0 };
    for (const r of [...tasks.map((t) => t.resources), ...(op.kind === 'launchGroup' ? [op.executorResources] : [])]) {
      for (const f of SCALARS) needed[f] += r[f];
    }
    for (const f of SCALARS) {
      if (given[f] < 0) return `negative ${f} in the allocation`;
      if (given[f] > this.left[f]) return `${f} ${given[f]} exceeds the ${this.left[f]} left in the offer`;
      if (given[f] < needed[f]) return `the allocation has ${f} ${given[f]}, the tasks need ${needed[f]}`;
    }
    if (!containsRanges(this.left.ports, given.ports)) return `ports ${JSON.stringify(given.ports)} are not in the offer`;
    for (const t of tasks) {
      for (const port of t.hostPorts) {
        if (port > 0 && !containsPort(given.ports, port)) return `host port ${port} of ${t.taskId} is not in the allocation`;
      }
    }
    return undefined;
  }
}

/** The sum of pools, ports merged. */
function sumPools(pools: readonly OfferedPool[]): OfferedPool {
  const sum = { cpusMilli: 0, memMilli: 0, diskMilli: 0, gpus: 0 };
  for (const p of pools) for (const f of SCALARS) sum[f] += p[f];
  return { ...sum, ports: normalizeRanges(pools.flatMap((p) => p.ports)) };
}
