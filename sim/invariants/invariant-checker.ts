import type { MarathonEvent } from '../../src/scheduler/model/events';
import type { OfferOperation } from '../../src/scheduler/model/launch';
import { isReservationOperation } from '../../src/scheduler/model/reservation';
import { type Scheduler, instanceIdOfTask, restartBounds, SweepThreshold } from '../../src/scheduler/index';
import { BackoffOracle } from './backoff-oracle';
import { constraintsHold } from './constraints-hold';
import { FloorOracle } from './floor-oracle';
import { FailoverOracle } from './failover-oracle';
import { RestartHealthOracle } from './restart-health-oracle';
import type { LiveTask } from '../cluster/cluster-types';

/** What the checker needs to know of the simulated cluster's books. */
export interface ClusterBooks {
  /** Violations the cluster detected itself (a launch exceeding its offer). */
  readonly violations: readonly string[];
  /** A description of how the agent is over-committed, or undefined. */
  overcommitted(agentId: string): string | undefined;
  /** Tasks alive on connected agents — those the master can report (the failover oracle's view). */
  connectedTasks(): readonly LiveTask[];
}

/**
 * Invariants checked after every step of a run (architecture §3, issue: no agent over-committed;
 * constraints hold for every placement; no launch before its backoff deadline; all tasks of a pod
 * instance on one agent; counts converge within a bound; issue 18: no unhealthy kill takes an app
 * below its floor, {@link FloorOracle}; issue 16: a scheduler failover loses and relaunches
 * nothing, {@link FailoverOracle}). Checks are incremental: only what the step touched is
 * re-examined. The first violation ends the run.
 *
 * A `schedulerFailover` replaces the core it reads ({@link coreDied}, {@link coreReplaced}):
 * while none leads only the cluster's books are checked (there is no scheduler state to check).
 */
export class InvariantChecker {
  readonly backoff = new BackoffOracle();
  private readonly floor: FloorOracle;
  private readonly touchedAgents = new Set<string>();
  private readonly touchedRunSpecs = new Set<string>();
  private clusterViolationsSeen = 0;
  private pending: string[] = [];
  private lastDisturbanceMs = 0;
  private lastConvergenceCheckMs = -1;
  private readonly failover = new FailoverOracle();
  /** No core leads (between a failover and its takeover). */
  private down = false;

  constructor(
    private scheduler: Scheduler,
    private readonly books: ClusterBooks,
    private readonly convergeWithinMs: number | undefined,
    private readonly upgradeBounds = false,
    /** The run's `--unhealthy_kill_floor` (scenario option `unhealthyKillFloor`), if any. */
    unhealthyKillFloor?: number,
  ) {
    this.floor = new FloorOracle(unhealthyKillFloor);
  }

  /** Rolling restarts' healthy counts (by deployment and run spec id): the lower bound through pacer's kills. */
  private readonly restartHealth = new RestartHealthOracle();
  /** When the oracles' entries are swept next ({@link sweepGone}). */
  private readonly sweeps = new SweepThreshold(SWEEP_MIN_ENTRIES);

  /** A driver accept went out: check pod atomicity and backoff now, resources and constraints at step end. */
  onAccept(operations: readonly OfferOperation[], nowMs: number): void {
    for (const op of operations) {
      if (isReservationOperation(op)) continue;
      const tasks = op.kind === 'launch' ? [op.task] : op.tasks;
      const agentId = tasks[0].agentId;
      this.touchedAgents.add(agentId);
      for (const t of tasks) {
        if (t.agentId !== agentId) this.pending.push(`pod instance ${t.instanceId} split across agents ${agentId} and ${t.agentId}`);
      }
      const runSpecId = tasks[0].runSpecId;
      this.touchedRunSpecs.add(runSpecId);
      // The accept goes out within the core's step that placed it: the run spec it launched is the current one.
      const spec = this.scheduler.runSpec(runSpecId);
      const late = spec === undefined ? undefined : this.backoff.checkLaunch(spec, nowMs);
      if (late !== undefined) this.pending.push(late);
    }
  }

  /** A driver kill went out: the backoff oracle tells the scheduler's kills from a task's own end. */
  onKill(taskId: string): void {
    this.backoff.markSchedulerKill(instanceIdOfTask(taskId));
  }

  onEvent(event: MarathonEvent, nowMs: number): void {
    this.backoff.onEvent(event, nowMs, (id) => this.scheduler.runSpec(id));
    this.floor.onEvent(event);
    this.failover.onEvent(event);
  }

  /** The leading core died (`schedulerFailover`): the failover oracle notes what it knew. */
  coreDied(nowMs: number): void {
    this.failover.onCrash(this.scheduler);
    this.down = true;
    this.disturbed(nowMs);
  }

  /**
   * A new core took over at `nowMs` (`clockMs` on the core's clock), built from the store: checked at once against what the dead one knew
   * (reported by the next {@link afterStep}). Launch backoff starts over with it, as in Marathon
   * after a failover, so the backoff oracle forgets its deadlines; convergence is measured from
   * the takeover.
   */
  coreReplaced(core: Scheduler, nowMs: number, clockMs = nowMs): void {
    this.scheduler = core;
    this.down = false;
    this.backoff.forgetDelays();
    this.pending.push(...this.failover.onTakeover(core, nowMs, clockMs));
    this.disturbed(nowMs);
  }

  /** A command or fault changed the world: convergence is measured from here. */
  disturbed(nowMs: number): void {
    this.lastDisturbanceMs = nowMs;
  }

