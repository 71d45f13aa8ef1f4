import type { AgentRuntime } from '../../src/master/master-ports';
import type { MasterExecutor, MasterOperation } from '../../src/master/master-types';
import type { CheckStatus } from '../../src/scheduler/model/checks';
import { isTerminalTaskState, type TaskState } from '../../src/scheduler/model/task-state';
import { agentCheckPasses, nextGridMs } from './agent-check';
import type { ClusterState } from './cluster-state';
import type { SimExecutor, SimLaunch, SimTask } from './cluster-types';
import { drawDelayMs } from './draw';
import { passStableUntilMs, respondHealth } from './health-responder';

const HEALTH_REASON = 'REASON_TASK_HEALTH_CHECK_STATUS_UPDATED';
const CHECK_REASON = 'REASON_TASK_CHECK_STATUS_UPDATED';

/**
 * The simulated agents' executors, plugged into the master model as its {@link AgentRuntime}:
 * launch steps, task models, kills and agent-run health checks. Each executor is a single task
 * (LAUNCH) or a task group on the default executor (LAUNCH_GROUP); a group moves through its
 * launch steps together and dies together (spec §5.3). Every state change is reported to the
 * master (`taskUpdate`), which delivers, holds or drops it as the agent's connection allows; an
 * executor whose last task ended is reported gone (`executorEnded`), freeing its allocation.
 *
 * All delays are drawn from `ctx.streams.tasks` (health flakiness from `ctx.streams.health`), in
 * event order; every future step is one loop entry, cancelled when it becomes moot.
 */
export class ExecutorSim implements AgentRuntime<SimLaunch> {
  private executorSeq = 0;

  constructor(private readonly s: ClusterState) {}

  /** Start the tasks of an accepted (and validated) launch operation on its agent. */
  launch(op: MasterOperation<SimLaunch>, master: MasterExecutor): void {
    const launches = op.kind === 'launch' ? [op.task] : op.tasks;
    const agent = master.agent;
    const ex: SimExecutor = {
      executorNo: ++this.executorSeq,
      agent,
      master,
      group: op.kind === 'launchGroup',
      tasks: [],
      phase: 'pending',
      live: launches.length,
      killing: false,
    };
    for (const launch of launches) {
      const task: SimTask = {
        taskId: launch.taskId,
        launch,
        executor: ex,
        state: 'TASK_STAGING',
        consecutiveFailures: 0,
        hadHealthSuccess: false,
        killedUnhealthy: false,
      };
      ex.tasks.push(task);
      this.s.tasks.set(task.taskId, task);
      this.s.addLive(task);
    }
    this.s.executors.set(ex.executorNo, ex);
    this.executorsOf(agent.agentId).add(ex);
    const now = this.s.ctx.nowMs();
    ex.stepTimer = this.s.ctx.schedule(now + this.draw(this.s.timings.stagingMs), { kind: 'launchStep', executorNo: ex.executorNo });
    for (const task of ex.tasks) {
      const model = this.s.taskModel(task.launch.runSpecId);
      if (model.kind === 'failToStart') this.scheduleExit(task, model.afterMs, 'TASK_FAILED', 'REASON_CONTAINER_LAUNCH_FAILED');
    }
  }

