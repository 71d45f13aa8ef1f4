import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ClusterInput, TaskStatus } from '../../scheduler/model/inputs';
import type { LaunchOperation } from '../../scheduler/model/launch';
import { isTerminalTaskState, type TaskState } from '../../scheduler/model/task-state';
import type { ClusterDriver } from '../../scheduler/ports/cluster-driver';
import { AgentBooks } from './agent-books';
import { LaunchCheck, tasksOf } from './launch-check';
import { resolveAgents, type LocalAgent } from './local-agent';
import { DEFAULT_EXIT_POLL_MS, DEFAULT_OFFER_INTERVAL_MS, type LocalClusterOptions } from './local-cluster-options';
import { LocalExecutor, type ExecutorHooks, type ExecutorUpdate, type ProcessCommand } from './local-executor';
import { OfferDesk } from './offer-desk';
import { isGroupAlive, isProcessAlive, killProcessAndGroup } from './process-identity';
import { runnableProblem } from './runnable-problem';
import { sweepSandboxes, type SweepResult } from './sandbox-sweep';
import { sandboxOf } from './sandbox-of';
import { StateFile, type ExecutorRecord, type TaskRecord } from './state-file';
import { StateWriter } from './state-writer';
import { StatusOutbox } from './status-outbox';
import { TaskLauncher } from './task-launcher';
import { hostProcesses } from './sandbox-processes';
import { taskCommand } from './task-command';
import { newTaskRecord } from './task-record';

export type { LocalAgentOptions, LocalClusterOptions } from './local-cluster-options';

/** A task as the local cluster sees it (for operators and tests). */
export interface LocalTaskView {
  readonly taskId: string;
  readonly agentId: string;
  readonly state: TaskState;
  readonly healthy?: boolean;
  readonly pid?: number;
  readonly sandbox: string;
  readonly hostPorts: readonly number[];
}

/** What the cluster remembers of a task until its terminal update is acknowledged (§7.1). */
interface KnownTask {
  readonly record: TaskRecord;
  readonly executor: LocalExecutor;
  readonly agentId: string;
  sentState: TaskState;
  sentHealthy?: boolean;
  terminalUuid?: string;
}

const RECONCILIATION = 'REASON_RECONCILIATION';
const SHUTDOWN_WAIT_MS = 3000;

/**
 * The local-process cluster: a {@link ClusterDriver} that runs tasks as child processes of this
 * host, playing the Mesos master, its agents and the built-in executors at once. It is what
 * `npm start` schedules on by default. References: mesos-v1-scheduler-api.md (§ numbers below),
 * service-spec.md (spec §).
 *
 * Model:
 * - Agents are slices of this host (`agents` option: a count or a list, see {@link resolveAgents}).
 *   In each allocation round every agent without an outstanding offer, refuse filter or role
 *   suppression is offered all its free resources as one unreserved pool ({@link OfferDesk}).
 *   Rounds run every `offerIntervalMs`, and at once after a REVIVE and whenever the launcher is
 *   about to run out of processes to start: an agent accepted with no refuse filter is offered
 *   again as soon as it can take more (issue 13: launching is paced by the spawning, not a timer).
 *   An offer id is valid for one accept or decline; a stale one drops its tasks (TASK_DROPPED,
 *   REASON_INVALID_OFFERS, §2.3).
 * - An accepted LAUNCH starts one process, a LAUNCH_GROUP one process per pod container
 *   ({@link LocalExecutor}): `/bin/sh -c cmd` (or an app's `args` exec'ed), in a sandbox directory
 *   per task under `sandboxRoot` with `stdout`/`stderr` files, detached in its own process group,
 *   with Marathon's task environment (see task-env.ts). A small launcher process does the
 *   spawning ({@link TaskLauncher}: forking from pacer itself costs several times more). Updates: TASK_STARTING, TASK_RUNNING, then
 *   TASK_FINISHED (exit 0), TASK_FAILED (other exits, signals) or TASK_KILLED (after a kill).
 *   Tasks with a container image, or nothing to run, get TASK_ERROR: never silently ignored.
 * - Kill: SIGTERM to the task's process group, TASK_KILLING (with `taskKilling`), SIGKILL after
 *   the grace period (§7.6). A pod dies as a whole (spec §1 item 10).
 * - Agent-run health checks (COMMAND, MESOS_HTTP(S), MESOS_TCP, pod checks) run here with the
 *   Mesos health checker's semantics; verdicts arrive as TASK_RUNNING updates with `healthy`, and
 *   a task failing too often is killed (TASK_KILLED, `healthy: false`, §7.5).
 * - Executor updates carry a uuid, the framework acknowledges them; master answers
 *   (reconciliation, TASK_ERROR, TASK_DROPPED) carry none (§7.1). A task is remembered until its
 *   terminal update is acknowledged. Unknown tasks are answered as the master answers a
 *   partition-aware framework: TASK_GONE on a known agent, else TASK_UNKNOWN (§7.2); a KILL of an
 *   unknown task gets that same answer (§2.8).
 * - Restart survival (issue 11: no process escapes): every live executor (task ids, agent, pids,
 *   /proc start times, ports, resources, sandboxes, kill deadline, health) is recorded in
 *   `stateFile` (a snapshot plus a journal, {@link StateFile}). A launch is recorded *before* its
 *   processes are spawned (write-ahead: the intent, TASK_STAGING without a pid), and again with
 *   the pids once they are known; other changes are recorded once per synchronous turn, always
 *   before the updates of that turn are posted. `stop()` leaves the processes running; the next
 *   `start()` first sweeps the sandboxes ({@link sweepSandboxes}): a task recorded without a pid
 *   adopts its process if one runs, and every process of the sandboxes that no recorded task
 *   accounts for is killed. It then re-adopts the tasks still alive (same pid and start time),
 *   counts their resources, polls them for exit, resumes their health checks and kills, and
 *   reports the vanished ones TASK_GONE once (§7.4). So every process pacer ever started is
 *   either a task the cluster reports (and the core reconciles) or killed.
 * - Real time: Date.now and timers, all cleared by `stop()` / `shutdown()`. Inputs are posted on
 *   a later turn of the event loop, never from inside a driver call ({@link StatusOutbox}).
 */
