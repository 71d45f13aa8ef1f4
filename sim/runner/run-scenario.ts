import { createClock } from '@sinonjs/fake-timers';
import { HeapLoop, isoTime, Scheduler, type SchedulerOptions } from '../../src/scheduler/index';
import type { MarathonEvent } from '../../src/scheduler/model/events';
import type { InstanceAtEvent } from '../../src/scheduler/model/instance';
import type { Command, CommandResult, SchedulerInput } from '../../src/scheduler/model/inputs';
import type { OfferOperation } from '../../src/scheduler/model/launch';
import { SimCluster } from '../cluster/sim-cluster';
import { SimProber } from '../cluster/sim-prober';
import type { SimEvent } from '../cluster/sim-event';
import { InvariantChecker } from '../invariants/invariant-checker';
import type { Scenario, TimelineStep } from '../scenario/scenario';
import type { SimContext } from '../sim-context';
import { createWorldStreams } from '../world';
import { clusterBooks } from './cluster-books';
import { handleCommand, outcome, performStep, type CommandDeps } from './perform-step';
import type { RunResult, StoppedRun, TimedDecision } from './run-result';
import { runStore } from './run-store';
import { summarizeInput } from './summarize-input';
import { Trace } from './trace';
import { VIRTUAL_EPOCH_MS } from './virtual-epoch';
import { finalCounts, finalUnplaced, RunRecorder } from './run-recorder';
import { DecisionReader } from '../../src/runtime/decision-reader';
import { CoreFailure } from '../../src/runtime/core-failure';
import { wireEventJson } from '../../src/api/events/wire-event-json';
import { RUN_LOOP_STEPS_DEFAULT } from '../scenario/scenario-limits';

/** Options of one run. */
export interface RunOptions {
  /** Overrides the scenario's seed. */
  readonly seed?: number;
  /** Keep the JSONL trace text in the result (for `--trace FILE`). */
  readonly keepTrace?: boolean;
  /** Check invariants after every step (default true; benchmarks may turn it off). */
  readonly invariants?: boolean;
  /** Record the trace (default true). Benchmarks turn it off: hashing every record costs more than the scheduling. */
  readonly trace?: boolean;
  /** Read the core's events as decisions for the summary and the report (default: when the trace is recorded). */
  readonly decisions?: boolean;
  /**
   * Keep the decisions read in the result (default true); false only tells them to
   * {@link RunSession.onDecision}'s listeners (`--cluster sim` logs them and leaves them out of its summary).
   */
  readonly keepDecisions?: boolean;
  /**
   * Core options over those the scenario sets, for the core alone: the invariants still check
   * the scenario's. Tests use it to run the core without a protection the invariants expect
   * (`{ unhealthyKillFloor: 0 }`) and show that the invariant catches its absence.
   */
  readonly coreOptions?: Partial<SchedulerOptions>;
  /**
   * The most loop steps {@link runScenario} takes (default {@link RUN_LOOP_STEPS_DEFAULT}): a run
   * with entries still due after that many is stopped there ({@link RunSession.stop} with the
   * bound; `stopped.maxLoopSteps` in the result). Counted, so the stop is where it is on every
   * machine. A session driven by its caller (`--cluster sim`, the benchmarks) is not bounded by it.
   */
  readonly maxLoopSteps?: number;
  /**
   * Told every {@link RUN_PROGRESS_STEPS} loop steps of {@link runScenario} where the run is (the
   * CLI prints a line now and then during a long run); it changes nothing of the run.
   */
  readonly onProgress?: (progress: RunProgress) => void;
  /** Loop steps between two calls of {@link onProgress} (default {@link RUN_PROGRESS_STEPS}; tests use fewer). */
  readonly progressSteps?: number;
}

/** Where a run is: its loop steps so far and its virtual time of its duration. */
export interface RunProgress {
  readonly loopSteps: number;
  readonly maxLoopSteps: number;
  /** Virtual time since the run's start. */
  readonly atMs: number;
  readonly durationMs: number;
}

/**
 * How often {@link RunOptions.onProgress} is told, in loop steps: often enough that the CLI's
 * printer, which prints at most every 5 s of wall time, prints about then even when a step is
 * slow (at 500 steps a second, every 2 s; at 100,000 steps, a line came every 200 s), and rare
 * enough to cost nothing (one call per thousand steps, a clock read in the printer).
 */