  /** Run after every loop step; returns the violations found (empty when all hold). */
  afterStep(nowMs: number): string[] {
    this.backoff.endStep();
    const found = this.pending;
    this.pending = [];
    const v = this.books.violations;
    for (; this.clusterViolationsSeen < v.length; this.clusterViolationsSeen++) found.push(v[this.clusterViolationsSeen]);
    for (const agentId of this.touchedAgents) {
      const over = this.books.overcommitted(agentId);
      if (over !== undefined) found.push(over);
    }
    this.touchedAgents.clear();
    if (this.down) return found;
    found.push(...this.failover.afterStep(nowMs, this.scheduler, () => this.books.connectedTasks()));
    for (const id of this.touchedRunSpecs) {
      const broken = this.constraintViolation(id);
      if (broken !== undefined) found.push(broken);
    }
    this.touchedRunSpecs.clear();
    found.push(...this.floor.afterStep(this.scheduler));
    if (this.upgradeBounds) found.push(...this.rollingBounds());
    if (this.convergeWithinMs !== undefined && nowMs - this.lastConvergenceCheckMs >= 1000) {
      this.lastConvergenceCheckMs = nowMs;
      found.push(...this.convergence(nowMs));
    }
    this.sweepGone();
    return found;
  }

  /** Entries the oracles hold by instance, run spec or deployment (tests: the sweep bounds it). */
  get remembered(): number {
    return this.backoff.size + this.floor.size + this.restartHealth.size;
  }

  /**
   * Once the oracles' entries doubled since the last sweep (at least {@link SWEEP_MIN_ENTRIES}),
   * forgets those of instances and run specs the leading core no longer holds and of restarts
   * whose deployment ended: a run served on for days (`--cluster sim`) creates and deletes
   * without end. Each sweep is paid for by as many insertions as it keeps.
   */
  private sweepGone(): void {
    if (!this.sweeps.due(this.remembered)) return;
    const core = this.scheduler;
    const gone = { instance: (id: string) => core.instance(id) === undefined, runSpec: (id: string) => core.runSpec(id) === undefined };
    this.backoff.forgetGone(gone);
    this.floor.forgetGone(gone);
    const running = new Set(core.deployments().map((d) => d.deployment.plan.id));
    this.restartHealth.forget((key) => running.has(key.slice(0, key.indexOf(' '))));
    this.sweeps.swept(this.remembered);
  }

  /**
   * Every RestartApplication in progress: instances that exist (not terminal, old or new) never
   * exceed the strategy's maximum, and once the healthy count reached the minimum the restart's
   * own kills never take it below ({@link RestartHealthOracle}: faults do not count).
   */
  private rollingBounds(): string[] {
    const out: string[] = [];
    for (const { deployment, actions } of this.scheduler.deployments()) {
      for (const { action } of actions) {
        if (action.action !== 'RestartApplication' && action.action !== 'RestartPod') continue;
        const spec = this.scheduler.runSpec(action.runSpecId);
        if (spec === undefined) continue;
        const bounds = restartBounds(spec.instances, spec.upgrade, spec.resident);
        const instances = this.scheduler.instances(spec.id);
        const existing = instances.filter((i) => !TERMINAL.has(i.condition) && i.condition !== 'Scheduled').length;
        const checks = spec.kind === 'app' ? spec.healthChecks.length > 0 : spec.containers.some((c) => c.healthCheck !== undefined);
        const healthy = instances.filter((i) => i.condition === 'Running' && (!checks || i.healthy === true));
        const key = `${deployment.plan.id} ${spec.id}`;
        if (existing > bounds.maxCapacity) out.push(`${spec.id}: ${existing} instances exist during a rolling restart, maximum ${bounds.maxCapacity}`);
        const low = this.restartHealth.check(key, healthy, bounds.minHealthy, (id) => this.scheduler.instance(id));
        if (low !== undefined) out.push(`${spec.id}: ${low}`);
      }
    }
    return out;
  }

  private constraintViolation(runSpecId: string): string | undefined {
    const spec = this.scheduler.runSpec(runSpecId);
    if (spec === undefined || spec.constraints.length === 0) return undefined;
    // Instances placed under another config (a rolling restart that changed the constraints is
    // still replacing them) were placed by their own version's rules: check the current generation.
    const generation = spec.versionInfo.lastConfigChangeAt;
    const agents = this.scheduler.instances(runSpecId)
      .filter((i) => i.agent !== undefined && !TERMINAL.has(i.condition) && i.goal === 'Running' && i.configVersion === generation)
      .map((i) => i.agent!);
    const broken = constraintsHold(spec.constraints, agents);
    return broken === undefined ? undefined : `constraint violated by ${runSpecId}: ${broken}`;
  }

  private convergence(nowMs: number): string[] {
    const bound = this.convergeWithinMs as number;
    if (nowMs - this.lastDisturbanceMs <= bound) return [];
    const out: string[] = [];
    for (const spec of this.scheduler.runSpecs()) {
      const running = this.scheduler.instances(spec.id).filter((i) => i.condition === 'Running' && i.goal === 'Running').length;
      if (running !== spec.instances) {
        out.push(`${spec.id} has ${running} running instances, target ${spec.instances}, ${nowMs - this.lastDisturbanceMs} ms after the last disturbance (bound ${bound} ms)`);
      }
    }
    return out;
  }
}

const TERMINAL = new Set(['Killed', 'Finished', 'Failed', 'Error', 'Gone', 'Dropped', 'Unknown']);

/** Entries below which the oracles are never swept. */
const SWEEP_MIN_ENTRIES = 1024;
