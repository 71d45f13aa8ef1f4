import { isPacerEventType } from '../../scheduler/model/events';
import { KEEP_ALIVE_FRAME } from './sse-frame';
import type { SubscriberSink } from './subscriber-sink';
import type { WireEvent } from './wire-event';
import type { PlanFormat } from './wire-event-json';

/** Who a subscriber is and what it asked for. */
export interface SubscriberOptions {
  /** The client's IP address (`remoteAddress` of the attach/detach events, fact 103). */
  readonly remoteAddress: string;
  /** The `event_type` query values; empty = every type (fact 104). Exact names, no splitting. */
  readonly eventTypes: readonly string[];
  /** `plan-format`: `full` (default) or `light` deployment plans. */
  readonly planFormat?: PlanFormat;
  /** What it may see of an event (authorization); absent = every event as it is. */
  readonly view?: (event: WireEvent) => WireEvent | undefined;
  /** Most frames held back for a slow receiver before it is disconnected (fact 105). */
  readonly bufferSize: number;
  /** Most bytes held back for a slow receiver before it is disconnected (pacer's own bound). */
  readonly bufferBytes: number;
}

/**
 * One attached client of `/v2/events`: its event-type filter, its plan format and its bounded
 * backlog. Frames are written straight to the sink while it accepts them; once `write` returns
 * false they wait in a queue, flushed in order on `drain`. A subscriber never skips a frame: when
 * the queue would exceed `bufferSize` frames (Marathon's `--event_stream_max_outstanding_messages`,
 * 1024) or `bufferBytes` bytes (frames of deployment events with full plans can be megabytes),
 * {@link offer} says so and the hub disconnects it (fact 105: disconnect, never drop silently),
 * ending the stream between two frames ({@link disconnect}).
 */
export class Subscriber {
  readonly remoteAddress: string;
  readonly planFormat: PlanFormat;
  /** What it may see of an event: the event, a trimmed copy (already in wire shape), or undefined. */
  readonly view: ((event: WireEvent) => WireEvent | undefined) | undefined;
  private readonly filter: ReadonlySet<string> | undefined;
  private readonly bufferSize: number;
  private readonly bufferBytes: number;
  private queue: Buffer[] = [];
  /** Frames in each queued chunk. */
  private queueFrames: number[] = [];
  private queuedFrames = 0;
  private queuedBytes = 0;
  private blocked = false;
  private broken = false;
  private closed = false;
  private destroyed = false;

  constructor(
    private readonly sink: SubscriberSink,
    opts: SubscriberOptions,
  ) {
    this.remoteAddress = opts.remoteAddress;
    this.filter = opts.eventTypes.length === 0 ? undefined : new Set(opts.eventTypes);
    this.planFormat = opts.planFormat ?? 'full';
    this.view = opts.view;
    this.bufferSize = opts.bufferSize;
    this.bufferBytes = opts.bufferBytes;
    sink.on('drain', () => this.flush());
  }

  /**
   * Whether this subscriber's filter lets `eventType` through (unknown types match nothing).
   * pacer's own event types (`pacer_…`) go only to subscribers that name them: a Marathon client
   * reading every type may refuse one it does not know (marathon-python's `EventFactory.process`
   * raises `MarathonError('Unknown event_type…')`), and Marathon's filter can only include types.
   */
  wants(eventType: string): boolean {
    return this.filter === undefined ? !isPacerEventType(eventType) : this.filter.has(eventType);
  }

  /**
   * Writes `chunk` (`frames` whole frames, one or several joined) now, or queues it behind earlier
   * chunks while the sink applies backpressure.
   * Returns false when the subscriber can no longer keep up (backlog above the bound, or a sink
   * that threw): the caller must disconnect it.
   */
  offer(chunk: Buffer, frames = 1): boolean {
    if (this.closed) return true;
    if (this.blocked) {
      this.queue.push(chunk);
      this.queueFrames.push(frames);
      this.queuedFrames += frames;
      this.queuedBytes += chunk.length;
    } else this.write(chunk);
    return !this.broken && this.queuedFrames <= this.bufferSize && this.queuedBytes <= this.bufferBytes;
  }

  /** Writes the keep-alive to an idle connection; skipped while frames wait (they keep it alive). Never queued. */
  keepAlive(): void {
    if (!this.closed && !this.blocked) this.write(KEEP_ALIVE_FRAME);
  }

  /** Frames waiting for the sink to drain. */
  get backlog(): number {
    return this.queuedFrames;
  }

  /** Bytes of the frames waiting for the sink to drain. */
  get backlogBytes(): number {
    return this.queuedBytes;
  }

  /**
   * Disconnects a subscriber that fell too far behind (fact 105), between two frames: the frames
   * still queued here are discarded whole, and the response is ended, so the client reads every
   * frame the sink already took, complete, and then the end of the stream; never a frame cut in
   * two (the sink only ever took whole frames). A sink that threw is destroyed instead. Whether
   * the receiver ever reads that tail is bounded by the hub ({@link destroy} after a grace
   * period). Idempotent; true when the response was ended gracefully.
   */
  disconnect(): boolean {
    if (this.closed) return false;
    this.closed = true;
    this.clearQueue();
    if (this.broken) {
      this.destroyed = true;
      this.sink.destroy();
      return false;
    }
    this.sink.end();
    return true;
  }

  /**
   * Drops the connection at once, discarding what the receiver has not taken (a client gone, a
   * sink that failed, a disconnected receiver that never read its tail, shutdown with a backlog).
   * Idempotent, also after {@link disconnect}.
   */
  destroy(): void {
    if (this.destroyed) return;
    this.closed = true;
    this.destroyed = true;
    this.clearQueue();
    this.sink.destroy();
  }

  /**
   * Ends the stream (server shutdown): gracefully when nothing is held back, otherwise by dropping
   * the connection, since a receiver that does not read would keep the server from closing.
   */
  end(): void {
    if (this.closed) return;
    if (this.blocked || this.queue.length > 0) return this.destroy();
    this.closed = true;
    this.sink.end();
  }

  private clearQueue(): void {
    this.queue = [];
    this.queueFrames = [];
    this.queuedFrames = 0;
    this.queuedBytes = 0;
  }

  private write(frame: Buffer): void {
    try {
      if (!this.sink.write(frame)) this.blocked = true;
    } catch {
      this.broken = true;
    }
  }

  private flush(): void {
    this.blocked = false;
    if (this.closed) return;
    let written = 0;
    while (written < this.queue.length && !this.blocked && !this.broken) {
      const chunk = this.queue[written];
      this.queuedBytes -= chunk.length;
      this.queuedFrames -= this.queueFrames[written++];
      this.write(chunk);
    }
    this.queue.splice(0, written);
    this.queueFrames.splice(0, written);
  }
}