  /**
   * Take over tasks already on their agent when the simulation starts (a what-if fork of a live
   * cluster, src/whatif): the master booked their allocation (`Master.adoptExecutor`); here they
   * become an executor in the phase their state says. Running tasks stay running (their exits and
   * agent-run health checks are not re-planned: they keep the health they were last reported
   * with); staging or starting ones go on with their launch steps from now.
   */
  adopt(launches: readonly SimLaunch[], state: TaskState, master: MasterExecutor, healthy?: boolean): void {
    const phase: SimExecutor['phase'] = state === 'TASK_STAGING' ? 'staging' : state === 'TASK_STARTING' ? 'starting' : 'running';
    const ex: SimExecutor = {
      executorNo: ++this.executorSeq, agent: master.agent, master, group: launches.length > 1 || master.group,
      tasks: [], phase, live: launches.length, killing: false,
    };
    const now = this.s.ctx.nowMs();
    for (const launch of launches) {
      const task: SimTask = {
        taskId: launch.taskId, launch, executor: ex, state: phase === 'running' ? 'TASK_RUNNING' : state,
        consecutiveFailures: 0, hadHealthSuccess: healthy === true, killedUnhealthy: false,
        ...(healthy === undefined ? {} : { healthy }),
        ...(phase === 'running' ? { runningAtMs: now } : {}),
      };
      ex.tasks.push(task);
      this.s.tasks.set(task.taskId, task);
      this.s.addLive(task);
    }
    this.s.executors.set(ex.executorNo, ex);
    this.executorsOf(master.agent.agentId).add(ex);
    if (phase !== 'running') {
      const range = phase === 'staging' ? this.s.timings.startingMs : this.s.timings.runningMs;
      ex.stepTimer = this.s.ctx.schedule(now + this.draw(range), { kind: 'launchStep', executorNo: ex.executorNo });
    }
  }

  /** STAGING → STARTING → RUNNING, all tasks of the executor at once. */
  onLaunchStep(ex: SimExecutor): void {
    ex.stepTimer = undefined;
    if (ex.killing || ex.live === 0) return;
    const now = this.s.ctx.nowMs();
    const step = (range: readonly [number, number]): void => {
      ex.stepTimer = this.s.ctx.schedule(now + this.draw(range), { kind: 'launchStep', executorNo: ex.executorNo });
    };
    switch (ex.phase) {
      case 'pending':
        ex.phase = 'staging';
        for (const t of this.liveTasks(ex)) this.report(t, 'TASK_STAGING');
        step(this.s.timings.startingMs);
        return;
      case 'staging':
        ex.phase = 'starting';
        for (const t of this.liveTasks(ex)) {
          t.state = 'TASK_STARTING';
          this.report(t, 'TASK_STARTING');
        }
        step(this.s.timings.runningMs);
        return;
      case 'starting':
        ex.phase = 'running';
        for (const t of this.liveTasks(ex)) {
          if (this.s.taskModel(t.launch.runSpecId).kind !== 'failToStart') this.becomeRunning(t);
        }
        return;
      case 'running':
        return;
    }
  }

  /** A task ends by itself (its task model). */
  onTaskExit(task: SimTask): void {
    task.exitTimer = undefined;
    const exit = task.exit;
    task.exit = undefined;
    if (exit === undefined || isTerminalTaskState(task.state) || task.executor.killing) return;
    this.endTask(task, exit.state, exit.reason);
  }

  /** The tasks of a killed executor are gone. */
  onKillDone(ex: SimExecutor): void {
    ex.killTimer = undefined;
    for (const t of this.liveTasks(ex)) this.endTask(t, 'TASK_KILLED', undefined, t.killedUnhealthy ? false : undefined);
  }

  /** The master kills the executor that runs `taskId` (see {@link killExecutor}). */
  kill(taskId: string, graceMs: number): void {
    const task = this.s.tasks.get(taskId);
    if (task !== undefined) this.killExecutor(task.executor, graceMs);
  }

  /**
   * Kill every task of the executor (spec §2.8, §7.6). Before the tasks reached the executor
   * (STAGING) they end at once as TASK_KILLED with REASON_TASK_KILLED_DURING_LAUNCH. Otherwise
   * TASK_KILLING (with the capability), then TASK_KILLED when the tasks exit after a drawn shutdown
   * delay or when SIGKILL comes at the end of `graceMs`, whichever is first. A second kill of a
   * single task may only shorten the grace period (command executor); the default executor ignores
   * it. `unhealthy` marks the task whose failing check caused the kill (its TASK_KILLED carries
   * `healthy: false`).
   */
  killExecutor(ex: SimExecutor, graceMs: number, unhealthy?: SimTask): void {
    if (ex.live === 0) return;
    const now = this.s.ctx.nowMs();
    if (ex.phase === 'pending' || ex.phase === 'staging') {
      this.cancelStep(ex);
      ex.killing = true;
      for (const t of this.liveTasks(ex)) this.endTask(t, 'TASK_KILLED', 'REASON_TASK_KILLED_DURING_LAUNCH');
      return;
    }
    const grace = Math.max(0, graceMs);
    if (ex.killing) {
      if (!ex.group && ex.killEndMs !== undefined && now + grace < ex.killEndMs) this.scheduleKillDone(ex, now + grace);
      return;
    }
    ex.killing = true;
    this.cancelStep(ex);
    if (unhealthy !== undefined) unhealthy.killedUnhealthy = true;
    for (const t of this.liveTasks(ex)) {
      this.cancelTaskTimers(t);
      if (this.s.taskKilling) {
        t.state = 'TASK_KILLING';
        this.report(t, 'TASK_KILLING');
      }
    }
    this.scheduleKillDone(ex, now + Math.min(this.draw(this.s.timings.shutdownMs), grace));
  }

