import { dirname } from 'node:path';
import { isTerminalTaskState, type TaskState } from '../../scheduler/model/task-state';
import { taskExit } from './exit-status';
import type { CheckStatus } from '../../scheduler/model/checks';
import { CheckRunner } from './check-runner';
import { HealthChecker } from './health-checker';
import { isProcessAlive, processStartTime, signalGroup } from './process-identity';
import { hostProcesses } from './sandbox-processes';
import type { ExecutorRecord, TaskRecord } from './state-file';
import type { SpawnRequest } from './launcher-program';
import type { TaskCommand } from './task-command';
import type { SpawnCallbacks, TaskSpawner } from './task-launcher';

/** A status update produced by an executor (the cluster adds ids and a uuid). */
export interface ExecutorUpdate {
  readonly state: TaskState;
  readonly reason?: string;
  readonly message?: string;
  readonly healthy?: boolean;
  /** The task's check status, on the update that reports its change (REASON_TASK_CHECK_STATUS_UPDATED). */
  readonly checkStatus?: CheckStatus;
}

/** How an executor talks to its cluster. */
export interface ExecutorHooks {
  /** Report an update of one task (its record already holds the new state). */
  update(task: TaskRecord, update: ExecutorUpdate): void;
  /** Something recorded of `executor` changed: persist it. */
  changed(executor: LocalExecutor): void;
  /** Every task has ended: free the executor's resources and forget it. */
  ended(executor: LocalExecutor): void;
}

export interface ExecutorSettings {
  readonly taskKilling: boolean;
  readonly exitPollMs: number;
  /** How task processes are started (the launcher, task-launcher.ts). */
  readonly spawner: TaskSpawner;
}

/** A process to start for a task: what `taskCommand` (task-command.ts) found to run. */
export type ProcessCommand = Omit<Extract<TaskCommand, { ok: true }>, 'ok'>;

interface Supervised {
  readonly record: TaskRecord;
  /** Its exit will be reported by the launcher that started it (else, once it has a pid, it is polled). */
  watched: boolean;
  health?: HealthChecker;
  /** The runner of its `check`, while it runs. */
  checker?: CheckRunner;
  killedUnhealthy: boolean;
}

const HEALTH_REASON = 'REASON_TASK_HEALTH_CHECK_STATUS_UPDATED';
const CHECK_REASON = 'REASON_TASK_CHECK_STATUS_UPDATED';

/**
 * One executor on a local agent: a single task (LAUNCH, like the Mesos command executor) or a
 * task group (LAUNCH_GROUP, like the default executor: its tasks start together and die
 * together). Each task is a process leading its own process group.
 *
 * - A task ends when its process (the group leader) exits; whatever else still runs in its
 *   process group is then SIGKILLed, as Mesos destroys a task's container.
 * - Kill (mesos-v1-scheduler-api.md §7.6): SIGTERM to every live task's group, TASK_KILLING when
 *   enabled, SIGKILL when the grace period is over, TASK_KILLED once the process is gone. Another
 *   kill may only shorten the grace period of a single task; a group ignores it.
 * - Groups (§5.3): a TASK_FAILED or TASK_KILLED of one task kills the others; TASK_FINISHED does not.
 * - Processes are started by the launcher (task-launcher.ts), which reports their pids and
 *   their exits; TASK_STARTING and TASK_RUNNING follow the pid. Processes adopted after a
 *   restart (or whose launcher died) are polled every `exitPollMs`.
 */
export class LocalExecutor {
  private readonly tasks: Supervised[];
  private killTimer: NodeJS.Timeout | undefined;
  private pollTimer: NodeJS.Timeout | undefined;
  private detached = false;

  constructor(readonly record: ExecutorRecord, private readonly hooks: ExecutorHooks, private readonly settings: ExecutorSettings) {
    this.tasks = record.tasks.map((r) => ({ record: r, watched: false, killedUnhealthy: false }));
  }

  /** Whether a kill is under way. */
  get killing(): boolean {
    return this.record.killDeadlineMs !== undefined;
  }

  /**
   * Start freshly launched (and already recorded) tasks: ask the launcher to spawn each; STARTING
   * and RUNNING follow for each once its pid is known, TASK_FAILED for one that cannot start.
   */
  launch(commands: ReadonlyMap<string, ProcessCommand>): void {
    const nothing: Supervised[] = [];
    for (const t of this.tasks) {
      const command = commands.get(t.record.taskId);
      if (command === undefined) nothing.push(t);
      else this.settings.spawner.spawn(spawnRequest(command, t.record), this.spawnCallbacks(t));
    }
    for (const t of nothing) this.end(t, { state: 'TASK_FAILED', reason: 'REASON_CONTAINER_LAUNCH_FAILED', message: 'nothing to run' });
  }

