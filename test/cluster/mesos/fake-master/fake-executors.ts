import type { Call, Event, OfferOperation, TaskState } from '../../../../src/cluster/mesos/codec/mesos-model';

/** One executor the fake agent runs: its tasks and whether it is shutting down. */
interface FakeExecutor {
  readonly agentId: string;
  readonly executorId: string;
  /** Task ids still not terminal. */
  readonly live: Set<string>;
  /** All tasks ended: the executor is shutting down until the timer fires. */
  shutdownTimer?: NodeJS.Timeout;
}

const TERMINAL: ReadonlySet<TaskState> = new Set<TaskState>([
  'TASK_FINISHED', 'TASK_FAILED', 'TASK_KILLED', 'TASK_LOST', 'TASK_ERROR', 'TASK_DROPPED', 'TASK_GONE', 'TASK_GONE_BY_OPERATOR',
]);

/**
 * The lifetime of default executors (LAUNCH_GROUP) on the fake master's agents, as a real agent
 * handles it (apache/mesos src/slave/slave.cpp `Slave::__run`, src/launcher/default_executor.cpp):
 * - a LAUNCH_GROUP names an executor; while an executor with that id exists on the agent and still
 *   has live tasks, the group joins it (the master sets `launch_executor` false);
 * - once every task of an executor is terminal, the default executor shuts itself down; until it
 *   is gone (`shutdownMs`), a LAUNCH_GROUP for the same executor id is refused: each task gets
 *   TASK_DROPPED, REASON_EXECUTOR_TERMINATED, "Master wants to launch executor, but one already
 *   exists" (the agent's own text);
 * - when it is gone the master sends FAILURE with the agent and executor ids (§3.8).
 *
 * Task states are learnt from the UPDATE events the test writes on the stream (`observe`).
 */
export class FakeExecutors {
  /** How long a default executor takes to shut down after its last task ended (ms). */
  shutdownMs = 1500;
  /** LAUNCH_GROUPs refused because their executor was still shutting down. */
  readonly refused: string[] = [];
  private readonly executors = new Map<string, FakeExecutor>();
  private readonly taskExecutor = new Map<string, FakeExecutor>();

  /** @param send writes one event on the open stream (the FAILURE when an executor is gone). */
  constructor(private readonly send: (event: Event) => void) {}

  /** The events to answer an ACCEPT with: TASK_DROPPED for groups whose executor is still shutting down. */
  onCall(call: Call): Event[] {
    if (call.type !== 'ACCEPT') return [];
    const out: Event[] = [];
    for (const op of call.accept?.operations ?? []) out.push(...this.launchGroup(op));
    return out;
  }

  /** Follows task states from the events written to the framework. */
  observe(event: Event): void {
    const status = event.update?.status;
    if (event.type !== 'UPDATE' || status === undefined || !TERMINAL.has(status.state)) return;
    const executor = this.taskExecutor.get(status.taskId.value);
    if (executor === undefined) return;
    executor.live.delete(status.taskId.value);
    if (executor.live.size === 0 && executor.shutdownTimer === undefined) this.shutDown(executor);
  }

  /** Whether an executor with this id still exists on the agent (running or shutting down). */
  exists(agentId: string, executorId: string): boolean {
    return this.executors.has(key(agentId, executorId));
  }

  /** Forgets everything (the master closes). */
  clear(): void {
    for (const executor of this.executors.values()) clearTimeout(executor.shutdownTimer);
    this.executors.clear();
    this.taskExecutor.clear();
  }

  private launchGroup(op: OfferOperation): Event[] {
    const group = op.launchGroup;
    if (op.type !== 'LAUNCH_GROUP' || group === undefined) return [];
    const tasks = group.taskGroup.tasks ?? [];
    const agentId = tasks[0]?.agentId.value ?? '';
    const executorId = group.executor.executorId.value;
    const existing = this.executors.get(key(agentId, executorId));
    if (existing?.shutdownTimer !== undefined) {
      this.refused.push(executorId);
      return tasks.map((task) => ({
        type: 'UPDATE',
        update: {
          status: {
            taskId: task.taskId, state: 'TASK_DROPPED', agentId: task.agentId, source: 'SOURCE_AGENT',
            reason: 'REASON_EXECUTOR_TERMINATED', message: 'Master wants to launch executor, but one already exists',
          },
        },
      }));
    }
    const executor = existing ?? { agentId, executorId, live: new Set<string>() };
    this.executors.set(key(agentId, executorId), executor);
    for (const task of tasks) {
      executor.live.add(task.taskId.value);
      this.taskExecutor.set(task.taskId.value, executor);
    }
    return [];
  }

  private shutDown(executor: FakeExecutor): void {
    executor.shutdownTimer = setTimeout(() => {
      this.executors.delete(key(executor.agentId, executor.executorId));
      this.send({ type: 'FAILURE', failure: { agentId: { value: executor.agentId }, executorId: { value: executor.executorId }, status: 0 } });
    }, this.shutdownMs);
  }
}

function key(agentId: string, executorId: string): string {
  return `${agentId}\n${executorId}`;
}
