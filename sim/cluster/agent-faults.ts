import { isTerminalTaskState } from '../../src/scheduler/model/task-state';
import { AgentLedger } from './agent-ledger';
import type { ClusterState } from './cluster-state';
import type { SimAgentState } from './cluster-types';
import type { ExecutorSim } from './executor-sim';
import type { SimAgentSpec } from './sim-agent-spec';

/**
 * Agents joining, partitioning, healing, dying and being removed, with the master's
 * partition-aware reactions (spec §7.4). Internal to `sim/cluster`; `SimCluster` is the facade.
 */
export class AgentFaults {
  constructor(
    private readonly s: ClusterState,
    private readonly ex: ExecutorSim,
  ) {}

  /** A fresh agent registers (connected, offered from the next cycle). */
  register(spec: SimAgentSpec): void {
    const agent: SimAgentState = {
      spec,
      info: {
        agentId: spec.agentId,
        hostname: spec.hostname,
        ...(spec.region === undefined ? {} : { region: spec.region }),
        ...(spec.zone === undefined ? {} : { zone: spec.zone }),
        attributes: spec.attributes,
      },
      ledger: new AgentLedger(spec),
      phase: 'connected',
      dead: false,
      tasks: new Set(),
      executors: new Set(),
      held: [],
      pendingKills: new Map(),
    };
    this.s.agents.set(spec.agentId, agent);
    this.s.agentsChanged();
    this.s.desk.agentChanged(agent);
  }

  /** See `SimCluster.partitionAgent`. */
  partition(agent: SimAgentState): void {
    if (agent.phase !== 'connected') return;
    agent.phase = 'disconnected';
    this.s.desk.rescind(agent);
    this.startPingTimeout(agent);
  }

  /** See `SimCluster.healAgent`. */
  heal(agent: SimAgentState): void {
    if (agent.dead) return;
    if (agent.phase === 'disconnected') {
      if (agent.pingTimer !== undefined) this.s.ctx.cancel(agent.pingTimer);
      agent.pingTimer = undefined;
      agent.phase = 'connected';
      const held = agent.held;
      agent.held = [];
      for (const h of held) this.s.send(h.task, h.state, h.reason, h.healthy, true);
      const kills = [...agent.pendingKills];
      agent.pendingKills.clear();
      for (const [taskId, graceMs] of kills) {
        const task = this.s.tasks.get(taskId);
        if (task !== undefined && !isTerminalTaskState(task.state)) this.ex.kill(task.executor, graceMs);
      }
    } else if (agent.phase === 'unreachable') {
      agent.phase = 'connected';
      for (const task of [...agent.tasks]) {
        if (task.sentState !== undefined && isTerminalTaskState(task.sentState)) continue;
        this.s.send(task, task.state, 'REASON_AGENT_REREGISTERED', task.healthy, false);
      }
    } else {
      return;
    }
    this.s.desk.agentChanged(agent);
  }

  /** See `SimCluster.killAgent`. */
  kill(agent: SimAgentState): void {
    if (agent.dead || agent.phase === 'removed') return;
    agent.dead = true;
    this.ex.freeze(agent);
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
  markUnreachable(agent: SimAgentState): void {
    agent.pingTimer = undefined;
    if (agent.phase !== 'disconnected') return;
    agent.phase = 'unreachable';
    agent.held = [];
    agent.pendingKills.clear();
    const now = this.s.ctx.nowMs();
    for (const task of [...agent.tasks]) {
      if (task.sentState !== undefined && isTerminalTaskState(task.sentState)) continue;
      this.s.outbox.status(now, { taskId: task.taskId, agentId: task.launch.agentId, state: 'TASK_UNREACHABLE', reason: 'REASON_AGENT_REMOVED' }, false);
      task.sentState = 'TASK_UNREACHABLE';
    }
    if (agent.dead) this.scheduleRemoval(agent);
  }

  /**
   * A dead agent is removed for good: TASK_GONE (REASON_AGENT_REMOVED, no uuid) for every task the
   * framework still thinks alive, the master forgets them, then `agentLost`.
   */
  remove(agent: SimAgentState): void {
    agent.removalTimer = undefined;
    if (agent.phase === 'removed') return;
    agent.phase = 'removed';
    for (const task of [...agent.tasks]) {
      if (task.sentState === undefined || !isTerminalTaskState(task.sentState)) {
        this.s.send(task, 'TASK_GONE', 'REASON_AGENT_REMOVED', undefined, false);
      }
      this.s.forget(task);
    }
    this.ex.dropAll(agent);
    this.s.desk.removeAgent(agent);
    this.s.agentsChanged();
    this.s.outbox.agentLost(agent.spec.agentId);
  }

  private startPingTimeout(agent: SimAgentState): void {
    const due = this.s.ctx.nowMs() + this.s.timings.agentPingTimeoutMs;
    agent.pingTimer = this.s.ctx.schedule(due, { kind: 'agentUnreachable', agentId: agent.spec.agentId });
  }

  private scheduleRemoval(agent: SimAgentState): void {
    const due = this.s.ctx.nowMs() + (this.s.timings.agentRemovalMs ?? 0);
    agent.removalTimer = this.s.ctx.schedule(due, { kind: 'agentRemoved', agentId: agent.spec.agentId });
  }
}
