/** One server-sent event: its `event:` name (`message` when none) and its `data:` lines joined. */
export interface SseMessage {
  readonly event: string;
  readonly data: string;
}

/**
 * An incremental parser of a `text/event-stream` body (the WHATWG rules the UI needs: `event:`,
 * `data:`, comments, CR / LF / CRLF line ends, a blank line dispatches, a block without data
 * dispatches nothing). Feed it text as it arrives, in any chunking; it returns the complete
 * events. The UI reads `/v2/events` with fetch rather than EventSource because Marathon names
 * every event after its type, and EventSource delivers named events only to listeners of each name.
 */
export class SseParser {
  private buffer = '';
  private event = '';
  private data: string[] = [];

  /** Parses `chunk` and returns the events it completed. */
  feed(chunk: string): SseMessage[] {
    this.buffer += chunk;
    const out: SseMessage[] = [];
    for (;;) {
      const m = /\r\n|\r|\n/.exec(this.buffer);
      // A lone CR at the end may be the first half of CRLF: wait for more.
      if (m === null || (m[0] === '\r' && m.index === this.buffer.length - 1)) break;
      const line = this.buffer.slice(0, m.index);
      this.buffer = this.buffer.slice(m.index + m[0].length);
      const message = this.line(line);
      if (message !== undefined) out.push(message);
    }
    return out;
  }

  private line(line: string): SseMessage | undefined {
    if (line === '') {
      const message = this.data.length > 0 ? { event: this.event === '' ? 'message' : this.event, data: this.data.join('\n') } : undefined;
      this.event = '';
      this.data = [];
      return message;
    }
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
    return undefined;
  }
}
