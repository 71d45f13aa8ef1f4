import type { Refusal } from './master-types';

/** An executor as the book needs it: where it runs, its id, how many of its tasks are not terminal. */
export interface BookedExecutor {
  readonly agentId: string;
  readonly executorId: string;
  readonly live: number;
}

/**
 * What an agent does with an operation that names an executor id (Mesos: an executor id is unique
 * on its agent while the executor exists):
 * - `new`: no such executor: it is started;
 * - `joins`: it runs with live tasks: a real agent launches a task group into it (the master model
 *   does not: see {@link executorRefusal});
 * - `terminating`: all its tasks ended and it is shutting down: the agent drops the operation.
 */
export type ExecutorVerdict = 'new' | 'joins' | 'terminating';

/**
 * The executors of a cluster's agents by (agent, executor id): the one place the rule above lives.
 * The master model books every executor it launches here; the wire fake of the tests
 * (test/cluster/mesos/fake-master/fake-executors.ts) books the LAUNCH_GROUPs it sees.
 */
export class ExecutorBook<E extends BookedExecutor> {
  private readonly byKey = new Map<string, E>();

  /** The executor with this id on the agent, while it exists. */
  get(agentId: string, executorId: string): E | undefined {
    return this.byKey.get(key(agentId, executorId));
  }

  /** See {@link ExecutorVerdict}. */
  verdict(agentId: string, executorId: string): ExecutorVerdict {
    const existing = this.get(agentId, executorId);
    if (existing === undefined) return 'new';
    return existing.live > 0 ? 'joins' : 'terminating';
  }

  /** A new executor exists on its agent (its id must be free: check {@link verdict} first). */
  add(executor: E): void {
    this.byKey.set(key(executor.agentId, executor.executorId), executor);
  }

  /** The executor is gone from its agent; its id is free again. */
  remove(executor: E): void {
    const k = key(executor.agentId, executor.executorId);
    if (this.byKey.get(k) === executor) this.byKey.delete(k);
  }

  /** Every executor of the agent is gone (the agent was removed). */
  removeAgent(agentId: string): void {
    for (const [k, e] of this.byKey) if (e.agentId === agentId) this.byKey.delete(k);
  }
}

/**
 * The answer to an operation whose executor id is taken (undefined for `new`): `terminating` →
 * TASK_DROPPED with REASON_EXECUTOR_TERMINATED and the agent's own words (apache/mesos
 * src/slave/slave.cpp `Slave::__run`); `joins` → TASK_ERROR: the master model starts every
 * operation on an executor of its own and does not launch into a running one (the core never
 * asks it to: pod executor ids are per launch incarnation, kernel/ids.ts `podExecutorId`).
 */
export function executorRefusal(verdict: ExecutorVerdict, executorId: string, group: boolean): Refusal | undefined {
  switch (verdict) {
    case 'new':
      return undefined;
    case 'terminating':
      return { state: 'TASK_DROPPED', reason: 'REASON_EXECUTOR_TERMINATED', message: 'Master wants to launch executor, but one already exists' };
    case 'joins':
      return {
        state: 'TASK_ERROR',
        reason: group ? 'REASON_TASK_GROUP_INVALID' : 'REASON_TASK_INVALID',
        message: `executor ${executorId} already runs on the agent: the master model launches every operation on a new executor`,
      };
  }
}

function key(agentId: string, executorId: string): string {
  return `${agentId}\n${executorId}`;
}
