import type { ApiEvent, EventPublisher } from '../api-deps';
import { EventFrames } from './event-frames';
import { sseFrame } from './sse-frame';
import type { EventStream, StreamClient } from './event-stream';
import { streamMembershipEvent } from './stream-membership-event';
import { Subscriber } from './subscriber';
import type { SubscriberSink } from './subscriber-sink';
import type { WireEvent } from './wire-event';

/** Marathon's `--event_stream_max_outstanding_messages` default (fact 105). */
export const DEFAULT_EVENT_BUFFER_SIZE = 1024;

/**
 * Bytes held back for one slow subscriber before it is disconnected: pacer's own bound next to
 * Marathon's 1024 events, since one deployment event with full plans can be megabytes (issue 13).
 */
export const DEFAULT_EVENT_BUFFER_BYTES = 16 * 1024 * 1024;

/**
 * Bytes of frames a group collects before they are written within the same turn: a burst of
 * events is written in chunks of about this size, and no more than this waits unwritten per group.
 */
export const FLUSH_BYTES = 64 * 1024;

/**
 * How long a slow client that was disconnected (its stream ended between two frames) may take to
 * read the frames its socket already holds before its connection is dropped: pacer's own bound, so
 * that a client that never reads again does not keep its connection and those bytes forever.
 */
export const DEFAULT_END_GRACE_MS = 30_000;

/** Marathon's stream sends a heartbeat about every 10 s (fact 102). */
export const DEFAULT_KEEP_ALIVE_MS = 10_000;

/**
 * `/v2/events` clients attached at once, at most (docs/limits.md): one more is refused with 429
 * rather than attached. Pacer's own bound (Marathon has none but its server's): an idle client
 * costs about 130 KB of the process (3,000 took about 390 MB in an outside trial), so 4,096 stay
 * within about half a GiB, four times bench:api's fan-out to 1,000.
 */
export const MAX_EVENT_SUBSCRIBERS = 4096;

export interface EventStreamHubOptions {
  /** Subscribes to the core's bus (`scheduler.subscribe`); returns the unsubscribe function. */
  readonly subscribe: (listener: (event: WireEvent) => void) => () => void;
  /** Timestamps of the attach/detach events. */
  readonly clock: { nowMs(): number };
  /** Frames held back for a slow client before it is disconnected; default 1024 (fact 105). */
  readonly bufferSize?: number;
  /** Bytes held back for a slow client before it is disconnected; default {@link DEFAULT_EVENT_BUFFER_BYTES}. */
  readonly bufferBytes?: number;
  /**
   * How long a disconnected slow client may take to read what its socket holds before its
   * connection is dropped; default {@link DEFAULT_END_GRACE_MS}.
   */
  readonly endGraceMs?: number;
  /** Keep-alive period; default 10 s (fact 102); 0 turns keep-alives off. */
  readonly keepAliveMs?: number;
  /** Clients attached at most; default {@link MAX_EVENT_SUBSCRIBERS}. */
  readonly maxSubscribers?: number;
  /**
   * When the frames of the events published go to the sockets: `tick` (default) collects them and
   * writes each subscriber's frames as one chunk once the current turn of the event loop is over
   * (`setImmediate`), so a burst of events costs one write per subscriber instead of one per
   * event and subscriber; `event` writes them at the end of each publish (tests that read the
   * sinks at once).
   */
  readonly flush?: 'tick' | 'event';
}

/**
 * Subscribers that receive the same frames: the same event-type filter and plan format, and no
 * per-subscriber view (a subscriber under authorization is a group of its own). The frames of a
 * turn are collected once per group and joined into one Buffer that every member is offered.
 */
class SubscriberGroup {
  readonly members: Subscriber[] = [];
  pending: Buffer[] = [];
  pendingBytes = 0;

  constructor(readonly key: string, private readonly first: Subscriber) {}

  wants(eventType: string): boolean {
    return this.first.wants(eventType);
  }

  get planFormat(): Subscriber['planFormat'] {
    return this.first.planFormat;
  }

  get view(): Subscriber['view'] {
    return this.first.view;
  }

  add(frame: Buffer): void {
    this.pending.push(frame);
    this.pendingBytes += frame.length;
  }

  /** The frames collected since the last take, as one Buffer (the frame itself when one), and how many. */
  take(): { readonly chunk: Buffer; readonly frames: number } | undefined {
    const pending = this.pending;
    if (pending.length === 0) return undefined;
    this.pending = [];
    const bytes = this.pendingBytes;
    this.pendingBytes = 0;
    return { chunk: pending.length === 1 ? pending[0] : Buffer.concat(pending, bytes), frames: pending.length };
  }
}