  /**
   * One agent-run health check of a running task (spec §7.5). First check at RUNNING + delayMs,
   * then every intervalMs; a result that changes nothing (healthy → healthy) is not reported, so
   * after a pass the next check is scheduled only for when the answer can change — for `flaky`
   * responders, the drawn check at which the next failure comes (a geometric draw: the same
   * distribution as one Bernoulli draw per check, one draw per failure instead of one per check).
   */
  onHealthCheck(task: SimTask): void {
    task.healthTimer = undefined;
    const resolved = task.launch.healthCheck;
    if (resolved === undefined || task.state !== 'TASK_RUNNING' || task.executor.killing || task.runningAtMs === undefined) return;
    const check = resolved.check;
    const now = this.s.ctx.nowMs();
    const model = this.s.healthModel(task.launch.runSpecId);
    const interval = Math.max(1, check.intervalMs);
    const first = task.runningAtMs + check.delayMs;
    task.lastCheckMs = now;
    let passed: boolean;
    if (model.kind === 'flaky') {
      task.flakyFailAtMs ??= now + this.passesBeforeFailure(model.p) * interval;
      passed = now < task.flakyFailAtMs;
      if (!passed) task.flakyFailAtMs = undefined;
    } else {
      passed = agentCheckPasses(check.protocol, respondHealth(model, now, this.s.scenarioStartMs, this.s.ctx.streams.health), check.timeoutMs);
    }
    if (passed) {
      task.consecutiveFailures = 0;
      task.hadHealthSuccess = true;
      if (task.healthy !== true) {
        task.healthy = true;
        this.report(task, 'TASK_RUNNING', HEALTH_REASON, true);
      }
      // Nothing to report until the answer can change: sleep until then.
      const until = model.kind === 'flaky' ? (task.flakyFailAtMs ?? now + 1) : passStableUntilMs(model, now, this.s.scenarioStartMs);
      if (until !== Infinity) this.scheduleHealth(task, nextGridMs(first, interval, Math.max(until, now + 1)));
      return;
    }
    if (!task.hadHealthSuccess && now < task.runningAtMs + check.gracePeriodMs) {
      this.scheduleHealth(task, now + interval);
      return;
    }
    task.consecutiveFailures++;
    task.healthy = false;
    // Built-in executors report every unhealthy result, and kill at failures >= max (0 kills on the first).
    this.report(task, 'TASK_RUNNING', HEALTH_REASON, false);
    if (task.consecutiveFailures >= check.maxConsecutiveFailures) {
      this.killExecutor(task.executor, task.launch.killGracePeriodMs, task);
      return;
    }
    this.scheduleHealth(task, now + interval);
  }

  /**
   * A task's `check` (Marathon's generalized check, §5.5) gives its result: always the passing one
   * (HTTP 200, TCP connected, command exit 0), once, `delayMs` after the task runs — deterministic,
   * with no draw from any stream, so a scenario without a `check` runs exactly as before. It never
   * changes afterwards, and Mesos's executors report a check status only when it changes, so this
   * is the task's one check update (docs/scenario-format.md).
   */
  onCheck(task: SimTask): void {
    task.checkTimer = undefined;
    const check = task.launch.check;
    if (check === undefined || task.state !== 'TASK_RUNNING' || task.executor.killing) return;
    this.s.master.taskUpdate(task.taskId, 'TASK_RUNNING', CHECK_REASON, undefined, undefined, passingCheckStatus(check.kind));
  }