export class LocalCluster implements ClusterDriver {
  private readonly agents: readonly LocalAgent[];
  private readonly agentById: ReadonlyMap<string, LocalAgent>;
  private readonly books: AgentBooks;
  private readonly state: StateWriter;
  private readonly outbox: StatusOutbox;
  private readonly executors = new Map<string, LocalExecutor>();
  private readonly known = new Map<string, KnownTask>();
  private readonly unacked = new Map<string, string>();
  private readonly hooks: ExecutorHooks;
  private readonly launcher = new TaskLauncher(() => this.offerSoon());
  private desk: OfferDesk | undefined;
  private offerTimer: NodeJS.Timeout | undefined;
  private offerSoonPending: NodeJS.Immediate | undefined;
  private framework: string | undefined;
  /** Driver calls made before the first start (see beforeStart); undefined once started. */
  private early: (() => void)[] | undefined = [];

  constructor(private readonly options: LocalClusterOptions, post: (input: ClusterInput) => void) {
    this.agents = resolveAgents(options.agents);
    this.agentById = new Map(this.agents.map((a) => [a.agentId, a]));
    this.books = new AgentBooks(this.agentById);
    this.state = new StateWriter(new StateFile(options.stateFile ?? join(options.sandboxRoot, 'local-cluster.json')), {
      frameworkId: () => this.framework,
      executor: (key) => this.executors.get(key)?.record,
      executors: () => [...this.executors.values()].map((ex) => ex.record),
    });
    this.outbox = new StatusOutbox(post);
    this.hooks = {
      update: (record, update) => this.onUpdate(record, update),
      changed: (executor) => this.state.changed(executor.record.executorKey),
      ended: (executor) => this.onEnded(executor),
    };
    const interval = options.offerIntervalMs ?? DEFAULT_OFFER_INTERVAL_MS;
    if (!(interval > 0)) throw new RangeError(`offerIntervalMs must be positive, got ${interval}`);
  }

  /** The framework id, stable across restarts on one state file (undefined before the first start). */
  get frameworkId(): string | undefined {
    return this.framework;
  }

