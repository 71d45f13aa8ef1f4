import type { SubscriberSink } from './subscriber-sink';
import type { WireEvent } from './wire-event';
import type { PlanFormat } from './wire-event-json';

/** One client asking to attach to `/v2/events`. */
export interface StreamClient {
  /** The client's IP address, as `event_stream_attached`/`_detached` report it. */
  readonly remoteAddress: string;
  /** The `event_type` filter; empty = every type. */
  readonly eventTypes: readonly string[];
  /** `plan-format`: `light` leaves the roots out of deployment plans; default `full`. */
  readonly planFormat?: PlanFormat;
  /**
   * What this client may see of an event (`--authorization_file`, src/api/authz/event-view.ts):
   * the event, a trimmed copy in its final wire shape, or undefined to skip it. Absent = all.
   */
  readonly view?: (event: WireEvent) => WireEvent | undefined;
}

/**
 * The SSE fan-out behind `/v2/events`, as the server sees it. `close` ends every stream (server
 * shutdown). `attach` is optional only so that a server built without an event stream (API tests
 * that pass `{ close() {} }`) still builds: without it `/v2/events` is not served.
 * `EventStreamHub` is the implementation.
 */
export interface EventStream {
  close(): void;
  attach?(sink: SubscriberSink, client: StreamClient): void;
  /** Whether the stream holds as many clients as it may (event-stream-hub.ts, MAX_EVENT_SUBSCRIBERS); absent = never. */
  isFull?(): boolean;
  /** That bound, for the refusal's message. */
  readonly subscriberLimit?: number;
}
