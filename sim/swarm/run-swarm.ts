import { formatDurationMs } from '../scenario/format-duration';
import { RUN_LOOP_STEPS_DEFAULT } from '../scenario/scenario-limits';
import { createRunSession } from '../runner/run-scenario';
import { VIRTUAL_EPOCH_MS } from '../runner/virtual-epoch';
import { generateScenario } from './generate-scenario';

/** Options of a swarm run. */
export interface SwarmOptions {
  /** How many seeds to run. */
  readonly seeds: number;
  /** The first seed (default 0): seeds `from`, `from + 1`, … `from + seeds - 1`. */
  readonly from?: number;
  /**
   * A wall clock in milliseconds, for `wallMs`. The simulator has no clock of its own (it is linted
   * against one); the command line passes `performance.now`. Without it `wallMs` is 0.
   */
  readonly wallClockMs?: () => number;
  /** Called after each seed (progress, early printing of failures). */
  readonly onSeed?: (outcome: SeedOutcome) => void;
}

/** How one seed went. */
export interface SeedOutcome {
  readonly seed: number;
  /** Invariant violations, or the exception a crashing run threw (message and top of the stack); empty when it passed. */
  readonly violations: readonly string[];
  /** Virtual time the run reached (its duration, or the time of the violation). */
  readonly virtualMs: number;
  readonly loopSteps: number;
  /** The run's events by type, when it reached its end (passed or not); absent after a crash or a livelock. */
  readonly eventCounts?: Readonly<Record<string, number>>;
}

/** A failing seed with the command that replays it. */
export interface SwarmFailure {
  readonly seed: number;
  readonly violations: readonly string[];
  /** When the first violation happened (virtual time since the start of the run), if the run got that far. */
  readonly atMs?: number;
  readonly command: string;
}

/** The result of a swarm run. */
export interface SwarmResult {
  readonly failures: SwarmFailure[];
  readonly seedsRun: number;
  /** Virtual hours simulated over all seeds. */
  readonly virtualHours: number;
  readonly wallMs: number;
  readonly loopSteps: number;
}

/**
 * Limits on one run (put a limit on everything): a run whose virtual clock stands still for this
 * many loop steps, or that takes {@link RUN_LOOP_STEPS_DEFAULT} steps in all (`npm run sim`'s own
 * bound, so that the dump of any seed the swarm ran stops at the same step there), is a livelock
 * — a failure, not a hang. A busy instant of a generated run (an offer cycle over 40 agents, a
 * partition healing) takes a few hundred steps; whole runs take a few thousand to a few hundred thousand.
 */
const SAME_INSTANT_STEPS_MAX = 100_000;
const LOOP_STEPS_MAX = RUN_LOOP_STEPS_DEFAULT;

/** The command that replays one seed of the swarm. */
export function replayCommand(seed: number): string {
  return `npm run sim -- swarm --seeds 1 --from ${seed}`;
}

/**
 * Seeded swarm testing (TigerBeetle's VOPR idea, architecture §7): for each seed, generate a
 * scenario ({@link generateScenario}: cluster shape, workload, fault rates, timeline), run it in
 * virtual time with every invariant checked after every step and the trace off (speed), and collect
 * the seeds that violated an invariant — or crashed: an exception in the generator, the simulator
 * or the core is a failure too, reported with its message and the top of its stack.
 */
export function runSwarm(options: SwarmOptions): SwarmResult {
  const from = options.from ?? 0;
  const clock = options.wallClockMs ?? (() => 0);
  const started = clock();
  const failures: SwarmFailure[] = [];
  let virtualMs = 0;
  let loopSteps = 0;
  for (let seed = from; seed < from + options.seeds; seed++) {
    const outcome = runSeed(seed);
    virtualMs += outcome.virtualMs;
    loopSteps += outcome.loopSteps;
    if (outcome.violations.length > 0) {
      failures.push({ seed, violations: outcome.violations, ...(outcome.atMs === undefined ? {} : { atMs: outcome.atMs }), command: replayCommand(seed) });
    }
    options.onSeed?.(outcome);
  }
  return { failures, seedsRun: options.seeds, virtualHours: virtualMs / 3_600_000, wallMs: clock() - started, loopSteps };
}

/** Runs one seed: its outcome, with `atMs` the virtual time of the first violation. */
export function runSeed(seed: number): SeedOutcome & { readonly atMs?: number } {
  let reachedMs = 0;
  let steps = 0;
  try {
    const scenario = generateScenario(seed);
    const session = createRunSession(scenario, { trace: false });
    let instantMs = -1;
    let stepsThisInstant = 0;
    for (;;) {
      const dueMs = session.nextDueMs();
      if (dueMs === instantMs) stepsThisInstant++;
      else {
        instantMs = dueMs ?? -1;
        stepsThisInstant = 0;
      }
      if (stepsThisInstant >= SAME_INSTANT_STEPS_MAX || (steps >= LOOP_STEPS_MAX && session.unfinished())) {
        const atMs = instantMs - VIRTUAL_EPOCH_MS;
        const what = steps >= LOOP_STEPS_MAX
          ? `livelock: ${LOOP_STEPS_MAX} loop steps in one run (the bound on a run's work, npm run sim's default --max-steps)`
          : `livelock: ${SAME_INSTANT_STEPS_MAX} loop steps at one virtual instant without time advancing`;
        return { seed, atMs, violations: [`at ${formatDurationMs(atMs)}: ${what}`], virtualMs: atMs, loopSteps: steps };
      }
      if (!session.step(session.endMs)) break;
      steps++;
    }
    const result = session.finish();
    reachedMs = result.virtualMs;
    if (result.violations.length === 0) return { seed, violations: [], virtualMs: result.virtualMs, loopSteps: result.loopSteps, eventCounts: result.eventCounts };
    const atMs = result.violationAtMs ?? result.virtualMs;
    return {
      seed, atMs, virtualMs: result.virtualMs, loopSteps: result.loopSteps, eventCounts: result.eventCounts,
      violations: result.violations.map((v) => `at ${formatDurationMs(atMs)}: ${v}`),
    };
  } catch (error) {
    return { seed, violations: [crashMessage(error)], virtualMs: reachedMs, loopSteps: steps };
  }
}

/** `crash: <message> (at <first stack frame>)`. */
function crashMessage(error: unknown): string {
  if (!(error instanceof Error)) return `crash: ${String(error)}`;
  const frame = (error.stack ?? '').split('\n').find((line) => line.trim().startsWith('at '))?.trim();
  return `crash: ${error.message}${frame === undefined ? '' : ` (${frame})`}`;
}
