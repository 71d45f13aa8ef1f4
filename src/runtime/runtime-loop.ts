import type { CommandResult, SchedulerInput } from '../scheduler/model/inputs';

/** What the loop drives: the core's `handle`. */
export interface InputHandler {
  handle(input: SchedulerInput): CommandResult | undefined;
}

/**
 * The production loop: one queue, one thread (architecture §1). Inputs from the cluster driver,
 * timers, probes and the API are handled one at a time, to completion. An input posted while
 * another is being handled (a driver that answers synchronously, say) waits its turn instead of
 * re-entering the core. `submit` is for API commands: it returns the command's result.
 */
export class RuntimeLoop {
  private readonly queue: SchedulerInput[] = [];
  private busy = false;
  private closed = false;
  private core?: InputHandler;
  /** Inputs handled so far (metrics, tests). */
  handled = 0;

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
      return this.core.handle(command) ?? { ok: true };
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
