/** One dispatched SSE event: its `event:` name and its `data:` parsed as JSON. */
export interface SseEvent {
  readonly event: string;
  readonly data: Readonly<Record<string, unknown>>;
}

/** What a stream's bytes so far amount to. */
export interface ParsedSse {
  readonly events: SseEvent[];
  /** Blank lines outside any frame: the keep-alives. */
  readonly keepAlives: number;
}

/**
 * Parses SSE text as pacer writes it (CRLF line ends, `event:` then one `data:` line, blank line).
 * A trailing incomplete line is left out; a blank line with no field before it is a keep-alive.
 */
export function parseSse(text: string): ParsedSse {
  const lines = text.split('\r\n').slice(0, -1);
  const events: SseEvent[] = [];
  let keepAlives = 0;
  let event: string | undefined;
  let data: string | undefined;
  for (const line of lines) {
    if (line.startsWith('event: ')) event = line.slice('event: '.length);
    else if (line.startsWith('data: ')) data = line.slice('data: '.length);
    else if (line !== '') throw new Error(`unexpected SSE line: ${JSON.stringify(line)}`);
    else if (event === undefined && data === undefined) keepAlives++;
    else {
      events.push({ event: event ?? 'message', data: JSON.parse(data ?? 'null') as Record<string, unknown> });
      event = undefined;
      data = undefined;
    }
  }
  return { events, keepAlives };
}

/** The event names of a parse, in order. */
export function typesOf(events: readonly SseEvent[]): string[] {
  return events.map((e) => e.event);
}
