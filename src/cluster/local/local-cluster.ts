import { randomUUID } from 'node:crypto';
import { makeDirs } from '../../runtime/make-dirs';
import { join, resolve } from 'node:path';
import type { ClusterInput } from '../../scheduler/model/inputs';
import type { OfferOperation, TaskLaunch } from '../../scheduler/model/launch';
import { isTerminalTaskState, type TaskState } from '../../scheduler/model/task-state';
import type { ClusterDriver } from '../../scheduler/ports/cluster-driver';
import { Master, type MasterReservation } from '../../master/master';
import type { AgentInfo } from '../../scheduler/model/agent';
import type { OfferedPool } from '../../scheduler/model/offer';
import type { AgentRuntime, MasterOutbox } from '../../master/master-ports';
import { operationTasks, type MasterAgentSpec, type MasterExecutor, type MasterOperation } from '../../master/master-types';
import { fillLegacyReservations } from './legacy-reservations';
import { hostNetworkAddresses, resolveAgents, type LocalAgent } from './local-agent';
import { DEFAULT_EXIT_POLL_MS, DEFAULT_OFFER_INTERVAL_MS, DEFAULT_SANDBOX_GC_DELAY_MS, DEFAULT_SANDBOX_KEEP, type LocalClusterOptions } from './local-cluster-options';
import { MasterTimers } from './master-timers';
import { LocalExecutor, type ExecutorHooks, type ProcessCommand } from './local-executor';
import { isGroupAlive, isProcessAlive, killProcessAndGroup } from './process-identity';
import { runnableProblem } from './runnable-problem';
import { sweepSandboxes, type SweepResult } from './sandbox-sweep';
import { SandboxGc } from './sandbox-gc';
import { sandboxOf } from './sandbox-of';
import { createVolumeDirs, destroyVolumeDirs, mountVolumes } from './volume-dirs';
import { StateFile, type ExecutorRecord, type TaskRecord } from './state-file';
import { StateWriter } from './state-writer';
import { StatusOutbox } from './status-outbox';
import { TaskLauncher } from './task-launcher';
import { hostProcesses } from './sandbox-processes';
import { taskCommand } from './task-command';
import { newTaskRecord } from './task-record';
import type { CheckStatus } from '../../scheduler/model/checks';

export type { LocalAgentOptions, LocalClusterOptions } from './local-cluster-options';

/** A task as the local cluster sees it (for operators and tests). */
export interface LocalTaskView {
  readonly taskId: string;
  readonly agentId: string;
  readonly state: TaskState;
  readonly healthy?: boolean;
  /** The check status last reported, for a task with a `check`. */
  readonly checkStatus?: CheckStatus;
  readonly pid?: number;
  readonly sandbox: string;
  readonly hostPorts: readonly number[];
}

/** A live executor of the local cluster: its processes, and the master's record of what it holds. */
interface RunningExecutor {
  readonly executor: LocalExecutor;
  readonly master: MasterExecutor;
}

const SHUTDOWN_WAIT_MS = 3000;
/** Local agents never partition; the master model's ping timeout is never started. */
const NEVER_MS = Number.MAX_SAFE_INTEGER;

