import type { Call } from '../codec/mesos-model';

/** A call waiting to be sent. */
export interface OutgoingCall {
  readonly call: Call;
  /**
   * The call was dropped unsent (disconnected, or not held) — e.g. an ACCEPT, whose offer died
   * with the subscription: its tasks must be reported dropped to the core.
   */
  readonly dropped?: () => void;
}

/** Calls worth holding across a disconnect: they do not depend on the subscription (§1.8). */
const HELD_TYPES: ReadonlySet<string> = new Set(['KILL', 'ACKNOWLEDGE']);

/**
 * The driver's outgoing calls, sent one at a time in order while subscribed (§1.10: two requests
 * on different sockets have no ordering guarantee, and e.g. UPDATE_FRAMEWORK must precede the
 * REVIVE of a new role). While disconnected:
 * - KILL and ACKNOWLEDGE are held (at most `maxHeld`, the oldest dropped beyond) and sent after
 *   the next SUBSCRIBED: they name a task and agent, not an offer or a stream;
 * - everything else is dropped: ACCEPT/DECLINE name offers, which die with the subscription (§1.8,
 *   `dropped` is called so launches can be reported dropped); RECONCILE is re-run by the core on
 *   `subscribed`; REVIVE/SUPPRESS/UPDATE_FRAMEWORK state is restated in the next SUBSCRIBE.
 */
export class CallOutbox {
  private queue: OutgoingCall[] = [];
  private sender: ((item: OutgoingCall) => Promise<void>) | undefined;
  private busy = false;
  /** Held calls dropped because `maxHeld` was exceeded (for logs and tests). */
  overflowed = 0;

  constructor(private readonly maxHeld: number) {}

  /** Calls waiting (held or queued). */
  get size(): number {
    return this.queue.length;
  }

  /** Queues a call; it is sent when its turn comes, or held/dropped while closed. */
  enqueue(item: OutgoingCall): void {
    if (this.sender === undefined && !HELD_TYPES.has(item.call.type)) {
      item.dropped?.();
      return;
    }
    this.queue.push(item);
    if (this.sender === undefined) this.trimHeld();
    this.pump();
  }

  /** Subscribed: `sender` posts one call and resolves when it was answered (never rejects). */
  open(sender: (item: OutgoingCall) => Promise<void>): void {
    this.sender = sender;
    this.pump();
  }

  /** Disconnected: keep what may be held, drop the rest (calling `dropped`). */
  close(): void {
    this.sender = undefined;
    const kept: OutgoingCall[] = [];
    for (const item of this.queue) {
      if (HELD_TYPES.has(item.call.type)) kept.push(item);
      else item.dropped?.();
    }
    this.queue = kept;
    this.trimHeld();
  }

  /** Stopped: forget everything without callbacks. */
  clear(): void {
    this.sender = undefined;
    this.queue = [];
  }

  private trimHeld(): void {
    const excess = this.queue.length - this.maxHeld;
    if (excess <= 0) return;
    this.queue.splice(0, excess);
    this.overflowed += excess;
  }

  private pump(): void {
    const sender = this.sender;
    if (this.busy || sender === undefined) return;
    const item = this.queue.shift();
    if (item === undefined) return;
    this.busy = true;
    void sender(item).then(() => {
      this.busy = false;
      this.pump();
    });
  }
}
