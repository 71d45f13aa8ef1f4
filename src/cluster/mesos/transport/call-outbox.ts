import type { Call } from '../codec/mesos-model';
import { callOrderKeys } from './call-order-keys';

/** A call waiting to be sent. */
export interface OutgoingCall {
  readonly call: Call;
  /**
   * The call was dropped unsent (disconnected, or not held) — e.g. an ACCEPT, whose offer died
   * with the subscription: its tasks must be reported dropped to the core.
   */
  readonly dropped?: () => void;
  /**
   * The call got no answer on a subscription still current (timeout, network fault) and is not
   * sent again: the master may or may not have handled it (an ACCEPT: its tasks are reconciled).
   * `what` says what happened, for the log.
   */
  readonly unanswered?: (what: string) => void;
}

/** Calls worth holding across a disconnect: they do not depend on the subscription (§1.8). */
const HELD_TYPES: ReadonlySet<string> = new Set(['KILL', 'ACKNOWLEDGE']);

/** Whether a call is held across a disconnect and sent on the next subscription (KILL, ACKNOWLEDGE). */
export function heldAcrossDisconnect(call: Call): boolean {
  return HELD_TYPES.has(call.type);
}

/**
 * The driver's outgoing calls. While subscribed, up to `maxInFlight` are in flight at once, each
 * on its own connection with its own timeout, so one the master never answers holds up only the
 * calls that must stay behind it: calls sharing an order key (call-order-keys.ts: the roles, an
 * offer, a task) are sent in the order queued, each once the one before was answered (§1.10: two
 * requests on different sockets have no ordering guarantee — e.g. UPDATE_FRAMEWORK must precede
 * the REVIVE of a new role). A call waits only for earlier calls it shares a key with, and for a
 * free place; calls without a shared key may overtake one another. While disconnected:
 * - KILL and ACKNOWLEDGE are held (at most `maxHeld`, the oldest dropped beyond) and sent after
 *   the next SUBSCRIBED: they name a task and agent, not an offer or a stream;
 * - everything else is dropped: ACCEPT/DECLINE name offers, which die with the subscription (§1.8,
 *   `dropped` is called so launches can be reported dropped); RECONCILE is re-run by the core on
 *   `subscribed`; REVIVE/SUPPRESS/UPDATE_FRAMEWORK state is restated in the next SUBSCRIBE.
 * Calls in flight when the subscription is lost keep their place and keys until their sender
 * resolves; the driver gives them up at once then (mesos-cluster.ts), so none holds up the next
 * subscription's calls.
 *
 * While subscribed, the calls waiting are bounded too (`maxQueued`): beyond it the oldest waiting
 * KILL and ACKNOWLEDGE calls are dropped, both of which the cluster repeats (an agent resends an
 * update until it is acknowledged; the core's kill retry kills again). A master that sends
 * updates faster than they can be acknowledged (20,000 at once, each answered by an ACKNOWLEDGE
 * and, for a task pacer does not know, a KILL: a Mesos-failure trial of 2026-12-03) so costs
 * bounded memory. Other calls are not dropped for it: each follows an offer or a decision of the
 * core, whose inputs are bounded.
 */
export class CallOutbox {
  private queue: OutgoingCall[] = [];
  private sender: ((item: OutgoingCall) => Promise<void>) | undefined;
  private inFlight = 0;
  /** Order keys of the calls in flight, with how many hold each. */
  private readonly inFlightKeys = new Map<string, number>();
  private readonly keysOf = new WeakMap<OutgoingCall, readonly string[]>();
  private pumping = false;
  private pumpAgain = false;
  /** Held calls dropped because `maxHeld` was exceeded (for logs and tests). */
  overflowed = 0;
  /** KILL and ACKNOWLEDGE calls dropped while subscribed because `maxQueued` was exceeded (for logs and tests). */
  shed = 0;

  /**
   * @param maxHeld calls held while disconnected
   * @param maxInFlight calls sent and not yet answered, at most (default 1: one at a time)
   * @param maxQueued calls waiting while subscribed beyond which the oldest KILL and ACKNOWLEDGE go
   */
  constructor(private readonly maxHeld: number, private readonly maxInFlight = 1, private readonly maxQueued = Number.POSITIVE_INFINITY) {}