  /**
   * Take over the processes of a previous run. Live ones keep running (a kill under way resumes
   * with its old deadline); a task whose process is gone is reported TASK_GONE, as Mesos reports
   * tasks whose executor did not come back after an agent restart (§7.4).
   */
  adopt(): void {
    if (this.live().length === 0) {
      this.hooks.ended(this);
      return;
    }
    for (const t of this.live()) {
      if (t.record.pid !== undefined && isProcessAlive(t.record.pid, t.record.startTime)) continue;
      this.end(t, {
        state: 'TASK_GONE',
        reason: 'REASON_EXECUTOR_REREGISTRATION_TIMEOUT',
        message: t.record.pid === undefined
          ? 'the task has no process: pacer stopped while launching it, and no process of its sandbox runs'
          : `process ${t.record.pid} of the task is gone: it ended while pacer was not running`,
      });
    }
    if (this.live().length === 0) return;
    // Recorded before its TASK_RUNNING went out (a crash in between): the process runs, say so.
    for (const t of this.live()) if (t.record.state === 'TASK_STAGING' || t.record.state === 'TASK_STARTING') this.send(t, { state: 'TASK_RUNNING' });
    const deadline = this.record.killDeadlineMs;
    if (deadline !== undefined) this.scheduleSigkill(deadline);
    else for (const t of this.live()) this.startHealth(t);
    this.pollUnwatched();
  }

  /**
   * Kill every task (§2.8, §7.6). `unhealthy` names the task whose failing health check caused
   * the kill: its TASK_KILLED carries `healthy: false` (§7.5).
   */
  kill(gracePeriodMs: number, unhealthy?: TaskRecord): void {
    const live = this.live();
    if (live.length === 0) return;
    const nowMs = Date.now();
    const graceMs = Math.max(0, gracePeriodMs);
    const deadline = this.record.killDeadlineMs;
    if (deadline !== undefined) {
      if (!this.record.group && nowMs + graceMs < deadline) this.scheduleSigkill(nowMs + graceMs);
      return;
    }
    for (const t of live) {
      if (t.record === unhealthy) t.killedUnhealthy = true;
      this.stopHealth(t);
      if (this.settings.taskKilling) this.send(t, { state: 'TASK_KILLING' });
    }
    for (const t of live) if (t.record.pid !== undefined) signalGroup(t.record.pid, 'SIGTERM');
    this.scheduleSigkill(nowMs + graceMs);
    this.hooks.changed(this);
  }

  /** SIGKILL every live task now; returns the processes to wait for. The executor stops supervising. */
  forceKill(): { pid: number; startTime?: string }[] {
    const out: { pid: number; startTime?: string }[] = [];
    for (const t of this.live()) {
      const pid = t.record.pid;
      if (pid === undefined) continue;
      signalGroup(pid, 'SIGKILL');
      out.push(t.record.startTime === undefined ? { pid } : { pid, startTime: t.record.startTime });
    }
    this.detach();
    return out;
  }

  /** Stop supervising (timers, health checks, launcher reports); the processes keep running. */
  detach(): void {
    this.detached = true;
    if (this.killTimer !== undefined) clearTimeout(this.killTimer);
    if (this.pollTimer !== undefined) clearInterval(this.pollTimer);
    this.killTimer = undefined;
    this.pollTimer = undefined;
    for (const t of this.tasks) {
      this.stopHealth(t);
      t.watched = false;
    }
  }

  /** What the launcher's reports about `t`'s process do. Nothing once the executor is detached. */
  private spawnCallbacks(t: Supervised): SpawnCallbacks {
    return {
      spawned: (pid) => {
        if (this.detached) return;
        t.watched = true;
        this.started(t, pid);
      },
      failed: (message) => {
        if (!this.detached) this.end(t, { state: 'TASK_FAILED', reason: 'REASON_CONTAINER_LAUNCH_FAILED', message });
      },
      exited: (code, signal) => {
        if (this.detached) return;
        t.watched = false;
        this.onExit(t, code, signal);
      },
      lost: () => {
        if (this.detached) return;
        t.watched = false;
        if (t.record.pid === undefined) this.findLost(t);
        this.pollUnwatched();
      },
    };
  }

  /**
   * `t`'s process runs as `pid`: record it (the cluster persists it before the updates go out),
   * then STARTING and RUNNING — or, when a kill came first, the signal the kill is at.
   */
  private started(t: Supervised, pid: number): void {
    if (isTerminalTaskState(t.record.state)) return;
    t.record.pid = pid;
    const startTime = processStartTime(pid);
    if (startTime !== undefined) t.record.startTime = startTime;
    this.hooks.changed(this);
    const deadline = this.record.killDeadlineMs;
    if (deadline !== undefined) {
      signalGroup(pid, Date.now() >= deadline ? 'SIGKILL' : 'SIGTERM');
      return;
    }
    this.send(t, { state: 'TASK_STARTING' });
    this.send(t, { state: 'TASK_RUNNING' });
    this.startHealth(t);
  }