/**
 * The local-process cluster: a {@link ClusterDriver} that runs tasks as child processes of this
 * host: the master model (`src/master`, the same Mesos master the simulator plays) on real time,
 * with process executors as its agents' runtime. It is what `npm start` schedules on by default.
 * References: mesos-v1-scheduler-api.md (§ numbers below), service-spec.md (spec §).
 *
 * Model:
 * - Agents are slices of this host (`agents` option: a count or a list, see {@link resolveAgents}),
 *   each registered with the master model as one unreserved pool. The master's allocator offers
 *   every agent without an outstanding offer, refuse filter or role suppression all its free
 *   resources, in rounds every `offerIntervalMs` while some agent may be offered, and at once after
 *   a REVIVE and whenever the launcher is about to run out of processes to start: an agent
 *   accepted with no refuse filter is offered again as soon as it can take more (issue 13:
 *   launching is paced by the spawning, not a timer). An offer id is valid for one accept or
 *   decline; a stale one drops its tasks (TASK_DROPPED, REASON_INVALID_OFFERS, §2.3). An ACCEPT is
 *   checked by the master model as the simulator's is: an operation that does not fit the offer
 *   gets TASK_ERROR and consumes nothing.
 * - An accepted LAUNCH starts one process, a LAUNCH_GROUP one process per pod container
 *   ({@link LocalExecutor}): `/bin/sh -c cmd` (or an app's `args` exec'ed), in a sandbox directory
 *   per task under `sandboxRoot` with `stdout`/`stderr` files, detached in its own process group,
 *   with Marathon's task environment (see task-env.ts). A small launcher process does the
 *   spawning ({@link TaskLauncher}: forking from pacer itself costs several times more). Updates:
 *   TASK_STARTING, TASK_RUNNING, then TASK_FINISHED (exit 0), TASK_FAILED (other exits, signals)
 *   or TASK_KILLED (after a kill). Tasks with a container image, or nothing to run, get
 *   TASK_ERROR: never silently ignored.
 * - Kill: SIGTERM to the task's process group, TASK_KILLING (with `taskKilling`), SIGKILL after
 *   the grace period (§7.6). A pod dies as a whole (spec §1 item 10).
 * - Agent-run health checks (COMMAND, MESOS_HTTP(S), MESOS_TCP, pod checks) run here with the
 *   Mesos health checker's semantics; verdicts arrive as TASK_RUNNING updates with `healthy`, and
 *   a task failing too often is killed (TASK_KILLED, `healthy: false`, §7.5).
 * - A task's `check` (Marathon's generalized check) runs here too, at its delay, interval and
 *   timeout (check-runner.ts); each change of its status goes out as a TASK_RUNNING with
 *   REASON_TASK_CHECK_STATUS_UPDATED and the new `checkStatus` (§5.5), never acted upon.
 * - Executor updates carry a uuid, the framework acknowledges them; master answers
 *   (reconciliation, TASK_ERROR, TASK_DROPPED) carry none (§7.1). The master model remembers a
 *   task until its terminal update is acknowledged, and answers RECONCILE and KILLs of unknown
 *   tasks as a Mesos master answers a partition-aware framework: TASK_GONE on a known agent, else
 *   TASK_UNKNOWN (§7.2, §2.8).
 * - Restart survival (issue 11: no process escapes): every live executor (task ids, agent, pids,
 *   /proc start times, ports, resources, sandboxes, kill deadline, health) is recorded in
 *   `stateFile` (a snapshot plus a journal, {@link StateFile}). A launch is recorded *before* its
 *   processes are spawned (write-ahead: the intent, TASK_STAGING without a pid), and again with
 *   the pids once they are known; other changes are recorded once per synchronous turn, always
 *   before the updates of that turn are posted. `stop()` leaves the processes running; the next
 *   `start()` first sweeps the sandboxes ({@link sweepSandboxes}): a task recorded without a pid
 *   adopts its process if one runs, and every process of the sandboxes that no recorded task
 *   accounts for is killed. It then re-adopts the tasks still alive (same pid and start time;
 *   `Master.adoptExecutor` books their resources), polls them for exit, resumes their health
 *   checks and kills, and reports the vanished ones TASK_GONE once (§7.4). So every process pacer
 *   ever started is either a task the cluster reports (and the core reconciles) or killed.
 *   The master model's dynamic reservations and persistent volumes (resident instances) are
 *   recorded there too, in the turn they change, and restored before the first offer, so they
 *   outlive the process as a Mesos agent's outlive a master failover.
 * - Sandboxes are bounded ({@link SandboxGc}, as a Mesos agent's `--gc_delay`): once a task's
 *   terminal update is acknowledged and the cluster forgets it, its sandbox is removed
 *   `sandboxGcDelayMs` later (default one week), and at most `sandboxKeep` finished sandboxes are
 *   kept (default 1000, the oldest removed first). On start, the directories of the root that no
 *   live recorded task holds are finished ones, aged from their mtime. `volumes/` is never touched.
 * - Real time: Date.now and timers (the master model's through {@link MasterTimers}), all cleared by
 *   `stop()` / `shutdown()`. Inputs are posted on a later turn of the event loop, never from
 *   inside a driver call ({@link StatusOutbox}).
 */
