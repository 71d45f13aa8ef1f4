import { HeapLoop } from '../scheduler/index';
import type { CommandResult, SchedulerInput, TimerInput } from '../scheduler/model/inputs';
import type { Clock } from '../scheduler/ports/clock';
import type { Timers } from '../scheduler/ports/timers';
import { CoreFailure, type CoreFailureHandler } from './core-failure';

/** What the loop drives: the core's `handle`. */
export interface InputHandler {
  handle(input: SchedulerInput): CommandResult | undefined;
}

/** Runs a function so that the store writes it makes are durable all together or not at all. */
export type Atomically = <T>(fn: () => T) => T;

/**
 * Sees every input the core handles, at the clock the core reads while handling it: the one place
 * all inputs pass (cluster driver, timers, probes, API commands). A flight recorder records
 * `beforeInput` (so the input that makes the core fail is recorded too); the decision log looks
 * at the core after it (`afterInput`).
 */
export interface LoopObserver {
  beforeInput?(atMs: number, input: SchedulerInput): void;
  afterInput?(atMs: number, input: SchedulerInput): void;
}

/** How to build a {@link RealTimeLoop}; every field has a production default. */
export interface RealTimeLoopOptions {
  /** Each command runs inside it (one store transaction: SqliteStore.atomically). Default: as is. */
  readonly atomically?: Atomically;
  /**
   * Called as each command is submitted, before anything is handled: it may throw to refuse the
   * command (the error reaches the caller of `submit`; the core never sees the command). The
   * runtime refuses changes here while the store cannot keep them (runtime/store-write-refusal.ts).
   */
  readonly beforeCommand?: () => void;
  /**
   * The core threw (runtime/core-failure.ts). Default: the {@link CoreFailure} is thrown to whoever
   * drove the loop (the caller of `submit`, or Node's event loop: an uncaught exception).
   */
  readonly onFailure?: CoreFailureHandler;
  /** The wall clock, epoch ms (tests may move it by hand). Default `Date.now`. */
  readonly wallMs?: () => number;
  /** Longest stretch of inputs handled back to back before yielding to Node's event loop (default 10 ms). */
  readonly sliceMs?: number;
}

/** Node's setTimeout limit (about 24.8 days); a later entry is waited for in steps. */
const MAX_TIMEOUT_MS = 2_147_483_647;

/**
 * The production loop: the simulator's {@link HeapLoop} over the real clock (architecture: "One
 * loop"). Every input — a cluster driver's update, a probe's result, the core's own timers, an API
 * command — is an entry ordered by (dueMs, seq); inputs from outside are due now. Entries are
 * handled one at a time, to completion, on a later turn of Node's event loop, never inside the
 * call that posted them (so a driver never sees the core's exceptions, and an input posted while
 * another is handled waits its turn). One Node timer is armed at a time, for the earliest entry.
 *
 * The loop is the core's clock: while an input is handled `nowMs()` is the instant it was taken
 * up (never behind an earlier one), so everything the core decides for one input sees one time,
 * as in the simulator, and `(atMs, input)` — what {@link LoopObserver} sees — replays it.
 *
 * `submit` is for API commands, which need their result: it first handles every entry already due,
 * then the command, synchronously, inside `atomically` (one store transaction: a crash between the
 * records of one change left a root group whose app the core did not run; the crash test,
 * test/e2e/local-crash.test.ts). Cluster inputs are not wrapped: an offer's instances must be
 * durable before the ACCEPT, inside the same input.
 *
 * If the core throws, the loop closes (no input may reach a core whose state is unknown) and hands
 * a {@link CoreFailure} carrying the input to `onFailure`; production's handler prints it and ends
 * the process (runtime/core-failure.ts).
 */
export class RealTimeLoop implements Timers, Clock {
  private readonly heap = new HeapLoop<SchedulerInput>();
  private readonly observers: LoopObserver[] = [];
  private readonly atomically: Atomically;
  private readonly beforeCommand: (() => void) | undefined;
  private readonly onFailure: CoreFailureHandler | undefined;
  private readonly wallMs: () => number;
  private readonly sliceMs: number;
  private core: InputHandler | undefined;
  private busy = false;
  private closed = false;
  /** The clock while an input is handled; undefined between inputs. */
  private handlingAtMs: number | undefined;
  private lastMs = Number.NEGATIVE_INFINITY;
  private wake: { readonly dueMs: number; readonly now: boolean; readonly cancel: () => void } | undefined;
  /** What closed the loop, if the core failed. */
  private failure: CoreFailure | undefined;
  /** The id of the entry scheduled last (ids grow with scheduling order: HeapLoop's seq). */
  private lastId = 0;
  /** Inputs handled so far (metrics, tests). */
  handled = 0;

  constructor(options: RealTimeLoopOptions = {}) {
    this.atomically = options.atomically ?? ((fn) => fn());
    this.beforeCommand = options.beforeCommand;
    this.onFailure = options.onFailure;
    this.wallMs = options.wallMs ?? Date.now;
    this.sliceMs = options.sliceMs ?? 10;
  }

  /** Attaches the core (it is built after the ports that post into this loop) and starts handling. */
  attach(core: InputHandler): void {
    this.core = core;
    this.arm();
  }

  /** Adds an observer of every input handled from now on. */
  observe(observer: LoopObserver): void {
    this.observers.push(observer);
  }