  /**
   * The launcher died before it said whether `t`'s process started: look for it (the session
   * leader whose environment names `t`'s sandbox, as the start-up sweep does) and adopt it, or
   * report that it did not start.
   */
  private findLost(t: Supervised): void {
    const found = hostProcesses(dirname(t.record.sandbox)).find((p) => p.sandbox === t.record.sandbox && !p.check && p.pid === p.session);
    if (found !== undefined) this.started(t, found.pid);
    else this.end(t, { state: 'TASK_FAILED', reason: 'REASON_CONTAINER_LAUNCH_FAILED', message: 'the launcher process died before the task started' });
  }

  /** Poll the processes whose exit no launcher reports (adopted ones, or their launcher died). */
  private pollUnwatched(): void {
    this.pollTimer ??= setInterval(() => this.pollAdopted(), this.settings.exitPollMs);
  }

  private onExit(t: Supervised, code: number | null, signal: string | null): void {
    if (isTerminalTaskState(t.record.state)) return;
    if (t.record.pid !== undefined) signalGroup(t.record.pid, 'SIGKILL');
    const exit = taskExit(code, signal, this.killing);
    this.end(t, { state: exit.state, message: exit.message, ...(this.killing && t.killedUnhealthy ? { healthy: false } : {}) });
  }

  private pollAdopted(): void {
    for (const t of this.live()) {
      if (t.watched || t.record.pid === undefined) continue;
      if (!isProcessAlive(t.record.pid, t.record.startTime)) this.onExit(t, null, null);
    }
  }

  private end(t: Supervised, update: ExecutorUpdate): void {
    if (isTerminalTaskState(t.record.state)) return;
    this.stopHealth(t);
    t.watched = false;
    this.send(t, update);
    const live = this.live();
    if (live.length === 0) {
      this.detach();
      this.hooks.ended(this);
      return;
    }
    if (this.record.group && !this.killing && (update.state === 'TASK_FAILED' || update.state === 'TASK_KILLED')) {
      this.kill(Math.min(...live.map((s) => s.record.killGracePeriodMs)));
    }
    this.hooks.changed(this);
  }

  private send(t: Supervised, update: ExecutorUpdate): void {
    t.record.state = update.state;
    if (update.healthy !== undefined) t.record.healthy = update.healthy;
    if (update.checkStatus !== undefined) t.record.checkStatus = update.checkStatus;
    this.hooks.update(t.record, update);
  }

  /** Start the task's agent-run health check and its `check`, each if it has one and it is not running yet. */
  private startHealth(t: Supervised): void {
    this.startCheck(t);
    const resolved = t.record.healthCheck;
    if (resolved === undefined || t.health !== undefined) return;
    t.health = new HealthChecker(resolved, { env: t.record.env, cwd: t.record.sandbox }, t.record.launchedAtMs, t.record.healthy, {
      result: (healthy) => {
        this.send(t, { state: 'TASK_RUNNING', reason: HEALTH_REASON, healthy });
        this.hooks.changed(this);
      },
      exhausted: () => this.kill(t.record.killGracePeriodMs, t.record),
    });
    t.health.start(resolved.check.delayMs);
  }

  /** Stop the task's health check and its `check`. */
  private stopHealth(t: Supervised): void {
    t.health?.stop();
    t.health = undefined;
    t.checker?.stop();
    t.checker = undefined;
  }

  /**
   * Run the task's `check` (check-runner.ts): each change of its status goes out as a TASK_RUNNING
   * with REASON_TASK_CHECK_STATUS_UPDATED and the new `checkStatus`, as Mesos's executors send it
   * (§5.5); never acted upon. Started with the health check (the task running, or adopted), stopped
   * with it (a kill, the task's end, the executor detached).
   */
  private startCheck(t: Supervised): void {
    const check = t.record.check;
    if (check === undefined || t.checker !== undefined) return;
    t.checker = new CheckRunner(check, { env: t.record.env, cwd: t.record.sandbox }, t.record.checkStatus, (checkStatus) => {
      if (isTerminalTaskState(t.record.state) || this.killing) return;
      this.send(t, { state: 'TASK_RUNNING', reason: CHECK_REASON, checkStatus });
      this.hooks.changed(this);
    });
    t.checker.start();
  }

  private scheduleSigkill(atMs: number): void {
    if (this.killTimer !== undefined) clearTimeout(this.killTimer);
    this.record.killDeadlineMs = atMs;
    this.killTimer = setTimeout(() => {
      this.killTimer = undefined;
      for (const t of this.live()) if (t.record.pid !== undefined) signalGroup(t.record.pid, 'SIGKILL');
    }, Math.max(0, atMs - Date.now()));
  }

  private live(): Supervised[] {
    return this.tasks.filter((t) => !isTerminalTaskState(t.record.state));
  }
}

/** The launcher's request for a task's process: its command, in its sandbox, with its environment. */
function spawnRequest(command: ProcessCommand, record: TaskRecord): Omit<SpawnRequest, 'id'> {
  return { file: command.file, args: command.args, direct: command.direct, env: record.env, sandbox: record.sandbox };
}
