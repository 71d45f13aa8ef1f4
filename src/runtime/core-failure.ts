import { AssertionError } from '../scheduler/index';
import type { PacerLog } from './pacer-log';

/**
 * The core threw while handling `input`: an assertion of `kernel/assert.ts` failed (a violated
 * belief about its own state), or something under it broke in the middle of an input (the store).
 * The core never throws for expected outcomes — refusals are values (`CommandResult`), bad requests
 * are 4xx errors of the API before anything reaches the core — so its state can no longer be
 * trusted, and pacer stops (docs/architecture.md, "One loop": restart and recovery take over).
 * Carries what replays it: the input and the clock the core read while handling it.
 */
export class CoreFailure extends Error {
  constructor(
    /** The input being handled (a SchedulerInput, a timeline step, or the API request of a query). */
    readonly input: unknown,
    /** The clock the core read while handling it (epoch ms; virtual in the simulator). */
    readonly atMs: number,
    cause: unknown,
  ) {
    super(`${messageOf(cause)} (while handling ${kindOf(input)})`, { cause });
    this.name = 'CoreFailure';
    if (cause instanceof Error && cause.stack !== undefined) this.stack = cause.stack;
  }

  /** The input as one line of JSON (what a replay would feed the core). */
  inputJson(): string {
    return JSON.stringify(this.input);
  }

  /** True when the cause is a failed assertion of the core (rather than, say, a store that broke). */
  get isAssertion(): boolean {
    return this.cause instanceof AssertionError;
  }
}

/** A failure of the core, whether it reached the caller wrapped by a loop or raw (a query that asserted). */
export function isCoreFault(error: unknown): error is CoreFailure | AssertionError {
  return error instanceof CoreFailure || error instanceof AssertionError;
}

/** Where a core failure goes: the process stops (production), or a test records it. */
export type CoreFailureHandler = (failure: CoreFailure) => void;

/**
 * The production handler: reports the failure once (`report`: the input as JSON and the stack)
 * and ends the process with exit code 70 (EX_SOFTWARE) at once, in the middle of whatever it was
 * doing — as `kill -9` would, which the store survives by design. A second failure reported while
 * the first is being handled is ignored.
 */
export function haltingHandler(report: (failure: CoreFailure) => void, exit: (code: number) => void = (code) => process.exit(code)): CoreFailureHandler {
  let halted = false;
  return (failure) => {
    if (halted) return;
    halted = true;
    report(failure);
    exit(CORE_FAILURE_EXIT_CODE);
  };
}

/** `sysexits.h` EX_SOFTWARE: an internal software error. */
export const CORE_FAILURE_EXIT_CODE = 70;

/**
 * Reports a failure as one `fatal` record of `log` (component `loop`): the input as JSON in
 * `input`, the stack in `err`, the clock in `atMs`. When `log` is set to write nothing at `fatal`
 * (`--log_level off`, or a composition a test started without a log) the plain text goes to
 * stderr instead: a process never stops without saying why.
 */
export function reportCoreFailure(log: PacerLog): (failure: CoreFailure) => void {
  return (failure) => {
    if (!log.isLevelEnabled('fatal')) {
      process.stderr.write(`${coreFailureText(failure)}\n`);
      return;
    }
    log.fatal({ component: 'loop', atMs: failure.atMs, input: failure.input, err: failure },
      `${failure.message}: pacer stops (restart recovers from the store)`);
  };
}

/** The failure as plain text: what stopped, the input as JSON, the stack. */
export function coreFailureText(failure: CoreFailure): string {
  return `pacer stops: the core failed while handling an input (restart recovers from the store)\n`
    + `input: ${failure.inputJson()}\n${failure.stack ?? failure.message}`;
}

function messageOf(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}

function kindOf(input: unknown): string {
  if (typeof input === 'object' && input !== null && 'type' in input && typeof input.type === 'string') return `a ${input.type} input`;
  return 'an input';
}