export const RUN_PROGRESS_STEPS = 1000;

/** What a run lets outsiders read of its simulated cluster: agents, their resources and live tasks. */
export type SimClusterView = Pick<SimCluster, 'agentInfos' | 'agentCapacity' | 'agentUsage' | 'agentStatus' | 'liveTasks'>;

/**
 * Loop steps allowed at one virtual instant before a run is declared livelocked, plus
 * {@link SAME_INSTANT_PER_TASK} per task the simulated cluster holds: a reconciliation answers
 * every task twice (explicitly, then implicitly) at one instant, so a cluster of 100,000 tasks
 * takes 200,000 steps there without anything being wrong.
 */
export const SAME_INSTANT_MAX = 100_000;
/** Loop steps allowed at one instant per task in the cluster, over {@link SAME_INSTANT_MAX}. */
export const SAME_INSTANT_PER_TASK = 4;

/** What {@link RunSession.submit} answers while no core leads (the API's 409 of a locked change). */
export const NO_LEADER_REFUSAL: Extract<CommandResult, { ok: false }> = {
  ok: false, error: 'locked', message: 'No scheduler leads: a scheduler failover is under way; try again after the takeover',
};

/**
 * Loop entries of a run: an input for the core (`gen`: the core it was meant for — the core's own
 * timers and what was posted to it; after a `schedulerFailover` those of the dead core are lost),
 * the simulated cluster, a timeline step, or the takeover that ends a failover's downtime.
 */
export type RunItem =
  | { readonly to: 'core'; readonly input: SchedulerInput; readonly gen: number }
  | { readonly to: 'sim'; readonly event: SimEvent }
  | { readonly to: 'step'; readonly step: TimelineStep }
  | { readonly to: 'takeover' };

/**
 * A prepared run: everything wired, nothing executed. `runScenario` drives it in virtual time;
 * the real-time pacer (src/runtime) drives the same session at wall-clock speed.
 */
export interface RunSession {
  readonly endMs: number;
  /** Loop entries handled so far (what `RunResult.loopSteps` reports, and `--max-steps` bounds). */
  readonly loopSteps: number;
  /** Due time (absolute virtual ms) of the next loop entry, or undefined when none remains. */
  nextDueMs(): number | undefined;
  /** Advance the clock to the next entry due by `untilMs` and handle it; false when none is due. Stops after a violation. */
  step(untilMs: number): boolean;
  /** Listen to the core's events (in addition to the trace). */
  onEvent(listener: (atMs: number, event: MarathonEvent, instance?: InstanceAtEvent) => void): void;
  /**
   * Observe every input the core takes off the loop (offers, status updates, timers, probe
   * results), before it is handled, with the virtual instant: the simulated run's input hook (a
   * what-if fork's last offers per agent are read this way). API commands go through {@link submit}.
   */
  onInput(listener: (atMs: number, input: SchedulerInput) => void): void;
  /** Listen to the run's decisions as they are read (only when the run reads them: {@link RunOptions.decisions}). */
  onDecision(listener: (decision: TimedDecision) => void): void;
  finish(): RunResult;
  /**
   * Ends the run where it is, before its duration (the caller stops it: Ctrl-C of `--cluster
   * sim`): unlike {@link finish} the clock stays at the time reached, and the result says so
   * (`stopped`, `passed` false: the expectations after the stop were never checked).
   * `maxLoopSteps`: the run's bound on loop steps stopped it (traced as a `stopped` record, and
   * in `stopped.maxLoopSteps`).
   */
  stop(maxLoopSteps?: number): RunResult;
  /** True while loop entries due by the end of the run remain unhandled and no violation stopped it. */
  unfinished(): boolean;
  /** True between a `schedulerFailover` and its takeover: no core leads, and {@link submit} refuses every command. */
  leaderless(): boolean;
  /**
   * The run's core, for queries (the REST API of `--cluster sim` reads through it): the leading
   * one — after a `schedulerFailover`, the one that took over (the dead one while none leads).
   */
  readonly scheduler: Scheduler;
  /** The simulated cluster's books, read-only (the web UI's view of `--cluster sim` reads them). */
  readonly cluster: SimClusterView;
  /** The virtual clock (absolute virtual epoch ms): the due time of the entry handled last. */
  nowMs(): number;
  /**
   * Handles a command from outside the timeline (the REST API of `--cluster sim`) at the current
   * virtual instant, as a timeline command step is: traced, counted as a disturbance, the backoff
   * oracle told, invariants checked after it (a violation stops the run). Returns the core's result.
   */
  submit(command: Command): CommandResult;
  /**
   * Lets the loop run past the scenario's duration, up to `endMs` (absolute virtual ms;
   * `Infinity`: open-ended), for a cluster served beyond its workload. Call `finish()` first:
   * a `finish()` afterwards would move the clock to the new end.
   */
  extendTo(endMs: number): void;
  /**
   * What the run remembers per instance, run spec or deployment beyond the core: the invariant
   * oracles' entries and the run specs whose offer rejections were reported. Bounded by the
   * sweeps (tests read it: a session served on for days must not grow with its churn).
   */
  retained(): { readonly oracleEntries: number; readonly rejectionCounts: number };
  /** The invariant violations that stopped the run (empty while it runs). */
  violations(): readonly string[];
}