/**
 * The one fan-out of events to `/v2/events` clients. It listens once to the core's bus and is the
 * API's {@link EventPublisher}, so core and API events reach every subscriber in the order they
 * happened. Each event is serialized at most once per distinct rendering (the full and the light
 * plan of deployment events, {@link EventFrames}), and only if some subscriber wants it. Clients
 * with the same filter and plan format form a {@link SubscriberGroup}: the frames of one turn of
 * the event loop are collected once per group and joined into one Buffer, written to every
 * member's socket (one write per client per turn, not per event: issue 13's fan-out of ≥ 1M
 * deliveries/s). Memory stays bounded: a joined chunk is shared by the group's sockets, and each
 * client's backlog is bounded in frames and bytes ({@link Subscriber}). An event published while
 * a fan-out is under way (the detach of a slow client) waits until that fan-out ends, so all
 * clients see one order.
 */
export class EventStreamHub implements EventStream, EventPublisher {
  private subscribers: readonly Subscriber[] = [];
  private readonly groups = new Map<string, SubscriberGroup>();
  private readonly groupOf = new Map<Subscriber, SubscriberGroup>();
  private flushScheduled: NodeJS.Immediate | undefined;
  private readonly flushMode: 'tick' | 'event';
  private viewGroups = 0;
  private flushing = false;
  private readonly pending: WireEvent[] = [];
  private dispatching = false;
  private closed = false;
  private keepAliveTimer: NodeJS.Timeout | undefined;
  private readonly unsubscribe: () => void;
  private readonly clock: { nowMs(): number };
  private readonly bufferSize: number;
  private readonly bufferBytes: number;
  private readonly endGraceMs: number;
  /** Disconnected slow clients whose streams were ended and are still open, each with the timer that drops it. */
  private readonly ending = new Map<Subscriber, NodeJS.Timeout>();
  private readonly keepAliveMs: number;
  private readonly maxSubscribers: number;

  constructor(opts: EventStreamHubOptions) {
    this.clock = opts.clock;
    this.bufferSize = opts.bufferSize ?? DEFAULT_EVENT_BUFFER_SIZE;
    this.bufferBytes = opts.bufferBytes ?? DEFAULT_EVENT_BUFFER_BYTES;
    this.endGraceMs = opts.endGraceMs ?? DEFAULT_END_GRACE_MS;
    this.keepAliveMs = opts.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS;
    this.maxSubscribers = opts.maxSubscribers ?? MAX_EVENT_SUBSCRIBERS;
    this.flushMode = opts.flush ?? 'tick';
    this.unsubscribe = opts.subscribe((event) => this.dispatch(event));
  }

  /** Number of disconnected slow clients whose ended streams are still open (read out, or dropped after the grace). */
  get endingCount(): number {
    return this.ending.size;
  }

  /** Number of attached clients. */
  get subscriberCount(): number {
    return this.subscribers.length;
  }

  /** Whether as many clients are attached as the bound allows ({@link MAX_EVENT_SUBSCRIBERS}): another is refused. */
  isFull(): boolean {
    return this.subscribers.length >= this.maxSubscribers;
  }

  /** The most clients attached at once. */
  get subscriberLimit(): number {
    return this.maxSubscribers;
  }

  /** Publishes an API-originated event (api_post_event, pod_*_event, …) to the stream. */
  publish(event: ApiEvent): void {
    this.dispatch(event);
  }

  /**
   * Attaches a client: from now on it receives every event its filter lets through, starting with
   * its own `event_stream_attached`, which every other client receives too (fact 103). When the
   * sink closes (client gone) it is detached and `event_stream_detached` goes to the others.
   * After {@link close}, the sink is ended at once.
   */
  attach(sink: SubscriberSink, client: StreamClient): void {
    if (this.closed) return sink.end();
    const subscriber = new Subscriber(sink, { ...client, bufferSize: this.bufferSize, bufferBytes: this.bufferBytes });
    const gone = (): void => this.gone(subscriber);
    sink.on('close', gone);
    sink.on('error', gone);
    // Frames collected before it attached are not its own: they go out first.
    this.flush();
    this.subscribers = [...this.subscribers, subscriber];
    const key = subscriber.view !== undefined ? `view ${++this.viewGroups}` : `${subscriber.planFormat} ${JSON.stringify(client.eventTypes.length === 0 ? null : [...new Set(client.eventTypes)].sort())}`;
    let group = this.groups.get(key);
    if (group === undefined) {
      group = new SubscriberGroup(key, subscriber);
      this.groups.set(key, group);
    }
    group.members.push(subscriber);
    this.groupOf.set(subscriber, group);
    this.startKeepAlive();
    this.dispatch(streamMembershipEvent('event_stream_attached', client.remoteAddress, this.clock.nowMs()));
  }

  /** Writes a keep-alive to every idle client (the timer calls this; not an event, never queued). */
  keepAlive(): void {
    this.flush();
    for (const subscriber of this.subscribers) subscriber.keepAlive();
  }

