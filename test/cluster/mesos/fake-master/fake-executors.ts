import type { Call, Event, OfferOperation, TaskState, TaskStatusReason } from '../../../../src/cluster/mesos/codec/mesos-model';
import { ExecutorBook, executorRefusal } from '../../../../src/master/executor-book';

/** One executor the fake agent runs: its tasks and whether it is shutting down. */
interface FakeExecutor {
  readonly agentId: string;
  readonly executorId: string;
  /** Task ids still not terminal. */
  readonly liveTasks: Set<string>;
  /** How many tasks are not terminal (what the master model's executor book reads). */
  readonly live: number;
  /** All tasks ended: the executor is shutting down until the timer fires. */
  shutdownTimer?: NodeJS.Timeout;
}

const TERMINAL: ReadonlySet<string> = new Set<TaskState>([
  'TASK_FINISHED', 'TASK_FAILED', 'TASK_KILLED', 'TASK_LOST', 'TASK_ERROR', 'TASK_DROPPED', 'TASK_GONE', 'TASK_GONE_BY_OPERATOR',
]);

/**
 * The lifetime of default executors (LAUNCH_GROUP) on the fake master's agents. What an agent does
 * with an operation whose executor id is taken is the master model's rule, not this file's: the
 * executors are booked in the model's {@link ExecutorBook} and a LAUNCH_GROUP is answered with
 * {@link executorRefusal} (src/master/executor-book.ts), exactly as the simulator and the local
 * cluster answer it:
 * - once every task of an executor is terminal, the default executor shuts itself down; until it
 *   is gone (`shutdownMs`), a LAUNCH_GROUP for the same executor id gets TASK_DROPPED,
 *   REASON_EXECUTOR_TERMINATED (apache/mesos src/slave/slave.cpp `Slave::__run`);
 * - a LAUNCH_GROUP into an executor that still has live tasks gets TASK_ERROR (the master model
 *   starts every operation on an executor of its own; pacer never reuses an executor id);
 * - when an executor is gone the master sends FAILURE with the agent and executor ids (§3.8).
 *
 * Task states are learnt from the UPDATE events the test writes on the stream (`observe`).
 */
export class FakeExecutors {
  /** How long a default executor takes to shut down after its last task ended (ms). */
  shutdownMs = 1500;
  /** LAUNCH_GROUPs refused because their executor id was taken. */
  readonly refused: string[] = [];
  private readonly book = new ExecutorBook<FakeExecutor>();
  private readonly all = new Set<FakeExecutor>();
  private readonly taskExecutor = new Map<string, FakeExecutor>();

  /** @param send writes one event on the open stream (the FAILURE when an executor is gone). */
  constructor(private readonly send: (event: Event) => void) {}

  /** The events to answer an ACCEPT with: the master model's refusal of groups whose executor id is taken. */
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
    executor.liveTasks.delete(status.taskId.value);
    if (executor.liveTasks.size === 0 && executor.shutdownTimer === undefined) this.shutDown(executor);
  }

  /** Whether an executor with this id still exists on the agent (running or shutting down). */
  exists(agentId: string, executorId: string): boolean {
    return this.book.get(agentId, executorId) !== undefined;
  }

  /** Forgets everything (the master closes). */
  clear(): void {
    for (const executor of this.all) {
      clearTimeout(executor.shutdownTimer);
      this.book.remove(executor);
    }
    this.all.clear();
    this.taskExecutor.clear();
  }

  private launchGroup(op: OfferOperation): Event[] {
    const group = op.launchGroup;
    if (op.type !== 'LAUNCH_GROUP' || group === undefined) return [];
    const tasks = group.taskGroup.tasks ?? [];
    const agentId = tasks[0]?.agentId.value ?? '';
    const executorId = group.executor.executorId.value;
    const refusal = executorRefusal(this.book.verdict(agentId, executorId), executorId, true);
    if (refusal !== undefined) {
      this.refused.push(executorId);
      return tasks.map((task) => ({
        type: 'UPDATE',
        update: {
          status: {
            taskId: task.taskId, state: refusal.state, agentId: task.agentId, source: 'SOURCE_AGENT',
            ...(refusal.reason === undefined ? {} : { reason: refusal.reason as TaskStatusReason }), message: refusal.message,
          },
        },
      }));
    }
    const liveTasks = new Set(tasks.map((task) => task.taskId.value));
    const executor: FakeExecutor = { agentId, executorId, liveTasks, get live() { return liveTasks.size; } };
    this.book.add(executor);
    this.all.add(executor);
    for (const task of tasks) this.taskExecutor.set(task.taskId.value, executor);
    return [];
  }

  private shutDown(executor: FakeExecutor): void {
    executor.shutdownTimer = setTimeout(() => {
      this.book.remove(executor);
      this.all.delete(executor);
      this.send({ type: 'FAILURE', failure: { agentId: { value: executor.agentId }, executorId: { value: executor.executorId }, status: 0 } });
    }, this.shutdownMs);
  }
}
