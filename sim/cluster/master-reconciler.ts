import type { TaskState } from '../../src/scheduler/model/task-state';
import type { ClusterState } from './cluster-state';
import type { SimTask } from './cluster-types';

/**
 * The master's answers to RECONCILE (spec §7.2) — also its answer to a KILL of a task it does not
 * know (§2.8). Answers are posted now, without uuid, with REASON_RECONCILIATION.
 */
export class MasterReconciler {
  constructor(private readonly s: ClusterState) {}

  /**
   * Explicit reconciliation of one task: a task the master knows → the latest state sent to the
   * framework (TASK_STAGING before the first) with its latest `healthy`; otherwise by the given
   * agent: registered → TASK_GONE, unreachable → TASK_UNREACHABLE, unknown, removed or not given
   * → TASK_UNKNOWN.
   */
  explicit(taskId: string, agentId: string | undefined): void {
    const task = this.s.tasks.get(taskId);
    if (task !== undefined && masterKnows(task)) {
      this.answerKnown(task);
      return;
    }
    const agent = agentId === undefined ? undefined : this.s.agents.get(agentId);
    let state: TaskState = 'TASK_UNKNOWN';
    if (agent !== undefined && (agent.phase === 'connected' || agent.phase === 'disconnected')) state = 'TASK_GONE';
    else if (agent !== undefined && agent.phase === 'unreachable') state = 'TASK_UNREACHABLE';
    this.s.outbox.status(
      this.s.ctx.nowMs(),
      { taskId, ...(agentId === undefined ? {} : { agentId }), state, reason: 'REASON_RECONCILIATION', message: 'Reconciliation: task unknown to the master' },
      false,
    );
  }

  /** Implicit reconciliation: every task the master knows (not those on unreachable agents), launch order. */
  implicit(): void {
    for (const task of [...this.s.tasks.values()]) if (masterKnows(task)) this.answerKnown(task);
  }

  private answerKnown(task: SimTask): void {
    this.s.outbox.status(
      this.s.ctx.nowMs(),
      {
        taskId: task.taskId,
        agentId: task.launch.agentId,
        state: task.sentState ?? 'TASK_STAGING',
        reason: 'REASON_RECONCILIATION',
        ...(task.sentHealthy === undefined ? {} : { healthy: task.sentHealthy }),
        message: 'Reconciliation: latest task state',
      },
      false,
    );
  }
}

/**
 * Whether the master has the task in its task table: not when its agent is unreachable or removed
 * (spec §7.2: unreachable tasks are not in the table). Tasks on a disconnected agent still are.
 */
export function masterKnows(task: SimTask): boolean {
  const phase = task.executor.agent.phase;
  return phase === 'connected' || phase === 'disconnected';
}
