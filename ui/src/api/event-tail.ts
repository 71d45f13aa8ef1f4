import { apiUrl } from './api-url';
import { useEffect, useState } from 'preact/hooks';
import { SseParser } from '../model/sse-parser';
import { failureOf } from './client';
import type { MarathonEvent } from './wire';

/** Where the tail stands: connecting, streaming, or waiting to reconnect after `error`. */
export type TailState =
  | { readonly kind: 'connecting' }
  | { readonly kind: 'connected' }
  | { readonly kind: 'disconnected'; readonly error: string };

/** Events kept in memory (oldest dropped first). */
export const TAIL_MAX = 500;
const RECONNECT_MS = 2000;

/** The live tail: the latest events (newest first, at most {@link TAIL_MAX}), the stream's state, and clear(). */
export interface Tail {
  readonly events: readonly TailEntry[];
  readonly state: TailState;
  clear(): void;
}

/** One received event with a sequence number (stable keys for the list). */
export interface TailEntry {
  readonly seq: number;
  readonly event: MarathonEvent;
}

/**
 * Subscribes to `GET /v2/events` (Accept: text/event-stream) while `enabled`, parses the frames
 * ({@link SseParser}) and keeps the latest events; reconnects after a failure or a server-side
 * detach (`event_stream_detached`). Every event of every type is received; the page filters.
 */
export function useEventTail(enabled: boolean): Tail {
  const [events, setEvents] = useState<readonly TailEntry[]>([]);
  const [state, setState] = useState<TailState>({ kind: 'connecting' });
  useEffect(() => {
    if (!enabled) return undefined;
    const abort = new AbortController();
    let seq = 0;
    const push = (event: MarathonEvent): void => {
      seq++;
      const entry = { seq, event };
      setEvents((list) => [entry, ...list].slice(0, TAIL_MAX));
    };
    const loop = async (): Promise<void> => {
      while (!abort.signal.aborted) {
        setState({ kind: 'connecting' });
        const error = await stream(abort.signal, () => setState({ kind: 'connected' }), push);
        if (abort.signal.aborted) return;
        setState({ kind: 'disconnected', error });
        await new Promise((resolve) => setTimeout(resolve, RECONNECT_MS));
      }
    };
    void loop();
    return () => abort.abort();
  }, [enabled]);
  return { events, state, clear: () => setEvents([]) };
}

/** One connection: resolves with why it ended. */
async function stream(signal: AbortSignal, onOpen: () => void, push: (e: MarathonEvent) => void): Promise<string> {
  let res: Response;
  try {
    res = await fetch(apiUrl('/v2/events'), { headers: { Accept: 'text/event-stream' }, signal });
  } catch (err) {
    return `cannot connect: ${(err as Error).message}`;
  }
  if (!res.ok || res.body === null) {
    const text = await res.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    return failureOf(res.status, body, text, 'GET /v2/events').message;
  }
  onOpen();
  const parser = new SseParser();
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return 'the stream ended';
      for (const m of parser.feed(value)) {
        try {
          push(JSON.parse(m.data) as MarathonEvent);
        } catch {
          push({ eventType: m.event, timestamp: new Date().toISOString(), data: m.data });
        }
      }
    }
  } catch (err) {
    return signal.aborted ? 'closed' : `the stream broke: ${(err as Error).message}`;
  }
}
