import type { CommandResult, SchedulerInput } from '../scheduler/model/inputs';

/** What the loop drives: the core's `handle`. */
export interface InputHandler {
  handle(input: SchedulerInput): CommandResult | undefined;
}

/** Runs a function so that the store writes it makes are durable all together or not at all. */
export type Atomically = <T>(fn: () => T) => T;

/**
 * The production loop: one queue, one thread (architecture §1). Inputs from the cluster driver,
 * timers, probes and the API are handled one at a time, to completion. An input posted while
 * another is being handled (a driver that answers synchronously, say) waits its turn instead of
 * re-entering the core. `submit` is for API commands: it returns the command's result.
 *
 * A command is handled `atomically` (one store transaction, SqliteStore.atomically): one change
 * writes several records (root group, run specs, versions, deployment, instances), and a crash
 * between two of them left a root group whose app the core did not run, or ran with the old
 * instance count (found by the crash test, test/e2e/local-crash.test.ts). Cluster inputs are not
 * wrapped: an offer's instances must be durable before the ACCEPT, inside the same input.
 */
export class RuntimeLoop {
  private readonly queue: SchedulerInput[] = [];
  private busy = false;
  private closed = false;
  private core?: InputHandler;
  /** Inputs handled so far (metrics, tests). */
  handled = 0;

  constructor(private readonly atomically: Atomically = (fn) => fn()) {}

  /** Attaches the core (it is built after the ports that post into this loop). */
  attach(core: InputHandler): void {
    this.core = core;
    this.drain();
  }

  /**
   * Stops handling: later posts are dropped (a probe or process exit answering after shutdown
   * must not reach a core whose store is closed) and `submit` refuses.
   */
  close(): void {
    this.closed = true;
    this.queue.length = 0;
  }

  /** Posts an input; it is handled now if the loop is idle, else after the current one. */
  post(input: SchedulerInput): void {
    if (this.closed) return;
    this.queue.push(input);
    this.drain();
  }

  /** Handles a command now (after anything queued) and returns its result. */
  submit(command: SchedulerInput): CommandResult {
    if (this.core === undefined) throw new Error('the scheduler is not started yet');
    if (this.closed) throw new Error('the scheduler is shutting down');
    if (this.busy) throw new Error('a command was submitted while an input was being handled (re-entrant loop)');
    this.drain();
    this.busy = true;
    try {
      this.handled++;
      const core = this.core;
      return this.atomically(() => core.handle(command)) ?? { ok: true };
    } finally {
      this.busy = false;
      this.drain();
    }
  }

  private drain(): void {
    if (this.busy || this.core === undefined) return;
    this.busy = true;
    try {
      for (let input = this.queue.shift(); input !== undefined; input = this.queue.shift()) {
        this.handled++;
        this.core.handle(input);
      }
    } finally {
      this.busy = false;
    }
  }
}
