import type { ApiEvent, EventPublisher } from '../api/api-deps';
import { EventStreamHub, MAX_EVENT_SUBSCRIBERS } from '../api/events/event-stream-hub';
import type { EventStream, StreamClient } from '../api/events/event-stream';
import type { SubscriberSink } from '../api/events/subscriber-sink';
import type { Clock } from '../scheduler/ports/clock';
import type { LeaderDuties, TermListener } from './leadership';

/**
 * `/v2/events` of a pacer that may or may not lead: one {@link EventStreamHub} per term, over
 * that term's core. When the term ends its clients' streams end (Marathon's event stream stops
 * when leadership is lost, `HttpEventStreamActor.scala`), so they reconnect — to a standby, which
 * proxies them to the new leader. Between terms nothing is served here (standbys proxy
 * `/v2/events` before it reaches this; a late client's stream is ended at once).
 */
export class TermEventStream implements EventStream, EventPublisher, TermListener {
  private hub: EventStreamHub | undefined;
  private closed = false;

  constructor(private readonly clock: Clock) {}

  begun(duties: LeaderDuties): void {
    if (this.closed) return;
    this.hub?.close();
    this.hub = new EventStreamHub({ subscribe: (listener) => duties.scheduler.subscribe(listener), clock: this.clock });
  }

  ended(): void {
    const hub = this.hub;
    this.hub = undefined;
    hub?.close();
  }

  /** Clients attached now (0 between terms). */
  get subscriberCount(): number {
    return this.hub?.subscriberCount ?? 0;
  }

  /** The term's hub is full (its bound); false between terms (a late client's stream is ended at once). */
  isFull(): boolean {
    return this.hub?.isFull() === true;
  }

  /** The bound of the hubs this stream makes. */
  get subscriberLimit(): number {
    return MAX_EVENT_SUBSCRIBERS;
  }

  attach(sink: SubscriberSink, client: StreamClient): void {
    if (this.hub === undefined) return sink.end();
    this.hub.attach(sink, client);
  }

  publish(event: ApiEvent): void {
    this.hub?.publish(event);
  }

  close(): void {
    this.closed = true;
    this.ended();
  }
}
