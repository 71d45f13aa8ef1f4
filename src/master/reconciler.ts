import type { TaskStatus } from '../scheduler/model/inputs';
import type { TaskState } from '../scheduler/model/task-state';
import { masterKnows, type MasterState } from './master-state';
import type { MasterTask, MasterTaskLaunch } from './master-types';

/**
 * The master's answers to RECONCILE (mesos-v1-scheduler-api.md §7.2) — also its answer to a KILL
 * of a task it does not know (§2.8). Answers are posted now, without uuid, with
 * REASON_RECONCILIATION, as a Mesos master answers a partition-aware framework.
 */
export class Reconciler<T extends MasterTaskLaunch> {
  constructor(private readonly s: MasterState<T>) {}

  /**
   * Explicit reconciliation of one task: a task the master knows → the latest state sent to the
   * framework (TASK_STAGING before the first) with its latest `healthy`; otherwise by the given
   * agent: registered → TASK_GONE, unreachable → TASK_UNREACHABLE with when the agent was marked
   * unreachable (master.cpp answers with its `unreachable_time`, so a scheduler that missed the
   * marking — one that took over after a failover — counts its unreachable strategy from then),
   * unknown, removed or not given → TASK_UNKNOWN.
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
    const sinceMs = state === 'TASK_UNREACHABLE' ? agent?.unreachableSinceMs : undefined;
    this.s.answer(0, {
      taskId,
      ...(agentId === undefined ? {} : { agentId }),
      state,
      reason: 'REASON_RECONCILIATION',
      message: 'Reconciliation: task unknown to the master',
      ...(sinceMs === undefined ? {} : { unreachableSinceMs: sinceMs }),
    });
  }

  /** Implicit reconciliation: every task the master knows (not those on unreachable agents), launch order. */
  implicit(): void {
    for (const task of [...this.s.tasks.values()]) if (masterKnows(task)) this.answerKnown(task);
  }

  private answerKnown(task: MasterTask): void {
    // Built field by field in the order a spread would give (no temporary objects): a
    // reconciliation answers every task, twice.
    const status: { -readonly [K in keyof TaskStatus]: TaskStatus[K] } = {
      taskId: task.taskId,
      agentId: task.agent.agentId,
      state: task.sentState ?? 'TASK_STAGING',
      reason: 'REASON_RECONCILIATION',
    };
    if (task.sentHealthy !== undefined) status.healthy = task.sentHealthy;
    status.message = 'Reconciliation: latest task state';
    if (task.sentCheckStatus !== undefined) status.checkStatus = task.sentCheckStatus;
    this.s.answer(0, status);
  }
}