export class LocalCluster implements ClusterDriver {
  private readonly agents: readonly LocalAgent[];
  private readonly state: StateWriter;
  private readonly outbox: StatusOutbox;
  private readonly executors = new Map<string, RunningExecutor>();
  /** Every non-terminal task an executor started or adopted (kept until the master forgets it). */
  private readonly records = new Map<string, { readonly record: TaskRecord; readonly executor: LocalExecutor }>();
  private readonly hooks: ExecutorHooks;
  private readonly runtime: AgentRuntime<TaskLaunch>;
  private readonly launcher = new TaskLauncher(() => this.offerSoon());
  private master: Master<TaskLaunch> | undefined;
  private timers: MasterTimers | undefined;
  /** The collector of finished sandboxes and its timer (while started). */
  private gc: SandboxGc | undefined;
  private gcTimers: MasterTimers<'collect'> | undefined;
  /** The spawns of the launches of the ACCEPT being handled, run once they are on record. */
  private spawns: (() => void)[] = [];
  private offerSoonPending: NodeJS.Immediate | undefined;
  private framework: string | undefined;
  /** Driver calls made before the first start (see beforeStart); undefined once started. */
  private early: (() => void)[] | undefined = [];

  constructor(private readonly options: LocalClusterOptions, post: (input: ClusterInput) => void) {
    this.agents = resolveAgents(options.agents, options.ports, options.agentAttributes, options.agentDomains);
    this.state = new StateWriter(new StateFile(options.stateFile ?? join(options.sandboxRoot, 'local-cluster.json')), {
      frameworkId: () => this.framework,
      executor: (key) => this.executors.get(key)?.executor.record,
      executors: () => [...this.executors.values()].map((ex) => ex.executor.record),
      reservation: (agentId, role, reservationId) => this.master?.reservation(agentId, role, reservationId),
      reservations: () => this.master?.reservations() ?? [],
    });
    this.outbox = new StatusOutbox(post);
    this.hooks = {
      update: (record, update) => this.master?.taskUpdate(record.taskId, update.state, update.reason, update.healthy, update.message, update.checkStatus),
      changed: (executor) => this.state.changed(executor.record.executorKey),
      ended: (executor) => this.onEnded(executor),
    };
    this.runtime = {
      launchProblem: (op) => runnableProblem(operationTasks(op)),
      launch: (op, executor) => this.spawns.push(this.record(op, executor)),
      kill: (taskId, graceMs) => this.records.get(taskId)?.executor.kill(graceMs),
      volumesCreated: (agentId, volumes) => createVolumeDirs(this.options.sandboxRoot, agentId, volumes),
      volumesDestroyed: (agentId, volumes) => destroyVolumeDirs(this.options.sandboxRoot, agentId, volumes),
      reservationChanged: (agentId, role, reservationId) => this.state.reservationChanged({ agentId, role, reservationId }),
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
   * accounts for), restore the dynamic reservations and volumes recorded in the state file into
   * the master model, re-adopt the tasks recorded there, and begin offering (a first round now).
   * A state file written before reservations were recorded (an upgrade from a pacer before
   * 2026-11-30) has them filled in from `recovered`, the reservations the scheduler's recovered
   * resident instances hold (fillLegacyReservations); any other file's own are restored, and
   * `recovered` is not read.
   */
  start(recovered: () => readonly MasterReservation[] = () => []): void {
    if (this.master !== undefined) return;
    makeDirs(this.options.sandboxRoot);
    const saved = this.state.load();
    const frameworkId = saved?.frameworkId ?? `local-${randomUUID()}`;
    this.framework = frameworkId;
    // A file without reservations (an older pacer's, or one set aside as unreadable): the store's resident instances give them.
    const legacy = (saved !== undefined && saved.reservations === undefined) || this.state.lostSnapshot
      ? fillLegacyReservations(recovered(), saved?.executors ?? []) : undefined;
    if (legacy !== undefined && legacy.reservations.length > 0 && !this.state.lostSnapshot) {
      this.options.log?.(`local cluster: ${this.options.stateFile ?? join(this.options.sandboxRoot, 'local-cluster.json')} was written before reservations were recorded; restoring the ${legacy.reservations.length} reservation(s) the store's resident instances hold: ${legacy.reservations.map((r) => r.reservationId).join(', ')}`);
    }
    const executors = legacy?.executors ?? saved?.executors ?? [];
    const liveTasks = executors.flatMap((e) => e.tasks).filter((t) => !isTerminalTaskState(t.state));
    this.report(sweepSandboxes(this.options.sandboxRoot, liveTasks));
    this.startGc(new Set(liveTasks.map((t) => t.sandbox)));
    this.launcher.warmUp();
    this.outbox.openUp();
    this.outbox.send({ type: 'subscribed', frameworkId });
    const master = this.newMaster(`${frameworkId}-${randomUUID().slice(0, 8)}`, executors, legacy?.reservations ?? saved?.reservations ?? []);
    this.master = master;
    const adopted = executors.map((record) => this.register(record, master.adoptExecutor(record)));
    for (const ex of adopted) ex.adopt();
    const early = this.early ?? [];
    this.early = undefined;
    for (const call of early) call();
    this.state.snapshot();
    master.start();
  }

  /** Stop offering and supervising; the tasks keep running and are re-adopted by the next start. */
  stop(): void {
    this.timers?.clear();
    this.timers = undefined;
    this.gc?.close();
    this.gcTimers?.clear();
    this.gc = undefined;
    this.gcTimers = undefined;
    if (this.offerSoonPending !== undefined) clearImmediate(this.offerSoonPending);
    this.offerSoonPending = undefined;
    this.launcher.close();
    for (const ex of this.executors.values()) ex.executor.detach();
    if (this.master !== undefined) this.state.snapshot();
    this.state.close();
    this.forgetAll();
    this.master = undefined;
    this.outbox.close();
  }

  /**
   * For tests: stop the launcher, SIGKILL every task's process group and every other process of
   * the sandboxes (a spawn whose pid had not come back yet), forget them all, stop; resolves once
   * no process of those groups runs any more, or after 3 s.
   */
  async shutdown(): Promise<void> {
    await this.launcher.kill();
    const processes = [...this.executors.values()].flatMap((ex) => ex.executor.forceKill());
    const reservations = this.master?.reservations() ?? [];
    for (const p of hostProcesses(this.options.sandboxRoot)) {
      if (p.sandbox === undefined) continue;
      killProcessAndGroup(p.pid);
      processes.push({ pid: p.pid, startTime: p.startTime });
    }
    this.forgetAll();
    this.stop();
    if (this.framework !== undefined) this.state.clear(this.framework, reservations);
    this.state.close();
    const deadline = Date.now() + SHUTDOWN_WAIT_MS;
    const running = (): boolean => processes.some((p) => isProcessAlive(p.pid, p.startTime) || isGroupAlive(p.pid));
    while (running() && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Every task the cluster remembers, launch order. */
  tasks(): readonly LocalTaskView[] {
    const out: LocalTaskView[] = [];
    for (const t of this.master?.tasks() ?? []) {
      const record = this.records.get(t.taskId)?.record;
      if (record === undefined) continue;
      out.push({
        taskId: record.taskId,
        agentId: t.agent.agentId,
        state: record.state,
        ...(record.healthy === undefined ? {} : { healthy: record.healthy }),
        ...(record.checkStatus === undefined ? {} : { checkStatus: record.checkStatus }),
        ...(record.pid === undefined ? {} : { pid: record.pid }),
        sandbox: record.sandbox,
        hostPorts: record.hostPorts,
      });
    }
    return out;
  }

  /** The pid of the process that spawns the tasks (task-launcher.ts), while one runs (for operators and tests). */
  launcherPid(): number | undefined {
    return this.launcher.pid;
  }

  /** Uuids of updates not acknowledged yet. */
  unacknowledged(): readonly string[] {
    return this.master?.unacknowledged().map((u) => u.uuid) ?? [];
  }

  // ---------------------------------------------------------------- ClusterDriver

  /**
   * ACCEPT (§2.3), checked by the master model (`Master.accept`): a stale offer drops every task;
   * each operation, in order, is checked for something runnable and against what is left of the
   * offer — a bad one gets TASK_ERROR for all its tasks and consumes nothing. The good ones are
   * recorded (one write), then their processes spawned. The agent is filtered for `refuseMs`.
   */
  accept(offerId: string, operations: readonly OfferOperation[], refuseMs: number): void {
    const master = this.master;
    if (master === undefined) return;
    master.accept(offerId, operations, refuseMs);
    const spawns = this.spawns;
    this.spawns = [];
    if (spawns.length === 0) return;
    // Write-ahead: every launch of the ACCEPT is on record (one append) before any process starts.
    this.state.flush();
    for (const spawn of spawns) spawn();
  }

  /** DECLINE (§2.4): filter each offer's agent for `refuseMs`; unknown ids are ignored. */
  decline(offerIds: readonly string[], refuseMs: number): void {
    this.master?.decline(offerIds, refuseMs);
  }

  /**
   * KILL (§2.8), by the master model: an unknown task is answered by reconciliation; an `agentId`
   * other than the task's is ignored, as is a task already ended; otherwise its executor is killed.
   */
  kill(taskId: string, agentId: string | undefined, gracePeriodMs: number): void {
    if (this.beforeStart(() => this.kill(taskId, agentId, gracePeriodMs))) return;
    this.master?.kill(taskId, agentId, gracePeriodMs);
  }

  /** ACKNOWLEDGE (§7.1): the acknowledged terminal update lets the cluster forget the task. */
  acknowledge(agentId: string, taskId: string, uuid: string): void {
    const master = this.master;
    if (master === undefined) return;
    master.acknowledge(agentId, taskId, uuid);
    if (master.remembers(taskId)) return;
    const record = this.records.get(taskId)?.record;
    this.records.delete(taskId);
    if (record !== undefined && isTerminalTaskState(record.state)) this.gc?.finish(record.sandbox);
  }

  /**
   * RECONCILE (§7.2), answered by the master model without uuid, REASON_RECONCILIATION: a known
   * task → the latest state sent with its latest `healthy`; an unknown one → TASK_GONE on a known
   * agent, else TASK_UNKNOWN. An empty list: every task the cluster remembers.
   */
  reconcile(tasks: readonly { taskId: string; agentId?: string }[]): void {
    this.master?.reconcile(tasks);
  }

  /** REVIVE (§2.6): un-suppress the roles (all when empty) and clear refuse filters; offer at once. */
  revive(roles: readonly string[]): void {
    if (this.beforeStart(() => this.revive(roles))) return;
    this.master?.revive(roles);
    this.offerSoon();
  }

  /** SUPPRESS (§2.7): no more offers for the roles (all when empty) until revived. */
  suppress(roles: readonly string[]): void {
    if (this.beforeStart(() => this.suppress(roles))) return;
    this.master?.suppress(roles);
  }

  // ---------------------------------------------------------------- internals

  /**
   * The master model on real time, with this host's agents registered and the recorded dynamic
   * reservations restored on them (`Master.restoreReservation`, before any offer: a resident
   * instance finds its reservation and volumes offered again, as after a Mesos master failover).
   * An agent no longer configured (a restart with a changed agent list) is registered still: with
   * the resources of its recorded reservations, so that they are offered and can be released and
   * their volumes destroyed, and with nothing more, so that its recorded tasks are still reported
   * and can be killed. A reservation that cannot be restored (the agent's resources shrank) is set
   * aside with why (StateFile.setAside); its volume's directory is left as it is.
   */
  private newMaster(offerIdPrefix: string, recorded: readonly ExecutorRecord[], reservations: readonly MasterReservation[]): Master<TaskLaunch> {
    const outbox: MasterOutbox = {
      offers: (offers) => this.outbox.send({ type: 'offers', offers }),
      rescind: (offerId) => this.outbox.send({ type: 'rescind', offerId }),
      status: (_dueMs, status) => this.outbox.send({ type: 'status', status }),
      agentLost: (agentId) => this.outbox.send({ type: 'agentLost', agentId }),
    };
    const timers = new MasterTimers((event) => this.master?.onTimer(event));
    this.timers = timers;
    const master = new Master<TaskLaunch>(timers, outbox, this.runtime, {
      offerIntervalMs: this.options.offerIntervalMs ?? DEFAULT_OFFER_INTERVAL_MS,
      agentPingTimeoutMs: NEVER_MS,
      agentRemovalMs: 0,
      offerId: (n) => `${offerIdPrefix}-O${n}`,
      newUuid: () => randomUUID(),
    });
    for (const agent of this.agents) {
      master.addAgent({ info: agent.info, pools: [{ ...agent.capacity, ports: agent.ports }], ipAddresses: hostNetworkAddresses(agent.info.hostname) });
    }
    const formerAgent = (agentId: string): AgentInfo => ({ agentId, hostname: this.agents[0].info.hostname, attributes: [] });
    const former = (agentId: string, pools: OfferedPool[]): MasterAgentSpec =>
      ({ info: formerAgent(agentId), pools, ipAddresses: hostNetworkAddresses(this.agents[0].info.hostname) });
    const formerPools = new Map<string, OfferedPool[]>();
    for (const r of reservations) {
      if (this.agents.some((a) => a.info.agentId === r.agentId)) continue;
      const { reservedFor: _role, reservationId: _id, volumes: _volumes, ...amounts } = r.capacity;
      formerPools.set(r.agentId, [...formerPools.get(r.agentId) ?? [], amounts]);
    }
    for (const [agentId, pools] of formerPools) master.addAgent(former(agentId, pools));
    for (const r of reservations) {
      const problem = master.restoreReservation(r);
      if (problem !== undefined) this.state.setAsideReservation(r, `not restored: ${problem}`);
    }
    for (const record of recorded) {
      if (master.agent(record.agentId) === undefined) master.addAgent(former(record.agentId, []));
    }
    return master;
  }

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

  /** Drop every executor and task from memory (not from the state file); the master goes with them. */
  private forgetAll(): void {
    this.executors.clear();
    this.records.clear();
    this.spawns = [];
  }

  /** An allocation round on the next turn (one at most), as a Mesos master allocates at once on a revive. */
  private offerSoon(): void {
    if (this.master === undefined || this.offerSoonPending !== undefined) return;
    this.offerSoonPending = setImmediate(() => {
      this.offerSoonPending = undefined;
      this.master?.allocateNow();
    });
  }

  /**
   * Register the executor of a launch the master accepted (TASK_STAGING, no pid) and mark it for
   * the next write; answers the spawn, to be called once the record is written: a process never
   * runs before its task is on record.
   */
  private record(op: MasterOperation<TaskLaunch>, master: MasterExecutor): () => void {
    const tasks = operationTasks(op);
    const launchedAtMs = Date.now();
    const commands = new Map<string, ProcessCommand>();
    const records = tasks.map((t) => {
      const command = taskCommand(t);
      if (command.ok) commands.set(t.taskId, command);
      const sandbox = sandboxOf(this.options.sandboxRoot, t.taskId);
      if (t.persistentVolumes !== undefined) mountVolumes(this.options.sandboxRoot, t.agentId, sandbox, t.persistentVolumes);
      return newTaskRecord(t, sandbox, launchedAtMs);
    });
    const record: ExecutorRecord = {
      executorKey: tasks[0].taskId,
      executorId: master.executorId,
      agentId: master.agentId,
      group: op.kind === 'launchGroup',
      allocation: op.allocation,
      tasks: records,
    };
    const executor = this.register(record, master);
    this.state.mark(record.executorKey);
    return () => executor.launch(commands);
  }

  private register(record: ExecutorRecord, master: MasterExecutor): LocalExecutor {
    const ex = new LocalExecutor(record, this.hooks, {
      taskKilling: this.options.taskKilling ?? false,
      exitPollMs: this.options.exitPollMs ?? DEFAULT_EXIT_POLL_MS,
      spawner: this.launcher,
    });
    this.executors.set(record.executorKey, { executor: ex, master });
    for (const t of record.tasks) if (!isTerminalTaskState(t.state)) this.records.set(t.taskId, { record: t, executor: ex });
    return ex;
  }

  private onEnded(ex: LocalExecutor): void {
    const running = this.executors.get(ex.record.executorKey);
    this.executors.delete(ex.record.executorKey);
    if (running !== undefined) this.master?.executorEnded(running.master);
    this.state.changed(ex.record.executorKey);
  }

  /**
   * Start collecting finished sandboxes (sandbox-gc.ts) on a timer of its own: every directory of
   * the root that no live recorded task (`live`) holds is left from before, and ages from its mtime.
   */
  private startGc(live: ReadonlySet<string>): void {
    const timers = new MasterTimers<'collect'>(() => this.gc?.collect());
    this.gcTimers = timers;
    this.gc = new SandboxGc(this.options.sandboxRoot, {
      delayMs: this.options.sandboxGcDelayMs ?? DEFAULT_SANDBOX_GC_DELAY_MS,
      keep: this.options.sandboxKeep ?? DEFAULT_SANDBOX_KEEP,
      clock: timers,
      liveSandboxes: () => this.liveSandboxes(),
      ...(this.options.log === undefined ? {} : { log: this.options.log }),
    });
    this.gc.adoptLeftovers(live);
  }

  /** The sandboxes (absolute paths) of the tasks that have not ended: running, or recorded as live. */
  private liveSandboxes(): Set<string> {
    const live = new Set<string>();
    for (const { record } of this.records.values()) if (!isTerminalTaskState(record.state)) live.add(resolve(record.sandbox));
    return live;
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