  /** The core's clock: the instant of the input being handled, else the wall clock (never backwards). */
  nowMs(): number {
    return this.handlingAtMs ?? this.tick();
  }

  /** Posts an input from outside (driver, probe): an entry due now, handled on a later turn. */
  post(input: SchedulerInput): void {
    if (this.closed) return;
    this.lastId = this.heap.schedule(this.nowMs(), input);
    this.arm();
  }

  /** The Timers port: the core's timer input becomes an entry due at `dueMs`. */
  schedule(dueMs: number, input: TimerInput): number {
    const id = this.heap.schedule(dueMs, input);
    this.lastId = id;
    this.arm();
    return id;
  }

  cancel(timerId: number): void {
    this.heap.cancel(timerId);
  }

  /** Entries waiting (timers and posted inputs). */
  get size(): number {
    return this.heap.size;
  }

  /**
   * Handles an API command now, after the entries that were already queued and due when it was
   * called, and returns its result. Entries those queue in turn (a `continueChanges`,
   * `continueOffers` or `continueReconcile` timer due at once, which re-arms itself until a big
   * change is done) wait for the command: draining them too would run all of a 100,000-instance
   * change in one call and block the process for seconds (issue 11 item 4). Throws when
   * the core is not attached, the loop is closed, or it is called from inside an input; throws what
   * `beforeCommand` throws (nothing handled); throws the {@link CoreFailure} when the core fails
   * (after `onFailure`, which in production does not return).
   */
  submit(command: SchedulerInput): CommandResult {
    if (this.core === undefined) throw new Error('the scheduler is not started yet');
    if (this.busy) throw new Error('a command was submitted while an input was being handled (re-entrant loop)');
    this.beforeCommand?.();
    this.runDue(Number.POSITIVE_INFINITY, this.lastId);
    if (this.failure !== undefined) throw this.failure;
    if (this.closed) throw new Error('the scheduler is shutting down');
    this.busy = true;
    try {
      return this.handle(command, this.tick(), true) ?? { ok: true };
    } finally {
      this.busy = false;
      this.arm();
    }
  }

  /**
   * Stops handling: waiting entries are dropped, later posts ignored (a probe or process exit
   * answering after shutdown must not reach a core whose store is closed) and `submit` refuses.
   */
  close(): void {
    this.closed = true;
    this.wake?.cancel();
    this.wake = undefined;
    for (let e = this.heap.popDue(Number.POSITIVE_INFINITY); e !== undefined; e = this.heap.popDue(Number.POSITIVE_INFINITY)) {
      // dropped
    }
  }

  /** The wall clock, never behind a reading the loop already gave out. */
  private tick(): number {
    this.lastMs = Math.max(this.lastMs, this.wallMs());
    return this.lastMs;
  }

  /**
   * Handles the entries due by now, for at most `budgetMs` of wall time, then re-arms; with
   * `maxId`, only up to the first entry in loop order that was scheduled after the entry of that id.
   */
  private runDue(budgetMs: number, maxId = Number.POSITIVE_INFINITY): void {
    if (this.busy || this.closed || this.core === undefined) return;
    this.busy = true;
    const startedMs = this.wallMs();
    try {
      for (;;) {
        const atMs = this.tick();
        const entry = this.heap.popDue(atMs, maxId);
        if (entry === undefined) break;
        this.handle(entry.input, atMs, false);
        if (this.wallMs() - startedMs >= budgetMs) break;
      }
    } catch (err) {
      // A failure went to onFailure already (the loop is closed); without one, it goes on up.
      if (!(err instanceof CoreFailure) || this.onFailure === undefined) throw err;
    } finally {
      this.busy = false;
    }
    this.arm();
  }

  private handle(input: SchedulerInput, atMs: number, command: boolean): CommandResult | undefined {
    const core = this.core as InputHandler;
    this.handlingAtMs = atMs;
    let result: CommandResult | undefined;
    try {
      for (const o of this.observers) o.beforeInput?.(atMs, input);
      try {
        result = command ? this.atomically(() => core.handle(input)) : core.handle(input);
      } catch (err) {
        const failure = new CoreFailure(input, atMs, err);
        this.failure = failure;
        this.close();
        this.onFailure?.(failure);
        throw failure;
      }
      this.handled++;
      for (const o of this.observers) o.afterInput?.(atMs, input);
    } finally {
      this.handlingAtMs = undefined;
    }
    return result;
  }

  /** Arms the one wake-up for the earliest entry (at once when it is due), unless one is armed earlier. */
  private arm(): void {
    if (this.busy || this.closed || this.core === undefined) return;
    const dueMs = this.heap.peekDueMs();
    if (dueMs === undefined) {
      this.wake?.cancel();
      this.wake = undefined;
      return;
    }
    if (this.wake !== undefined && (this.wake.now || this.wake.dueMs <= dueMs)) return;
    this.wake?.cancel();
    const waitMs = dueMs - this.wallMs();
    const run = (): void => {
      this.wake = undefined;
      this.runDue(this.sliceMs);
    };
    if (waitMs <= 0) {
      const immediate = setImmediate(run);
      this.wake = { dueMs, now: true, cancel: () => clearImmediate(immediate) };
      return;
    }
    // A timer of the core does not keep the process alive by itself (the API server does).
    const timer = setTimeout(run, Math.min(waitMs, MAX_TIMEOUT_MS));
    timer.unref();
    this.wake = { dueMs, now: false, cancel: () => clearTimeout(timer) };
  }
}