  /** Ends every stream and stops listening to the core (server shutdown). Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe();
    this.stopKeepAlive();
    this.flush();
    const subscribers = this.subscribers;
    this.subscribers = [];
    for (const subscriber of subscribers) subscriber.end();
    // Disconnected slow clients still reading their tail would keep the server from closing.
    for (const subscriber of [...this.ending.keys()]) this.gone(subscriber);
  }

  private dispatch(event: WireEvent): void {
    if (this.closed) return;
    if (this.dispatching) {
      this.pending.push(event);
      return;
    }
    this.dispatching = true;
    try {
      this.fanOut(event);
      for (let i = 0; i < this.pending.length; i++) this.fanOut(this.pending[i]);
    } finally {
      this.pending.length = 0;
      this.dispatching = false;
    }
    if (this.flushMode === 'event') this.flush();
    else this.flushScheduled ??= setImmediate(() => this.flush());
  }

  /** Collects the event's frame for every group that wants it (one serialization per rendering). */
  private fanOut(event: WireEvent): void {
    if (this.groups.size === 0) return;
    const frames = new EventFrames(event);
    for (const group of this.groups.values()) {
      if (!group.wants(event.eventType)) continue;
      // Under authorization: skipped, or a trimmed copy serialized for this subscriber alone.
      const view = group.view;
      const shown = view === undefined ? event : view(event);
      if (shown === undefined) continue;
      group.add(shown === event ? frames.frame(group.planFormat) : sseFrame(shown));
      // A long burst in one turn is written as it grows: what waits unwritten stays bounded.
      if (group.pendingBytes >= FLUSH_BYTES) this.flushGroup(group);
    }
  }

  /**
   * Writes what every group collected: one chunk per group, offered to each member (the same
   * Buffer to every socket). A member that cannot keep up is dropped, and the others hear of it
   * in the same flush.
   */
  flush(): void {
    if (this.flushScheduled !== undefined) {
      clearImmediate(this.flushScheduled);
      this.flushScheduled = undefined;
    }
    if (this.flushing) return;
    this.flushing = true;
    try {
      for (let more = true; more;) {
        more = false;
        for (const group of [...this.groups.values()]) if (this.flushGroup(group)) more = true;
      }
    } finally {
      this.flushing = false;
    }
  }

  /** Offers one group's collected frames to its members; true when one was dropped (its detach event waits). */
  private flushGroup(group: SubscriberGroup): boolean {
    const taken = group.take();
    if (taken === undefined) return false;
    let dropped = false;
    for (const subscriber of [...group.members]) {
      if (!subscriber.offer(taken.chunk, taken.frames)) {
        this.drop(subscriber);
        dropped = true;
      }
    }
    return dropped;
  }

  /**
   * A client that fell too far behind, or whose sink failed (fact 105: disconnected, never
   * skipped): its stream is ended between two frames (Subscriber.disconnect), and the others hear
   * of it. The frames its socket already holds stay readable; a client that has not read them
   * (its connection not closed) within `endGraceMs` is dropped then.
   */
  private drop(subscriber: Subscriber): void {
    if (subscriber.disconnect()) {
      const timer = setTimeout(() => this.gone(subscriber), this.endGraceMs);
      timer.unref();
      this.ending.set(subscriber, timer);
    }
    this.detach(subscriber);
  }

  /** A client whose connection closed or failed, or that is to be dropped at once: detached, its connection destroyed. */
  private gone(subscriber: Subscriber): void {
    const timer = this.ending.get(subscriber);
    if (timer !== undefined) {
      clearTimeout(timer);
      this.ending.delete(subscriber);
    }
    subscriber.destroy();
    this.detach(subscriber);
  }

  private detach(subscriber: Subscriber): void {
    if (!this.subscribers.includes(subscriber)) return;
    this.subscribers = this.subscribers.filter((s) => s !== subscriber);
    const group = this.groupOf.get(subscriber);
    this.groupOf.delete(subscriber);
    if (group !== undefined) {
      group.members.splice(group.members.indexOf(subscriber), 1);
      if (group.members.length === 0) this.groups.delete(group.key);
    }
    if (this.subscribers.length === 0) this.stopKeepAlive();
    this.dispatch(streamMembershipEvent('event_stream_detached', subscriber.remoteAddress, this.clock.nowMs()));
  }

  private startKeepAlive(): void {
    if (this.keepAliveTimer !== undefined || this.keepAliveMs <= 0) return;
    this.keepAliveTimer = setInterval(() => this.keepAlive(), this.keepAliveMs);
    this.keepAliveTimer.unref();
  }

  private stopKeepAlive(): void {
    if (this.keepAliveTimer === undefined) return;
    clearInterval(this.keepAliveTimer);
    this.keepAliveTimer = undefined;
  }
}
