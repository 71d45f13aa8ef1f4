import type { ClusterInput } from '../../scheduler/model/inputs';

/**
 * Inputs for the scheduler, posted in order but never from inside a driver call: the core calls
 * the driver while it handles an input, and posting back synchronously would re-enter it. Queued
 * inputs go out together on the next turn of the event loop. Once closed, nothing is posted.
 */
export class StatusOutbox {
  private queue: ClusterInput[] = [];
  private flushing: NodeJS.Immediate | undefined;
  private open = false;

  constructor(private readonly post: (input: ClusterInput) => void) {}

  /** Start posting (again). */
  openUp(): void {
    this.open = true;
  }

  send(input: ClusterInput): void {
    if (!this.open) return;
    this.queue.push(input);
    this.flushing ??= setImmediate(() => this.flush());
  }

  /** Stop posting and drop what is queued. */
  close(): void {
    this.open = false;
    this.queue = [];
    if (this.flushing !== undefined) clearImmediate(this.flushing);
    this.flushing = undefined;
  }

  private flush(): void {
    this.flushing = undefined;
    const batch = this.queue;
    this.queue = [];
    for (const input of batch) {
      if (!this.open) return;
      this.post(input);
    }
  }
}