/**
 * Runs a scenario in virtual time: one loop (ordered by (dueMs, seq)) feeds the scheduler core,
 * the simulated cluster and the timeline; a fake-timers clock jumps from entry to entry. Every
 * input, driver call and event goes to the trace; invariants are checked after every step.
 * Deterministic: the same scenario and seed give the same trace, byte for byte.
 */
export function runScenario(scenario: Scenario, options: RunOptions = {}): RunResult {
  const session = createRunSession(scenario, options);
  const maxLoopSteps = options.maxLoopSteps ?? RUN_LOOP_STEPS_DEFAULT;
  const onProgress = options.onProgress;
  const progressSteps = options.progressSteps ?? RUN_PROGRESS_STEPS;
  let nextProgress = progressSteps;
  while (session.unfinished()) {
    // The bound on the run's work: stopped before the first step past it, where that is on every machine.
    if (session.loopSteps >= maxLoopSteps) return session.stop(maxLoopSteps);
    session.step(session.endMs);
    if (onProgress !== undefined && session.loopSteps >= nextProgress) {
      nextProgress = session.loopSteps + progressSteps;
      onProgress({ loopSteps: session.loopSteps, maxLoopSteps, atMs: session.nowMs() - VIRTUAL_EPOCH_MS, durationMs: scenario.durationMs });
    }
  }
  return session.finish();
}

