/**
 * Where one subscriber's frames go: the raw HTTP response in production (node's ServerResponse
 * fits), a fake in tests. The contract is node's writable one: `write` returns false when the
 * receiver applies backpressure, and `drain` says it accepts more; `close` says the connection is
 * gone (client disconnect, or after `end`/`destroy`).
 */
export interface SubscriberSink {
  write(chunk: Buffer): boolean;
  /** Finish the response gracefully (what is already written still reaches the client). */
  end(): void;
  /** Drop the connection at once, discarding what the receiver has not taken. */
  destroy(): void;
  on(event: 'drain' | 'close' | 'error', listener: () => void): unknown;
}
