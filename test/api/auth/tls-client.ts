import * as http from 'node:http';
import * as https from 'node:https';

/** One answer read whole. */
export interface Answer {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

/**
 * One request to `url` over HTTP or HTTPS (trusting `ca` only: the test's own certificate, no
 * verification switched off), bounded by `timeoutMs`.
 */
export function request(url: string, opts: { ca?: Buffer; method?: string; headers?: http.OutgoingHttpHeaders; body?: string; timeoutMs?: number } = {}): Promise<Answer> {
  const target = new URL(url);
  const transport = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = transport.request(target, {
      method: opts.method ?? 'GET', headers: opts.headers, agent: false,
      ...(target.protocol === 'https:' ? { ca: opts.ca } : {}),
    }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on('error', reject);
    });
    req.setTimeout(opts.timeoutMs ?? 30_000, () => req.destroy(new Error(`no answer from ${url}`)));
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** An open event stream: what was read so far; `close()` disconnects. */
export interface OpenStream {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  text(): string;
  close(): void;
}

/** Opens `/v2/events` at `baseUrl` (HTTP or HTTPS with `ca`); resolves once the headers arrived. */
export function openStream(baseUrl: string, opts: { ca?: Buffer; headers?: http.OutgoingHttpHeaders } = {}): Promise<OpenStream> {
  const target = new URL(`${baseUrl}/v2/events`);
  const transport = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = transport.get(target, {
      headers: { accept: 'text/event-stream', ...opts.headers }, agent: false,
      ...(target.protocol === 'https:' ? { ca: opts.ca } : {}),
    }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('error', () => undefined);
      resolve({ status: res.statusCode ?? 0, headers: res.headers, text: () => body, close: () => req.destroy() });
    });
    req.on('error', reject);
  });
}
