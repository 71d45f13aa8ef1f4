import { isTerminalTaskState } from '../scheduler/model/task-state';
import { AgentLedger } from './agent-ledger';
import type { MasterState } from './master-state';
import type { MasterAgent, MasterAgentSpec, MasterTaskLaunch } from './master-types';

/**
 * Agents registering, disconnecting (a partition, or a host that died), reconnecting,
 * reregistering and being removed, with the master's partition-aware reactions
 * (mesos-v1-scheduler-api.md §7.4). Internal to `src/master`; `Master` is the facade.
 */
export class AgentLifecycle<T extends MasterTaskLaunch> {
  constructor(private readonly s: MasterState<T>) {}

  /** A fresh agent registers (connected, offered from the next cycle). */
  register(spec: MasterAgentSpec): MasterAgent {
    const agent: MasterAgent = {
      agentId: spec.info.agentId,
      info: spec.info,
      ipAddresses: spec.ipAddresses,
      ledger: new AgentLedger(spec.pools),
      phase: 'connected',
      dead: false,
      offerId: undefined,
      filteredUntilMs: undefined,
      pingTimer: undefined,
      removalTimer: undefined,
      tasks: new Set(),
      held: [],
      pendingKills: new Map(),
    };
    this.s.agents.set(agent.agentId, agent);
    this.s.agentsChanged();
    this.s.desk.agentChanged(agent);
    return agent;
  }

  /** The master lost its connection to the agent: rescind its offer, start the ping timeout. */
  disconnect(agent: MasterAgent): void {
    if (agent.phase !== 'connected') return;
    agent.phase = 'disconnected';
    this.s.desk.rescind(agent);
    this.startPingTimeout(agent);
  }

  /**
   * The agent is reachable again. Before the ping timeout it reconnects: held updates are delivered
   * in order (with uuids), then remembered kills run. After it, the agent reregisters: each task it
   * has — or that ended meanwhile — is reported in its current state with
   * REASON_AGENT_REREGISTERED, no uuid; tasks are not killed. Offers resume. A dead host does not
   * come back.
   */
  reconnect(agent: MasterAgent): void {
    if (agent.dead) return;
    if (agent.phase === 'disconnected') {
      if (agent.pingTimer !== undefined) this.s.clock.cancel(agent.pingTimer);
      agent.pingTimer = undefined;
      agent.phase = 'connected';
      const held = agent.held;
      agent.held = [];
      for (const h of held) this.s.send(h.task, h.state, h.reason, h.healthy, true, h.message, h.checkStatus);
      const kills = [...agent.pendingKills];
      agent.pendingKills.clear();
      for (const [taskId, graceMs] of kills) {
        const task = this.s.tasks.get(taskId);
        if (task !== undefined && !isTerminalTaskState(task.state)) this.s.runtime.kill(taskId, graceMs);
      }
    } else if (agent.phase === 'unreachable') {
      agent.phase = 'connected';
      for (const task of [...agent.tasks]) {
        if (task.sentState !== undefined && isTerminalTaskState(task.sentState)) continue;
        this.s.send(task, task.state, 'REASON_AGENT_REREGISTERED', task.healthy, false, undefined, task.checkStatus);
      }
    } else {
      return;
    }
    this.s.desk.agentChanged(agent);
  }

  /**
   * The agent's host dies for good: nothing on it runs any more, held updates and remembered kills
   * are lost. A connected agent disconnects (its offer is rescinded, the ping timeout starts); an
   * unreachable one is removed after `agentRemovalMs`.
   */
  hostDied(agent: MasterAgent): void {
    if (agent.dead || agent.phase === 'removed') return;
    agent.dead = true;
    this.s.runtime.hostDied?.(agent.agentId);
    agent.held = [];
    agent.pendingKills.clear();
    if (agent.phase === 'connected') {
      agent.phase = 'disconnected';
      this.s.desk.rescind(agent);
      this.startPingTimeout(agent);
    } else if (agent.phase === 'unreachable') {
      this.scheduleRemoval(agent);
    }
  }

  /**
   * The ping timeout of a disconnected agent ran out: the master marks it unreachable and reports
   * TASK_UNREACHABLE (REASON_AGENT_REMOVED, no uuid) for every task it believed alive there.
   * Held updates and remembered kills are dropped (the master removed the agent's tasks).
   */
  markUnreachable(agent: MasterAgent): void {
    agent.pingTimer = undefined;
    if (agent.phase !== 'disconnected') return;
    agent.phase = 'unreachable';
    agent.unreachableSinceMs = this.s.clock.nowMs();
    agent.held = [];
    agent.pendingKills.clear();
    for (const task of [...agent.tasks]) {
      if (task.sentState !== undefined && isTerminalTaskState(task.sentState)) continue;
      this.s.answer(0, {
        taskId: task.taskId, agentId: agent.agentId, state: 'TASK_UNREACHABLE', reason: 'REASON_AGENT_REMOVED', unreachableSinceMs: agent.unreachableSinceMs,
      });
      task.sentState = 'TASK_UNREACHABLE';
    }
    if (agent.dead) this.scheduleRemoval(agent);
  }

  /**
   * A dead agent is removed for good: TASK_GONE (REASON_AGENT_REMOVED, no uuid) for every task the
   * framework still thinks alive, the master forgets them and the agent's executors, then
   * `agentLost`.
   */
  remove(agent: MasterAgent): void {
    agent.removalTimer = undefined;
    if (agent.phase === 'removed') return;
    agent.phase = 'removed';
    for (const task of [...agent.tasks]) {
      if (task.sentState === undefined || !isTerminalTaskState(task.sentState)) {
        this.s.send(task, 'TASK_GONE', 'REASON_AGENT_REMOVED', undefined, false);
      }
      this.s.forget(task);
    }
    this.s.executors.removeAgent(agent.agentId);
    this.s.runtime.agentRemoved?.(agent.agentId);
    agent.ledger.releaseAll();
    this.s.desk.removeAgent(agent);
    this.s.agentsChanged();
    this.s.outbox.agentLost(agent.agentId);
  }

  private startPingTimeout(agent: MasterAgent): void {
    const due = this.s.clock.nowMs() + this.s.options.agentPingTimeoutMs;
    agent.pingTimer = this.s.clock.schedule(due, { kind: 'agentUnreachable', agentId: agent.agentId });
  }

  private scheduleRemoval(agent: MasterAgent): void {
    const due = this.s.clock.nowMs() + this.s.options.agentRemovalMs;
    agent.removalTimer = this.s.clock.schedule(due, { kind: 'agentRemoved', agentId: agent.agentId });
  }
}