  /** Calls waiting (held or queued), not counting those in flight. */
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
    else if (this.queue.length > this.maxQueued) this.shedRepeatable();
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
    this.dropUnheld();
  }

  private dropUnheld(): void {
    const kept: OutgoingCall[] = [];
    for (const item of this.queue) {
      if (HELD_TYPES.has(item.call.type)) kept.push(item);
      else item.dropped?.();
    }
    this.queue = kept;
    this.trimHeld();
  }

  /**
   * Takes back the queued calls `matches` picks, not yet sent, calling their `dropped` (a rescinded
   * offer's ACCEPT: its launches are reported dropped); how many. Calls in flight are not touched.
   */
  withdraw(matches: (call: Call) => boolean): number {
    const withdrawn = this.queue.filter((item) => matches(item.call));
    if (withdrawn.length === 0) return 0;
    this.queue = this.queue.filter((item) => !withdrawn.includes(item));
    for (const item of withdrawn) item.dropped?.();
    this.pump(); // calls that waited behind them may go now
    return withdrawn.length;
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

  /**
   * Drops the oldest waiting KILL and ACKNOWLEDGE calls until at most `maxQueued` wait, in one
   * pass over the queue (half the bound's worth at once, so that a flood does not pay a pass per
   * call). Nothing is dropped when no such call waits.
   */
  private shedRepeatable(): void {
    let excess = this.queue.length - Math.floor(this.maxQueued / 2);
    const kept: OutgoingCall[] = [];
    for (const item of this.queue) {
      if (excess > 0 && HELD_TYPES.has(item.call.type)) {
        excess--;
        this.shed++;
        continue;
      }
      kept.push(item);
    }
    this.queue = kept;
  }

  private orderKeys(item: OutgoingCall): readonly string[] {
    let keys = this.keysOf.get(item);
    if (keys === undefined) {
      keys = callOrderKeys(item.call);
      this.keysOf.set(item, keys);
    }
    return keys;
  }

  /**
   * Sends every queued call that may go now, in queue order: a call goes when a place is free and
   * no call in flight, nor an earlier call still waiting, shares a key with it.
   */
  private pump(): void {
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    try {
      do {
        this.pumpAgain = false;
        this.pumpOnce();
      } while (this.pumpAgain);
    } finally {
      this.pumping = false;
    }
  }

  private pumpOnce(): void {
    const sender = this.sender;
    if (sender === undefined || this.inFlight >= this.maxInFlight || this.queue.length === 0) return;
    const queue = this.queue;
    this.queue = [];
    const blocked = new Set(this.inFlightKeys.keys());
    const waiting: OutgoingCall[] = [];
    let next = 0;
    for (; next < queue.length && this.inFlight < this.maxInFlight && this.sender === sender; next++) {
      const item = queue[next] as OutgoingCall;
      const keys = this.orderKeys(item);
      const mustWait = keys.some((key) => blocked.has(key));
      for (const key of keys) blocked.add(key);
      if (mustWait) waiting.push(item);
      else this.start(item, keys, sender);
    }
    // Calls queued while sending (a sender that drops synchronously) go after the ones scanned.
    this.queue = [...waiting, ...queue.slice(next), ...this.queue];
    if (this.sender === undefined) this.dropUnheld(); // closed while sending: as close() would have
  }

  private start(item: OutgoingCall, keys: readonly string[], sender: (item: OutgoingCall) => Promise<void>): void {
    this.inFlight++;
    for (const key of keys) this.inFlightKeys.set(key, (this.inFlightKeys.get(key) ?? 0) + 1);
    void sender(item).then(() => {
      this.inFlight--;
      for (const key of keys) {
        const holders = (this.inFlightKeys.get(key) ?? 1) - 1;
        if (holders > 0) this.inFlightKeys.set(key, holders);
        else this.inFlightKeys.delete(key);
      }
      this.pump();
    });
  }
}