/** Wires a run (clock, loop, world, cluster, core, invariants, trace) without running it. */
export function createRunSession(scenario: Scenario, options: RunOptions = {}): RunSession {
  const seed = options.seed ?? scenario.seed;
  const clock = createClock(VIRTUAL_EPOCH_MS);
  const loop = new HeapLoop<RunItem>();
  const trace = new Trace(options.keepTrace === true, options.trace !== false);
  const rel = (): number => clock.now - VIRTUAL_EPOCH_MS;
  const streams = createWorldStreams(seed);
  // The core an input is meant for: bumped when a core dies, so what was meant for it is lost.
  let generation = 0;
  const simCtx: SimContext = {
    nowMs: () => clock.now,
    toCore: (dueMs: number, input: SchedulerInput) => loop.post(dueMs, { to: 'core', input, gen: generation }),
    schedule: (dueMs: number, event: SimEvent) => loop.schedule(dueMs, { to: 'sim', event }),
    cancel: (id: number) => loop.cancel(id),
    streams,
    tracing: trace.enabled,
    // Records carry virtual time since the start of the run, whoever wrote them.
    trace: (record) => {
      if (trace.enabled) trace.append('t' in record ? { ...record, t: rel() } : { t: rel(), ...record });
    },
  };
  const cluster = new SimCluster(simCtx, scenario.agents, { timings: scenario.options.timings, taskKilling: scenario.options.taskKilling });
  let checker: InvariantChecker | undefined;
  const driver = {
    accept: (offerId: string, ops: readonly OfferOperation[], refuseMs: number) => {
      checker?.onAccept(ops, rel());
      cluster.accept(offerId, ops, refuseMs);
    },
    decline: cluster.decline.bind(cluster),
    kill: (taskId: string, agentId: string | undefined, gracePeriodMs: number) => {
      checker?.onKill(taskId);
      cluster.kill(taskId, agentId, gracePeriodMs);
    },
    acknowledge: cluster.acknowledge.bind(cluster),
    reconcile: cluster.reconcile.bind(cluster),
    revive: cluster.revive.bind(cluster),
    suppress: cluster.suppress.bind(cluster),
  };
  const { store, recovered, failovers } = runStore(scenario);
  const prober = new SimProber(simCtx, cluster);
  const coreOptions: Partial<SchedulerOptions> = {
    defaultRole: scenario.options.defaultRole,
    taskKilling: scenario.options.taskKilling,
    ...(scenario.options.maxInstancesPerOffer === undefined ? {} : { maxInstancesPerOffer: scenario.options.maxInstancesPerOffer }),
    ...(scenario.options.unhealthyKillFloor === undefined ? {} : { unhealthyKillFloor: scenario.options.unhealthyKillFloor }),
    ...options.coreOptions,
  };
  // Every core of the run — the first and each that takes over after a failover — is built the one
  // way production builds its core at start-up (runtime-parts.ts startScheduler): the Scheduler
  // constructor, which recovers everything from the store (state/recover-state.ts).
  const buildCore = (): Scheduler => {
    const gen = generation;
    return new Scheduler(
      {
        clock: { nowMs: () => clock.now },
        random: streams.ids,
        timers: { schedule: (dueMs, input) => loop.schedule(dueMs, { to: 'core', input, gen }), cancel: (id) => loop.cancel(id) },
        driver,
        store,
        prober,
      },
      coreOptions,
    );
  };
  let scheduler = buildCore();
  /** No core leads: between a `schedulerFailover` and its takeover. */
  let down = false;
  const lookup = {
    instance: (id: string) => scheduler.instance(id),
    backoffUntilMs: (id: string) => scheduler.backoffUntilMs(id),
  };
  // Events are kept for the expectations that count them, and only when some expectation does.
  const countsEvents = scenario.timeline.some((step) => step.action.type === 'expect' && step.action.expectation.events.length > 0);
  const recorder = new RunRecorder((options.decisions ?? trace.enabled) ? new DecisionReader(lookup, { nowMs: () => clock.now }) : undefined, countsEvents, options.keepDecisions ?? true);
  if (options.invariants !== false) {
    checker = new InvariantChecker(
      scheduler, clusterBooks(cluster), scenario.invariants.convergeWithinMs, scenario.invariants.upgradeBounds === true, scenario.options.unhealthyKillFloor,
    );
  }
  const listeners: ((atMs: number, event: MarathonEvent, instance?: InstanceAtEvent) => void)[] = [];
  // What every core's events go to: the recorder, the invariants, the trace, outside listeners.
  const attach = (core: Scheduler): void => {
    core.subscribe((event: MarathonEvent, instance) => {
      const t = rel();
      recorder.onEvent(t, event, instance);
      checker?.onEvent(event, t);
      if (trace.enabled) trace.append({ t, k: 'event', e: wireEventJson(event, 'full') });
    });
    core.subscribe((event, instance) => {
      for (const l of listeners) l(rel(), event, instance);
    });
  };
  attach(scheduler);
  trace.append({ t: 0, k: 'start', scenario: scenario.name, seed, epoch: isoTime(VIRTUAL_EPOCH_MS) });
  for (const step of scenario.timeline) loop.schedule(VIRTUAL_EPOCH_MS + step.atMs, { to: 'step', step });
  cluster.start();
  // A run with a failover registers its framework first, so the core that takes over has an id to resubscribe with.
  if (failovers) cluster.subscribe();

  /** The leading core dies: everything only it held in memory goes with it; its tasks run on. */
  const failover = (step: TimelineStep, downtimeMs: number): void => {
    trace.append({ t: rel(), k: 'step', action: step.action.type, at: step.pointer });
    checker?.coreDied(rel());
    generation++;
    down = true;
    cluster.disconnect();
    trace.append({ t: rel(), k: 'failover', phase: 'down', downtimeMs });
    loop.schedule(clock.now + downtimeMs, { to: 'takeover' });
    recorder.step(rel(), `scheduler failover: the leader dies, a standby takes over in ${downtimeMs / 1000}s`);
  };
  /** A standby takes over: a new core from the store, resubscribed with the stored framework id. */
  const takeover = (): void => {
    trace.append({ t: rel(), k: 'failover', phase: 'takeover' });
    scheduler = buildCore();
    down = false;
    attach(scheduler);
    const frameworkId = recovered.frameworkId;
    let instances = 0;
    for (const spec of scheduler.runSpecs()) instances += scheduler.instances(spec.id).length;
    trace.append({
      t: rel(), k: 'failover', phase: 'recovered', ...(frameworkId === undefined ? {} : { frameworkId }),
      runSpecs: scheduler.runSpecs().length, instances, deployments: scheduler.deployments().length,
    });
    checker?.coreReplaced(scheduler, rel(), clock.now);
    recorder.step(rel(), `scheduler takeover: ${scheduler.runSpecs().length} run spec(s), ${instances} instance(s), ${scheduler.deployments().length} deployment(s) recovered`);
    cluster.subscribe(frameworkId);
  };

  let endMs = VIRTUAL_EPOCH_MS + scenario.durationMs;
  const inputListeners: ((atMs: number, input: SchedulerInput) => void)[] = [];
  let loopSteps = 0;
  let violations: string[] = [];
  let violationAtMs: number | undefined;
  // A bound on every run: the virtual clock must move at least every SAME_INSTANT_MAX steps (plus
  // SAME_INSTANT_PER_TASK per task in the cluster, counted once the first bound is passed), or the
  // core and the cluster are answering each other forever (a livelock).
  let instantMs = -1;
  /** The run's loop step that first reached `instantMs` (the violation names it: where the instant began). */
  let instantFirstStep = 0;
  let stepsAtInstant = 0;
  let instantBound = SAME_INSTANT_MAX;
  let boundRaised = false;
  /** The run's outcome at the current instant; `stopped` when it ends before its duration. */
  // Taking the result ends what the recorder keeps: a served run goes on after it (extendTo).
  const resultNow = (stopped?: StoppedRun): RunResult => {
    trace.append({ t: rel(), k: 'end' });
    recorder.stopKeeping();
    return {
      name: scenario.name,
      seed,
      passed: stopped === undefined && violations.length === 0 && recorder.expectations.every((e) => e.passed),
      ...(stopped === undefined ? {} : { stopped }),
      traceHash: trace.enabled ? trace.digest() : '',
      traceLines: trace.lines,
      traceText: trace.text(),
      steps: recorder.steps,
      expectations: recorder.expectations,
      violations,
      violationAtMs,
      finalCounts: finalCounts(scheduler),
      eventCounts: recorder.eventCounts,
      decisions: recorder.decisions,
      ...(recorder.decisionsNotKept > 0 ? { decisionsNotKept: recorder.decisionsNotKept } : {}),
      unplaced: finalUnplaced(scheduler, VIRTUAL_EPOCH_MS),
      virtualMs: rel(),
      loopSteps,
    };
  };
  return {
    get endMs() {
      return endMs;
    },
    get loopSteps() {
      return loopSteps;
    },
    get scheduler() {
      return scheduler;
    },
    cluster,
    nowMs: () => clock.now,
    violations: () => violations,
    extendTo: (untilMs) => {
      endMs = Math.max(endMs, untilMs);
    },
    retained: () => ({ oracleEntries: checker?.remembered ?? 0, rejectionCounts: recorder.rejectionsRemembered }),
    submit(command: Command): CommandResult {
      if (down) {
        recorder.step(rel(), `api ${command.type}: refused (no scheduler leads: a failover is under way)`);
        return NO_LEADER_REFUSAL;
      }
      const result = submitCommand(command, { scheduler, trace, checker, recorder, nowMs: rel() });
      recorder.afterInput(rel());
      if (checker !== undefined && violationAtMs === undefined) {
        violations = checker.afterStep(rel());
        if (violations.length > 0) {
          violationAtMs = rel();
          trace.append({ t: violationAtMs, k: 'violation', violations });
        }
      }
      return result;
    },
    nextDueMs: () => (violationAtMs === undefined ? loop.peekDueMs() : undefined),
    onEvent: (listener) => void listeners.push(listener),
    onDecision: (listener) => recorder.onDecision(listener),
    onInput: (listener) => void inputListeners.push(listener),
    step(untilMs: number): boolean {
      if (violationAtMs !== undefined) return false;
      const entry = loop.popDue(Math.min(untilMs, endMs));
      if (entry === undefined) return false;
      if (entry.dueMs > clock.now) clock.tick(entry.dueMs - clock.now);
      loopSteps++;
      if (clock.now !== instantMs) {
        instantMs = clock.now;
        instantFirstStep = loopSteps;
        stepsAtInstant = 0;
        instantBound = SAME_INSTANT_MAX;
        boundRaised = false;
      } else if (++stepsAtInstant > instantBound) {
        const tasks = cluster.taskCount();
        if (!boundRaised) {
          boundRaised = true;
          instantBound = SAME_INSTANT_MAX + SAME_INSTANT_PER_TASK * tasks;
        }
        if (stepsAtInstant > instantBound) {
          violationAtMs = rel();
          violations = [`livelock: ${instantBound} loop steps at one virtual instant without time advancing (${tasks} tasks in the cluster; the instant began at loop step ${instantFirstStep}, stopped at ${loopSteps})`];
          trace.append({ t: violationAtMs, k: 'violation', violations });
          return false;
        }
      }
      const item = entry.input;
      try {
        if (item.to === 'core') {
          if (item.gen !== generation) {
            // Meant for a core that died: a timer of its own, a probe's answer, an update in flight.
            if (trace.enabled) trace.append({ t: rel(), k: 'lost', ...summarizeInput(item.input) });
          } else {
            if (trace.enabled) trace.append({ t: rel(), k: 'in', ...summarizeInput(item.input) });
            for (const l of inputListeners) l(clock.now, item.input);
            scheduler.handle(item.input);
            if (item.input.type === 'offers') recorder.afterOffers(scheduler, rel());
          }
        } else if (item.to === 'sim') {
          cluster.onEvent(item.event);
        } else if (item.to === 'takeover') {
          takeover();
        } else if (item.step.action.type === 'schedulerFailover') {
          failover(item.step, item.step.action.downtimeMs);
        } else {
          performStep(item.step, { scheduler, cluster, recorder, trace, checker, scenario, nowMs: rel() });
        }
      } catch (err) {
        // What failed, with the entry that made it fail (the input, event or step) and its time.
        throw new CoreFailure(item.to === 'core' ? item.input : item, clock.now, err);
      }
      recorder.afterInput(rel());
      if (checker !== undefined) {
        violations = checker.afterStep(rel());
        if (violations.length > 0) {
          violationAtMs = rel();
          trace.append({ t: violationAtMs, k: 'violation', violations });
        }
      }
      return true;
    },
    finish(): RunResult {
      if (violationAtMs === undefined && clock.now < endMs) clock.tick(endMs - clock.now);
      return resultNow();
    },
    stop(maxLoopSteps?: number): RunResult {
      const expectations = scenario.timeline.filter((s) => s.action.type === 'expect').length;
      if (maxLoopSteps !== undefined) trace.append({ t: rel(), k: 'stopped', loopSteps, maxLoopSteps });
      return resultNow({
        atMs: rel(), durationMs: scenario.durationMs, unchecked: Math.max(0, expectations - recorder.expectations.length),
        ...(maxLoopSteps === undefined ? {} : { maxLoopSteps }),
      });
    },
    leaderless: () => down,
    unfinished(): boolean {
      const due = loop.peekDueMs();
      return violationAtMs === undefined && due !== undefined && due <= endMs;
    },
  };
}

/** What an outside command acts on; `nowMs` is relative to the start of the run. */
interface SubmitDeps extends CommandDeps {
  readonly recorder: RunRecorder;
}

/** One outside command: what a timeline command gets (handleCommand), a disturbance, a summary line. */
function submitCommand(command: Command, deps: SubmitDeps): CommandResult {
  deps.checker?.disturbed(deps.nowMs);
  const result = handleCommand(deps, command, 'api') ?? { ok: true };
  deps.recorder.step(deps.nowMs, `api ${command.type}: ${outcome(result)}`);
  return result;
}
