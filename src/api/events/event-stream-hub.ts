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

/** Marathon's stream sends a heartbeat about every 10 s (fact 102). */
export const DEFAULT_KEEP_ALIVE_MS = 10_000;

export interface EventStreamHubOptions {
  /** Subscribes to the core's bus (`scheduler.subscribe`); returns the unsubscribe function. */
  readonly subscribe: (listener: (event: WireEvent) => void) => () => void;
  /** Timestamps of the attach/detach events. */
  readonly clock: { nowMs(): number };
  /** Frames held back for a slow client before it is disconnected; default 1024 (fact 105). */
  readonly bufferSize?: number;
  /** Bytes held back for a slow client before it is disconnected; default {@link DEFAULT_EVENT_BUFFER_BYTES}. */
  readonly bufferBytes?: number;
  /** Keep-alive period; default 10 s (fact 102); 0 turns keep-alives off. */
  readonly keepAliveMs?: number;
}

/**
 * The one fan-out of events to `/v2/events` clients. It listens once to the core's bus and is the
 * API's {@link EventPublisher}, so core and API events reach every subscriber in the order they
 * happened. Each event is serialized at most once per distinct rendering (the full and the light
 * plan of deployment events, {@link EventFrames}), and only if some subscriber wants it; the same
 * frame Buffer goes to every socket. An event published while a fan-out is under way (the
 * detach of a slow client) waits until that fan-out ends, so all clients see one order.
 */
export class EventStreamHub implements EventStream, EventPublisher {
  private subscribers: readonly Subscriber[] = [];
  private readonly pending: WireEvent[] = [];
  private dispatching = false;
  private closed = false;
  private keepAliveTimer: NodeJS.Timeout | undefined;
  private readonly unsubscribe: () => void;
  private readonly clock: { nowMs(): number };
  private readonly bufferSize: number;
  private readonly bufferBytes: number;
  private readonly keepAliveMs: number;

  constructor(opts: EventStreamHubOptions) {
    this.clock = opts.clock;
    this.bufferSize = opts.bufferSize ?? DEFAULT_EVENT_BUFFER_SIZE;
    this.bufferBytes = opts.bufferBytes ?? DEFAULT_EVENT_BUFFER_BYTES;
    this.keepAliveMs = opts.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS;
    this.unsubscribe = opts.subscribe((event) => this.dispatch(event));
  }

  /** Number of attached clients. */
  get subscriberCount(): number {
    return this.subscribers.length;
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
    const gone = (): void => this.drop(subscriber);
    sink.on('close', gone);
    sink.on('error', gone);
    this.subscribers = [...this.subscribers, subscriber];
    this.startKeepAlive();
    this.dispatch(streamMembershipEvent('event_stream_attached', client.remoteAddress, this.clock.nowMs()));
  }

  /** Writes a keep-alive to every idle client (the timer calls this; not an event, never queued). */
  keepAlive(): void {
    for (const subscriber of this.subscribers) subscriber.keepAlive();
  }

  /** Ends every stream and stops listening to the core (server shutdown). Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe();
    this.stopKeepAlive();
    const subscribers = this.subscribers;
    this.subscribers = [];
    for (const subscriber of subscribers) subscriber.end();
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
  }

  private fanOut(event: WireEvent): void {
    const subscribers = this.subscribers;
    if (subscribers.length === 0) return;
    const frames = new EventFrames(event);
    for (let i = 0; i < subscribers.length; i++) {
      const subscriber = subscribers[i];
      if (!subscriber.wants(event.eventType)) continue;
      // Under authorization: skipped, or a trimmed copy serialized for this subscriber alone.
      const shown = subscriber.view === undefined ? event : subscriber.view(event);
      if (shown === undefined) continue;
      const frame = shown === event ? frames.frame(subscriber.planFormat) : sseFrame(shown);
      if (!subscriber.offer(frame)) this.drop(subscriber);
    }
  }

  /**
   * A client that left, failed, or fell too far behind (fact 105: disconnected, never skipped):
   * its connection is dropped and the others hear of it.
   */
  private drop(subscriber: Subscriber): void {
    subscriber.disconnect();
    this.detach(subscriber);
  }

  private detach(subscriber: Subscriber): void {
    if (!this.subscribers.includes(subscriber)) return;
    this.subscribers = this.subscribers.filter((s) => s !== subscriber);
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
