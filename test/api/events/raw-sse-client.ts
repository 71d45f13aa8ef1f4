import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { parseSse, type ParsedSse } from './sse-parse';

/**
 * A plain HTTP client of `/v2/events` that keeps every byte it reads, to check the wire itself
 * (headers, frames, keep-alives). `pause()` stops reading, as a slow consumer would.
 */
export class RawSseClient {
  private body = '';
  private ended = false;

  private constructor(
    private readonly request: http.ClientRequest,
    private readonly response: IncomingMessage,
  ) {
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => (this.body += chunk));
    response.on('close', () => (this.ended = true));
    // A stream cut by the server (slow consumer, shutdown) is an expected end here, not a failure.
    response.on('error', () => (this.ended = true));
  }

  /** Opens `path` (with its query) and resolves once the response headers arrived. */
  static open(baseUrl: string, path = '/v2/events', headers: http.OutgoingHttpHeaders = { Accept: 'text/event-stream' }): Promise<RawSseClient> {
    return new Promise((resolve, reject) => {
      const request = http.get(`${baseUrl}${path}`, { headers, agent: false }, (response) => resolve(new RawSseClient(request, response)));
      request.on('error', reject);
    });
  }

  get statusCode(): number | undefined {
    return this.response.statusCode;
  }

  get headers(): IncomingHttpHeaders {
    return this.response.headers;
  }

  /** Everything read so far. */
  get text(): string {
    return this.body;
  }

  /** Whether the server ended or dropped the stream. */
  get closed(): boolean {
    return this.ended;
  }

  parsed(): ParsedSse {
    return parseSse(this.body);
  }

  pause(): void {
    this.response.pause();
  }

  resume(): void {
    this.response.resume();
  }

  /** Disconnects. */
  close(): void {
    this.request.destroy();
  }
}
