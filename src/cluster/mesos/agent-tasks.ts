import type { TaskState } from '../../scheduler/model/task-state';
import { isTerminalTaskState } from '../../scheduler/model/task-state';

/**
 * The tasks the driver knows on each agent and has not heard end: learnt from the launches it sent
 * and the status updates it received (and forgotten on a terminal one, or TASK_UNKNOWN: the master
 * knows nothing to tell). Only for asking the master about an agent's tasks when a FAILURE event
 * reports the agent lost (mesos-cluster.ts); the core keeps the real record. One entry per task:
 * after a pacer restart the core's reconciliation of every task on SUBSCRIBED fills it again.
 */
export class AgentTasks {
  private readonly byAgent = new Map<string, Set<string>>();
  private readonly agentOf = new Map<string, string>();

  /** A task launched on (or reported from) `agentId`. */
  add(taskId: string, agentId: string): void {
    const was = this.agentOf.get(taskId);
    if (was === agentId) return;
    if (was !== undefined) this.remove(taskId);
    this.agentOf.set(taskId, agentId);
    let tasks = this.byAgent.get(agentId);
    if (tasks === undefined) {
      tasks = new Set();
      this.byAgent.set(agentId, tasks);
    }
    tasks.add(taskId);
  }

  /** A status update (or a launch reported dropped): a task that ended, or that the master does not know, is forgotten. */
  updated(taskId: string, agentId: string | undefined, state: TaskState): void {
    if (isTerminalTaskState(state) || state === 'TASK_UNKNOWN') this.remove(taskId);
    else if (agentId !== undefined) this.add(taskId, agentId);
  }

  /** The agent's tasks, forgotten here: the answers to asking about them add the live ones back. */
  take(agentId: string): string[] {
    const tasks = [...(this.byAgent.get(agentId) ?? [])];
    for (const taskId of tasks) this.agentOf.delete(taskId);
    this.byAgent.delete(agentId);
    return tasks;
  }

  /** Tasks known, on every agent. */
  get size(): number {
    return this.agentOf.size;
  }

  clear(): void {
    this.byAgent.clear();
    this.agentOf.clear();
  }

  private remove(taskId: string): void {
    const agentId = this.agentOf.get(taskId);
    if (agentId === undefined) return;
    this.agentOf.delete(taskId);
    const tasks = this.byAgent.get(agentId);
    tasks?.delete(taskId);
    if (tasks?.size === 0) this.byAgent.delete(agentId);
  }
}