  /**
   * Subscribe: post `subscribed` with the framework id (created on the first start), sweep the
   * sandboxes (find the processes of tasks recorded without a pid, kill the processes no task
   * accounts for), re-adopt the tasks recorded in the state file, and begin offering (a first
   * round now).
   */
  start(): void {
    if (this.desk !== undefined) return;
    mkdirSync(this.options.sandboxRoot, { recursive: true });
    const saved = this.state.load();
    const frameworkId = saved?.frameworkId ?? `local-${randomUUID()}`;
    this.framework = frameworkId;
    const executors = saved?.executors ?? [];
    const liveTasks = executors.flatMap((e) => e.tasks).filter((t) => !isTerminalTaskState(t.state));
    this.report(sweepSandboxes(this.options.sandboxRoot, liveTasks));
    this.launcher.warmUp();
    this.outbox.openUp();
    this.outbox.send({ type: 'subscribed', frameworkId });
    this.desk = new OfferDesk(this.agents, `${frameworkId}-${randomUUID().slice(0, 8)}`);
    const adopted = executors.map((record) => this.register(record));
    for (const ex of adopted) ex.adopt();
    const early = this.early ?? [];
    this.early = undefined;
    for (const call of early) call();
    this.state.snapshot();
    this.offerRound();
    this.offerTimer = setInterval(() => this.offerRound(), this.options.offerIntervalMs ?? DEFAULT_OFFER_INTERVAL_MS);
  }

  /** Stop offering and supervising; the tasks keep running and are re-adopted by the next start. */
  stop(): void {
    if (this.offerTimer !== undefined) clearInterval(this.offerTimer);
    this.offerTimer = undefined;
    if (this.offerSoonPending !== undefined) clearImmediate(this.offerSoonPending);
    this.offerSoonPending = undefined;
    this.launcher.close();
    for (const ex of this.executors.values()) ex.detach();
    if (this.desk !== undefined) this.state.snapshot();
    this.state.close();
    this.forgetAll();
    this.desk = undefined;
    this.outbox.close();
  }