  /** The run spec's task model changed: re-plan exits of its live tasks. */
  taskModelChanged(runSpecId: string): void {
    const model = this.s.taskModel(runSpecId);
    for (const t of this.s.liveOf(runSpecId)) {
      if (t.executor.agent.dead || t.executor.killing) continue;
      if (t.exitTimer !== undefined) this.s.ctx.cancel(t.exitTimer);
      t.exitTimer = undefined;
      t.exit = undefined;
      if (t.state === 'TASK_RUNNING') {
        if (model.kind === 'exitAfter') this.scheduleExit(t, model.afterMs, model.state);
      } else if (model.kind === 'failToStart') {
        this.scheduleExit(t, model.afterMs, 'TASK_FAILED', 'REASON_CONTAINER_LAUNCH_FAILED');
      } else if (t.executor.phase === 'running' && t.state === 'TASK_STARTING') {
        this.becomeRunning(t);
      }
    }
  }

  /** The run spec's health model changed: check its running tasks again at their next check time. */
  healthModelChanged(runSpecId: string): void {
    const now = this.s.ctx.nowMs();
    for (const t of this.s.liveOf(runSpecId)) {
      const resolved = t.launch.healthCheck;
      if (resolved === undefined || t.runningAtMs === undefined || t.state !== 'TASK_RUNNING') continue;
      if (t.executor.agent.dead || t.executor.killing) continue;
      const interval = Math.max(1, resolved.check.intervalMs);
      t.flakyFailAtMs = undefined;
      let due = nextGridMs(t.runningAtMs + resolved.check.delayMs, interval, now);
      if (t.lastCheckMs === due) due += interval;
      this.scheduleHealth(t, due);
    }
  }

  /** The agent's host died: nothing on it runs any more. */
  hostDied(agentId: string): void {
    for (const ex of this.executorsOf(agentId)) {
      this.cancelStep(ex);
      if (ex.killTimer !== undefined) this.s.ctx.cancel(ex.killTimer);
      ex.killTimer = undefined;
      for (const t of ex.tasks) this.cancelTaskTimers(t);
    }
  }

  /** Forget every executor of a removed agent (the master freed its resources). */
  agentRemoved(agentId: string): void {
    const executors = this.executorsOf(agentId);
    for (const ex of executors) {
      for (const t of ex.tasks) {
        if (!isTerminalTaskState(t.state)) this.s.removeLive(t);
        this.s.tasks.delete(t.taskId);
      }
      this.s.executors.delete(ex.executorNo);
    }
    this.s.agentExecutors.delete(agentId);
  }

  /**
   * A task reached a terminal state: report it, free the executor's resources once its last task
   * is gone, and — on the default executor — kill the siblings after a TASK_FAILED or TASK_KILLED
   * (spec §5.3; TASK_FINISHED leaves them alone).
   */
  private endTask(task: SimTask, state: TaskState, reason?: string, healthy?: boolean): void {
    if (isTerminalTaskState(task.state)) return;
    task.state = state;
    this.cancelTaskTimers(task);
    this.report(task, state, reason, healthy);
    this.s.removeLive(task);
    const ex = task.executor;
    ex.live--;
    if (ex.live === 0) {
      this.cancelStep(ex);
      if (ex.killTimer !== undefined) this.s.ctx.cancel(ex.killTimer);
      ex.killTimer = undefined;
      this.s.executors.delete(ex.executorNo);
      this.executorsOf(ex.agent.agentId).delete(ex);
      for (const t of ex.tasks) this.s.tasks.delete(t.taskId);
      this.s.master.executorEnded(ex.master);
    } else if (ex.group && !ex.killing && (state === 'TASK_FAILED' || state === 'TASK_KILLED')) {
      let grace = Infinity;
      for (const t of this.liveTasks(ex)) grace = Math.min(grace, t.launch.killGracePeriodMs);
      this.killExecutor(ex, grace);
    }
  }

