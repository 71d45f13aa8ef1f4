import { EventStreamHub, type EventStreamHubOptions } from '../../../src/api/events/event-stream-hub';
import type { WireEvent } from '../../../src/api/events/wire-event';
import { FakeSink } from './fake-sink';

/** A stand-in for the core's synchronous bus. */
export class FakeBus {
  private readonly listeners = new Set<(event: WireEvent) => void>();

  readonly subscribe = (listener: (event: WireEvent) => void): (() => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };

  emit(event: WireEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  get listenerCount(): number {
    return this.listeners.size;
  }
}

/** 2026-01-01T00:00:00.000Z. */
export const HUB_START_MS = Date.UTC(2026, 0, 1);

export interface HubFixture {
  readonly hub: EventStreamHub;
  readonly bus: FakeBus;
  /** The hub's clock; move it by assigning. */
  readonly clock: { nowMs(): number; now: number };
  /** Attaches a fake client. */
  connect(client?: { remoteAddress?: string; eventTypes?: readonly string[] }): FakeSink;
}

/** A hub over a fake bus and a manual clock; keep-alives off unless asked for. */
export function makeHub(opts: Partial<Omit<EventStreamHubOptions, 'subscribe' | 'clock'>> = {}): HubFixture {
  const bus = new FakeBus();
  const clock = {
    now: HUB_START_MS,
    nowMs(): number {
      return this.now;
    },
  };
  const hub = new EventStreamHub({ subscribe: bus.subscribe, clock, keepAliveMs: 0, flush: 'event', ...opts });
  const connect: HubFixture['connect'] = (client = {}) => {
    const sink = new FakeSink();
    hub.attach(sink, { remoteAddress: client.remoteAddress ?? '10.0.0.1', eventTypes: client.eventTypes ?? [] });
    return sink;
  };
  return { hub, bus, clock, connect };
}

/** A core-like event with a sequence number. */
export function coreEvent(seq: number, eventType = 'status_update_event'): WireEvent & { seq: number; timestamp: string } {
  return { eventType, seq, timestamp: '2026-01-01T00:00:00.000Z' };
}

/** An API event (api_post_event) with a sequence number. */
export function apiEvent(seq: number): { eventType: string; timestamp: string; seq: number } {
  return { eventType: 'api_post_event', timestamp: '2026-01-01T00:00:00.000Z', seq };
}