  /**
   * For tests: stop the launcher, SIGKILL every task's process group and every other process of
   * the sandboxes (a spawn whose pid had not come back yet), forget them all, stop; resolves once
   * no process of those groups runs any more, or after 3 s.
   */
  async shutdown(): Promise<void> {
    await this.launcher.kill();
    const processes = [...this.executors.values()].flatMap((ex) => ex.forceKill());
    for (const p of hostProcesses(this.options.sandboxRoot)) {
      if (p.sandbox === undefined) continue;
      killProcessAndGroup(p.pid);
      processes.push({ pid: p.pid, startTime: p.startTime });
    }
    this.forgetAll();
    this.stop();
    if (this.framework !== undefined) this.state.clear(this.framework);
    this.state.close();
    const deadline = Date.now() + SHUTDOWN_WAIT_MS;
    const running = (): boolean => processes.some((p) => isProcessAlive(p.pid, p.startTime) || isGroupAlive(p.pid));
    while (running() && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Every task the cluster remembers, launch order. */
  tasks(): readonly LocalTaskView[] {
    return [...this.known.values()].map((k) => ({
      taskId: k.record.taskId,
      agentId: k.agentId,
      state: k.record.state,
      ...(k.record.healthy === undefined ? {} : { healthy: k.record.healthy }),
      ...(k.record.pid === undefined ? {} : { pid: k.record.pid }),
      sandbox: k.record.sandbox,
      hostPorts: k.record.hostPorts,
    }));
  }

  /** The pid of the process that spawns the tasks (task-launcher.ts), while one runs (for operators and tests). */
  launcherPid(): number | undefined {
    return this.launcher.pid;
  }

  /** Uuids of updates not acknowledged yet. */
  unacknowledged(): readonly string[] {
    return [...this.unacked.keys()];
  }

  // ---------------------------------------------------------------- ClusterDriver

  /**
   * ACCEPT (§2.3): a stale offer drops every task (TASK_DROPPED, REASON_INVALID_OFFERS, no uuid).
   * Otherwise each operation, in order, is checked against what is left of the offer and for
   * something runnable; a bad one gets TASK_ERROR for all its tasks and consumes nothing. The
   * good ones are recorded (one write), then their processes spawned. The agent is then filtered
   * for `refuseMs`.
   */
  accept(offerId: string, operations: readonly LaunchOperation[], refuseMs: number): void {
    const desk = this.desk;
    if (desk === undefined) return;
    const offer = desk.take(offerId);
    if (offer === undefined) {
      for (const op of operations) {
        for (const t of tasksOf(op)) this.masterStatus(t.taskId, t.agentId, 'TASK_DROPPED', 'REASON_INVALID_OFFERS', `offer ${offerId} is no longer valid`);
      }
      return;
    }
    const check = new LaunchCheck(offer.pool, offer.agentId, (taskId) => this.known.has(taskId));
    const launches: (() => void)[] = [];
    for (const op of operations) {
      const problem = runnableProblem(tasksOf(op)) ?? check.take(op);
      if (problem !== undefined) {
        const reason = op.kind === 'launch' ? 'REASON_TASK_INVALID' : 'REASON_TASK_GROUP_INVALID';
        for (const t of tasksOf(op)) this.masterStatus(t.taskId, t.agentId, 'TASK_ERROR', reason, problem);
        continue;
      }
      desk.knowRoles(tasksOf(op).map((t) => t.role));
      launches.push(this.record(offer.agentId, op));
    }
    // Write-ahead: every launch of the ACCEPT is on record (one append) before any process starts.
    this.state.flush();
    for (const spawn of launches) spawn();
    desk.refuse(offer.agentId, refuseMs, Date.now());
  }

  /** DECLINE (§2.4): filter each offer's agent for `refuseMs`; unknown ids are ignored. */
  decline(offerIds: readonly string[], refuseMs: number): void {
    for (const id of offerIds) {
      const offer = this.desk?.take(id);
      if (offer !== undefined) this.desk?.refuse(offer.agentId, refuseMs, Date.now());
    }
  }

  /**
   * KILL (§2.8): an unknown task is answered by reconciliation; an `agentId` other than the
   * task's is ignored, as is a task already ended; otherwise its executor is killed.
   */
  kill(taskId: string, agentId: string | undefined, gracePeriodMs: number): void {
    if (this.beforeStart(() => this.kill(taskId, agentId, gracePeriodMs))) return;
    if (this.desk === undefined) return;
    const task = this.known.get(taskId);
    if (task === undefined) {
      this.answerUnknown(taskId, agentId);
      return;
    }
    if ((agentId !== undefined && agentId !== task.agentId) || isTerminalTaskState(task.record.state)) return;
    task.executor.kill(gracePeriodMs);
  }

  /** ACKNOWLEDGE (§7.1): recorded; the acknowledged terminal update lets the cluster forget the task. */
  acknowledge(_agentId: string, taskId: string, uuid: string): void {
    this.unacked.delete(uuid);
    const task = this.known.get(taskId);
    if (task !== undefined && task.terminalUuid === uuid) this.known.delete(taskId);
  }

  /**
   * RECONCILE (§7.2), answered without uuid, REASON_RECONCILIATION: a known task → the latest
   * state sent with its latest `healthy`; an unknown one → TASK_GONE on a known agent, else
   * TASK_UNKNOWN. An empty list: every task the cluster remembers.
   */
  reconcile(tasks: readonly { taskId: string; agentId?: string }[]): void {
    if (this.desk === undefined) return;
    if (tasks.length === 0) {
      for (const task of this.known.values()) this.answerKnown(task);
      return;
    }
    for (const t of tasks) {
      const task = this.known.get(t.taskId);
      if (task === undefined) this.answerUnknown(t.taskId, t.agentId);
      else this.answerKnown(task);
    }
  }

  /** REVIVE (§2.6): un-suppress the roles (all when empty) and clear refuse filters. */
  revive(roles: readonly string[]): void {
    if (this.beforeStart(() => this.revive(roles))) return;
    this.desk?.revive(roles);
    this.offerSoon();
  }

  /** SUPPRESS (§2.7): no more offers for the roles (all when empty) until revived. */
  suppress(roles: readonly string[]): void {
    if (this.beforeStart(() => this.suppress(roles))) return;
    this.desk?.suppress(roles);
  }

  // ---------------------------------------------------------------- internals

  /**
   * The core recovers from the store before the cluster starts (start-local.ts) and may already
   * call it then: kills of instances that were being killed when pacer stopped, revive and
   * suppress. Such calls (before the first start only) are kept and made once the tasks are
   * adopted, instead of being lost until the core's kill retry. Answers whether `call` was kept.
   */
  private beforeStart(call: () => void): boolean {
    if (this.early === undefined) return false;
    this.early.push(call);
    return true;
  }

  /** Drop every executor and task from memory (not from the state file) and free their resources. */
  private forgetAll(): void {
    for (const key of this.executors.keys()) this.books.release(key);
    this.executors.clear();
    this.known.clear();
    this.unacked.clear();
  }

  /** An offer round on the next turn (one at most), as a Mesos master allocates at once on a revive. */
  private offerSoon(): void {
    if (this.desk === undefined || this.offerSoonPending !== undefined) return;
    this.offerSoonPending = setImmediate(() => {
      this.offerSoonPending = undefined;
      this.offerRound();
    });
  }

  private offerRound(): void {
    const offers = this.desk?.makeOffers(Date.now(), (agentId) => this.books.free(agentId)) ?? [];
    if (offers.length > 0) this.outbox.send({ type: 'offers', offers });
  }

  /**
   * Register the executor of a launch (TASK_STAGING, no pid) and mark it for the next write;
   * answers the spawn, to be called once the record is written: a process never runs before its
   * task is on record.
   */
  private record(agentId: string, op: LaunchOperation): () => void {
    const tasks = tasksOf(op);
    const launchedAtMs = Date.now();
    const commands = new Map<string, ProcessCommand>();
    const records = tasks.map((t) => {
      const command = taskCommand(t);
      if (command.ok) commands.set(t.taskId, command);
      return newTaskRecord(t, sandboxOf(this.options.sandboxRoot, t.taskId), launchedAtMs);
    });
    const record: ExecutorRecord = {
      executorKey: tasks[0].taskId,
      executorId: op.kind === 'launch' ? op.task.taskId : op.executorId,
      agentId,
      group: op.kind === 'launchGroup',
      allocation: op.allocation,
      tasks: records,
    };
    const executor = this.register(record);
    this.state.mark(record.executorKey);
    return () => executor.launch(commands);
  }

  private register(record: ExecutorRecord): LocalExecutor {
    const ex = new LocalExecutor(record, this.hooks, {
      taskKilling: this.options.taskKilling ?? false,
      exitPollMs: this.options.exitPollMs ?? DEFAULT_EXIT_POLL_MS,
      spawner: this.launcher,
    });
    this.executors.set(record.executorKey, ex);
    this.books.consume(record.agentId, record.executorKey, record.allocation);
    for (const t of record.tasks) {
      if (isTerminalTaskState(t.state)) continue;
      const known: KnownTask = { record: t, executor: ex, agentId: record.agentId, sentState: t.state };
      if (t.healthy !== undefined) known.sentHealthy = t.healthy;
      this.known.set(t.taskId, known);
    }
    return ex;
  }

  private onUpdate(record: TaskRecord, update: ExecutorUpdate): void {
    const task = this.known.get(record.taskId);
    if (task === undefined) return;
    const uuid = randomUUID();
    task.sentState = update.state;
    if (update.healthy !== undefined) task.sentHealthy = update.healthy;
    if (isTerminalTaskState(update.state)) task.terminalUuid = uuid;
    this.unacked.set(uuid, record.taskId);
    this.outbox.send({ type: 'status', status: { taskId: record.taskId, agentId: task.agentId, ...update, uuid } });
  }

  private onEnded(ex: LocalExecutor): void {
    this.executors.delete(ex.record.executorKey);
    const agentId = this.books.release(ex.record.executorKey);
    if (agentId !== undefined) this.desk?.resourcesFreed(agentId);
    this.state.changed(ex.record.executorKey);
  }

  private answerKnown(task: KnownTask): void {
    const status: TaskStatus = {
      taskId: task.record.taskId,
      agentId: task.agentId,
      state: task.sentState,
      reason: RECONCILIATION,
      message: 'Reconciliation: latest task state',
      ...(task.sentHealthy === undefined ? {} : { healthy: task.sentHealthy }),
    };
    this.outbox.send({ type: 'status', status });
  }

  private answerUnknown(taskId: string, agentId: string | undefined): void {
    const state = agentId !== undefined && this.agentById.has(agentId) ? 'TASK_GONE' : 'TASK_UNKNOWN';
    this.masterStatus(taskId, agentId, state, RECONCILIATION, 'Reconciliation: task unknown to the local cluster');
  }

  /** An update the master itself sends: no uuid, never acknowledged (§7.1). */
  private masterStatus(taskId: string, agentId: string | undefined, state: TaskState, reason: string, message: string): void {
    this.outbox.send({ type: 'status', status: { taskId, ...(agentId === undefined ? {} : { agentId }), state, reason, message } });
  }

  /** What the start-up sweep did, for the operator. */
  private report(sweep: SweepResult): void {
    const log = this.options.log;
    if (log === undefined) return;
    if (sweep.found.size > 0) {
      log(`local cluster: found the processes of ${sweep.found.size} task(s) recorded without a pid (pacer stopped while launching them): ${[...sweep.found.keys()].join(', ')}`);
    }
    if (sweep.killed.length > 0) {
      log(`local cluster: killed ${sweep.killed.length} process(es) of ${this.options.sandboxRoot} that no task accounts for: pids ${sweep.killed.map((p) => p.pid).join(', ')}`);
    }
  }
}