  private becomeRunning(task: SimTask): void {
    task.state = 'TASK_RUNNING';
    task.runningAtMs = this.s.ctx.nowMs();
    this.report(task, 'TASK_RUNNING');
    const model = this.s.taskModel(task.launch.runSpecId);
    if (model.kind === 'exitAfter') this.scheduleExit(task, model.afterMs, model.state);
    const resolved = task.launch.healthCheck;
    if (resolved !== undefined) this.scheduleHealth(task, task.runningAtMs + resolved.check.delayMs);
    const check = task.launch.check;
    if (check !== undefined) task.checkTimer = this.s.ctx.schedule(task.runningAtMs + check.delayMs, { kind: 'check', taskId: task.taskId });
  }

  private scheduleExit(task: SimTask, range: readonly [number, number], state: 'TASK_FAILED' | 'TASK_FINISHED', reason?: string): void {
    task.exit = reason === undefined ? { state } : { state, reason };
    task.exitTimer = this.s.ctx.schedule(this.s.ctx.nowMs() + this.draw(range), { kind: 'taskExit', taskId: task.taskId });
  }

  private scheduleHealth(task: SimTask, dueMs: number): void {
    if (task.healthTimer !== undefined) this.s.ctx.cancel(task.healthTimer);
    task.healthTimer = this.s.ctx.schedule(dueMs, { kind: 'healthCheck', taskId: task.taskId });
  }

  private scheduleKillDone(ex: SimExecutor, dueMs: number): void {
    if (ex.killTimer !== undefined) this.s.ctx.cancel(ex.killTimer);
    ex.killEndMs = dueMs;
    ex.killTimer = this.s.ctx.schedule(dueMs, { kind: 'killDone', executorNo: ex.executorNo });
  }

  private cancelStep(ex: SimExecutor): void {
    if (ex.stepTimer !== undefined) this.s.ctx.cancel(ex.stepTimer);
    ex.stepTimer = undefined;
  }

  private cancelTaskTimers(task: SimTask): void {
    if (task.exitTimer !== undefined) this.s.ctx.cancel(task.exitTimer);
    if (task.healthTimer !== undefined) this.s.ctx.cancel(task.healthTimer);
    if (task.checkTimer !== undefined) this.s.ctx.cancel(task.checkTimer);
    task.exitTimer = undefined;
    task.healthTimer = undefined;
    task.checkTimer = undefined;
    task.exit = undefined;
  }

  /** Tell the master about a state change of `task` on its agent (the caller already set `task.state`). */
  private report(task: SimTask, state: TaskState, reason?: string, healthy?: boolean): void {
    this.s.master.taskUpdate(task.taskId, state, reason, healthy);
  }

  private executorsOf(agentId: string): Set<SimExecutor> {
    let set = this.s.agentExecutors.get(agentId);
    if (set === undefined) {
      set = new Set();
      this.s.agentExecutors.set(agentId, set);
    }
    return set;
  }

  private liveTasks(ex: SimExecutor): SimTask[] {
    return ex.tasks.filter((t) => !isTerminalTaskState(t.state));
  }

  /** Passing checks before the next failure of a responder failing with probability `p` per check (geometric). */
  private passesBeforeFailure(p: number): number {
    if (p >= 1) return 0;
    if (p <= 0) return Infinity;
    const u = this.s.ctx.streams.health.next();
    return Math.floor(Math.log(1 - u) / Math.log(1 - p));
  }

  private draw(range: readonly [number, number]): number {
    return drawDelayMs(this.s.ctx.streams.tasks, range);
  }
}

/** The passing result of a check of this kind, as a Mesos executor reports it. */
function passingCheckStatus(kind: 'http' | 'tcp' | 'command'): CheckStatus {
  switch (kind) {
    case 'http': return { http: { statusCode: 200 } };
    case 'tcp': return { tcp: { succeeded: true } };
    case 'command': return { command: { exitCode: 0 } };
  }
}
