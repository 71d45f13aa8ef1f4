import replyFrom from '@fastify/reply-from';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { IncomingHttpHeaders } from 'node:http';
import { badRequest, leaderProxyErrors, type ApiError } from '../api/errors';
import { keepClientAddress } from '../api/request-log';
import type { LeadershipView } from './leadership';

/** Marathon's LeaderProxyFilter waits 10 × 250 ms for a consistent leadership before its 503. */
export const NO_LEADER_WAIT_MS = 2_500;
/** Marathon's `--leader_proxy_connection_timeout_ms` default. */
export const PROXY_CONNECT_TIMEOUT_MS = 5_000;
/**
 * How long the leader may take to start answering, and to send the next bytes of an answer:
 * Marathon's `--leader_proxy_read_timeout_ms` is 10 s; pacer allows a loaded machine more. A
 * proxied `/v2/events` stream stays open: the leader writes a keep-alive every 10 s.
 */
export const PROXY_READ_TIMEOUT_MS = 60_000;

/** Header of Marathon's proxy-loop protection (`forwarder/RequestForwarder.scala` HEADER_VIA). */
export const VIA_HEADER = 'x-marathon-via';

export interface LeaderProxyOptions {
  readonly leadership: LeadershipView & { onChange(listener: () => void): void };
  /** The leader's scheme: `https` when HTTP is disabled, as in Marathon (`LeaderProxyFilter.scala`). */
  readonly scheme: 'http' | 'https';
  /** How long a request waits for a leader to become known before its 503 (default {@link NO_LEADER_WAIT_MS}). */
  readonly noLeaderWaitMs?: number;
  readonly connectTimeoutMs?: number;
  readonly readTimeoutMs?: number;
}

/**
 * The edge of a pacer that may not lead (a fastify plugin registered before authentication and
 * every route, so that its hook runs first). While this process leads, requests pass through to
 * the routes. Otherwise, as Marathon's `api/LeaderProxyFilter.scala` and
 * `api/forwarder/AsyncUrlConnectionRequestForwarder.scala` do:
 * - `/ping` is answered here;
 * - every other request — `/v2/events` included, streamed (Marathon 1.11 redirects it unless its
 *   `proxy_events` feature is on; pacer always proxies it, so clients need not follow redirects) —
 *   is forwarded to the leader's `host:port` with its method, path, query, headers and body
 *   untouched, plus `X-Marathon-Via: 1.1 <this host:port>` and `X-Forwarded-For`; the leader's
 *   status, headers and body come back unchanged, plus the same `X-Marathon-Via`;
 * - a request whose `X-Marathon-Via` already names this process went round in a loop: 502
 *   `Detected proxying loop.`, never forwarded again, unless this process is elected meanwhile;
 *   such a request, and one whose Via names the pacer this process takes for the leader (the two
 *   views disagree), makes this process read the election again before it decides ({@link leaderFor});
 * - no leader known (or only this process's own stale znode): the request waits up to
 *   {@link NO_LEADER_WAIT_MS} for one, then gets 503 `Could not determine the current leader`
 *   (`GET /v2/leader` gets fact 94's 404 `There is no leader`);
 * - a leader that refuses the connection or does not answer: 502 / 504 with Marathon's texts;
 * - over HTTPS (`--disable_http`) the leader's certificate is verified (its CA must be one this
 *   process trusts: Node's store plus NODE_EXTRA_CA_CERTS): a certificate that fails is 502
 *   naming the reason, and nothing is forwarded.
 * Proxied event streams end when the leader changes or this process starts leading, so their
 * clients reconnect to the new leader. Forwarding is `@fastify/reply-from` (undici): streaming
 * both ways, hop-by-hop headers dropped, a target chosen per request.
 */
export const leaderProxy = fp<LeaderProxyOptions>(async (app: FastifyInstance, options: LeaderProxyOptions) => {
  const readTimeoutMs = options.readTimeoutMs ?? PROXY_READ_TIMEOUT_MS;
  await app.register(replyFrom, {
    retryMethods: [], disableRequestLogging: true, destroyAgent: true,
    // reply-from turns TLS verification off unless told otherwise (its undici `tls` option; `connect` wins over it): the leader's certificate must
    // be one this process trusts (its CA in Node's store, e.g. through NODE_EXTRA_CA_CERTS), or
    // anyone answering at the leader's address would get the clients' credentials.
    undici: { connectTimeout: options.connectTimeoutMs ?? PROXY_CONNECT_TIMEOUT_MS, headersTimeout: readTimeoutMs, bodyTimeout: readTimeoutMs, connect: { rejectUnauthorized: true } },
  });
  const { leadership } = options;
  // Read per request: the port is known only once the API listens (`--port 0`).
  const viaOf = (): string => viaValue(leadership.self);
  const streams = new Map<FastifyReply, string>();
  leadership.onChange(() => {
    const leader = knownLeader(leadership);
    for (const [reply, target] of streams) if (leadership.serving() || target !== leader) reply.raw.destroy();
  });
  app.addHook('preClose', (done) => {
    for (const reply of streams.keys()) reply.raw.destroy();
    done();
  });

  app.addHook('onRequest', (request, reply, done) => {
    if (leadership.serving() || pathOf(request.url) === '/ping') return done();
    const via = viaOf();
    leaderFor(request, options, viaValues(request.headers[VIA_HEADER]), via).then((leader) => {
      if (leader === undefined) return done();
      if (pathOf(request.url) === '/v2/events') {
        streams.set(reply, leader);
        reply.raw.once('close', () => streams.delete(reply));
      }
      forward(request, reply, `${options.scheme}://${leader}`, via, pathOf(request.url) === '/v2/events');
    }, done);
  });
});

/**
 * The leader to forward to, after waiting (bounded) for one to become known; undefined when this
 * process leads by then (the request is served here). Throws the 503 (404 for `GET /v2/leader`),
 * or the 502 of a loop.
 *
 * A request that comes from the very pacer this process takes for the leader, or that already
 * passed through this process (`seen`, its Via values, holds either), shows two views of the
 * election that disagree: during an abdication or a failover, one pacer's watch fires a few
 * milliseconds after another's. This process then reads the election again (bounded) before it
 * decides: it serves the request once it leads, sends it on to the pacer that leads, which serves
 * it once it knows, or, when the request already passed through here and another still leads,
 * answers 502 `Detected proxying loop.` Sent on at once, a request of that moment bounced between
 * two pacers into that 502 (3 requests in 20 abdications under a write load, in an operator's trial).
 */
async function leaderFor(request: FastifyRequest, options: LeaderProxyOptions, seen: readonly string[], own: string): Promise<string | undefined> {
  const { leadership } = options;
  const deadlineMs = Date.now() + (options.noLeaderWaitMs ?? NO_LEADER_WAIT_MS);
  const looped = seen.includes(own);
  let readAgain = false;
  for (;;) {
    if (leadership.serving()) return undefined;
    const leader = knownLeader(leadership);
    if (leader !== undefined) {
      const disagree = looped || seen.includes(viaValue(leader));
      if (disagree && !readAgain && leadership.refresh !== undefined) {
        readAgain = true;
        await bounded(leadership.refresh(), deadlineMs - Date.now());
        continue;
      }
      if (looped) throw leaderProxyErrors.loop();
      return leader;
    }
    const leftMs = deadlineMs - Date.now();
    if (leftMs <= 0) break;
    await leadership.nextChange(leftMs);
  }
  if (request.method === 'GET' && pathOf(request.url) === '/v2/leader') throw leaderProxyErrors.noLeader();
  throw leaderProxyErrors.noCurrentLeader();
}

/** Resolves when `promise` settles or after `timeoutMs`, whichever comes first; never rejects. */
function bounded(promise: Promise<void>, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, Math.max(0, timeoutMs));
    const done = (): void => {
      clearTimeout(timer);
      resolve();
    };
    promise.then(done, done);
  });
}

/** Another process's `host:port`: this process's own name in the leader znode is a stale one of an earlier run. */
function knownLeader(leadership: LeadershipView): string | undefined {
  const leader = leadership.leader();
  return leader === undefined || leader === leadership.self ? undefined : leader;
}

function forward(request: FastifyRequest, reply: FastifyReply, origin: string, via: string, stream: boolean): void {
  const withBody = carriesBody(request);
  // The client's address, read now: once a forwarded body has been streamed out, the raw request
  // has let go of its socket (its request record named no client).
  const client = keepClientAddress(request);
  // The body is streamed as it arrived: nothing here parses it, the leader does.
  if (withBody) request.body = request.raw;
  const restoreLog = warningsAsDebug(request);
  try {
    reply.from(`${origin}${request.raw.url ?? request.url}`, {
      rewriteRequestHeaders: (_req, headers) => requestHeaders(headers, via, client, withBody),
      // The leader answered: this request's own record (request-log.ts) is written with its log.
      rewriteHeaders: (headers) => {
        restoreLog();
        return { ...headers, [VIA_HEADER]: via };
      },
      onError: (r, { error }) => {
        restoreLog();
        void r.send(proxyError(error));
      },
      ...(stream ? { onResponse: (_req: unknown, _reply: unknown, res: { stream: NodeJS.ReadableStream }) => sendStreamHeadersAtOnce(reply, res.stream) } : {}),
    });
  } catch (err) {
    restoreLog();
    // reply-from refuses a path it cannot forward safely (`..` segments, bad escapes) before sending.
    void reply.send(badRequest(`cannot forward ${request.method} ${request.url} to the leader: ${(err as Error).message}`));
  }
}

/**
 * While reply-from forwards `request`, its `warn` records go to `debug`; returns what puts the
 * request's own log back (before its answer, so pacer's record of the request is as always).
 * reply-from writes a `warn` of its own with the error's whole stack when the leader cannot be
 * reached ("response errored"): one per request for as long as the leader is down, of which
 * pacer's own record of the request (a `warn`, with the 502 or 504 and the reason) already says
 * all an operator needs. The stack stays at `debug` for whoever asks for it.
 */
function warningsAsDebug(request: FastifyRequest): () => void {
  const log = request.log;
  const quiet = Object.create(log) as FastifyBaseLogger;
  quiet.warn = log.debug.bind(log);
  request.log = quiet;
  return () => {
    request.log = log;
  };
}

/**
 * An event stream's status and headers go out as soon as the leader's arrive. Fastify writes a
 * streamed reply's headers only with its first body byte, and a filtered stream's first byte may
 * be an event minutes later or the leader's keep-alive 10 s later, while the client (eventsource's
 * `open`) waits for the 200 the leader already gave. Fastify pipes the stream once it has set
 * every header (the leader's, Via), and the pipe is the moment to flush them.
 */
function sendStreamHeadersAtOnce(reply: FastifyReply, stream: NodeJS.ReadableStream): void {
  reply.raw.once('pipe', () => {
    if (!reply.raw.headersSent) reply.raw.flushHeaders();
  });
  void reply.send(stream);
}

function carriesBody(request: FastifyRequest): boolean {
  if (request.method === 'GET' || request.method === 'HEAD') return false;
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** Marathon's forwarded request headers: all but hop-by-hop ones, plus Via and X-Forwarded-For. */
function requestHeaders(headers: IncomingHttpHeaders, via: string, remote: string | undefined, withBody: boolean): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = { ...headers };
  const seen = headers[VIA_HEADER];
  out[VIA_HEADER] = seen === undefined ? via : `${String(seen)}, ${via}`;
  const forwarded = headers['x-forwarded-for'];
  if (remote !== undefined) out['x-forwarded-for'] = forwarded === undefined ? remote : `${String(forwarded)},${remote}`;
  if (!withBody) {
    delete out['content-length'];
    delete out['transfer-encoding'];
  }
  return out;
}

/** The `X-Marathon-Via` value a pacer reached at `hostPort` adds (HTTP/1.1, as Marathon's proxy). */
function viaValue(hostPort: string): string {
  return `1.1 ${hostPort}`;
}

/** Every `X-Marathon-Via` value, whether sent as several headers or one comma list. */
export function viaValues(header: string | string[] | undefined): string[] {
  if (header === undefined) return [];
  return (Array.isArray(header) ? header : [header]).flatMap((h) => h.split(',')).map((v) => v.trim());
}

/**
 * reply-from's failure → Marathon's 502/504 (Marathon answers 500 for the last kind; pacer says
 * 502, a gateway's failure); a leader certificate this process does not trust (or that names
 * another host) → 502 saying so.
 */
function proxyError(error: Error): ApiError {
  const code = (error as { code?: string }).code ?? '';
  const cause = (error as { cause?: { code?: string } }).cause?.code ?? '';
  const tls = [code, cause].find((c) => TLS_VERIFY_CODE.test(c));
  if (tls !== undefined) return leaderProxyErrors.untrustedLeader(tls);
  if (code === 'FST_REPLY_FROM_GATEWAY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT' || cause === 'UND_ERR_HEADERS_TIMEOUT') return leaderProxyErrors.timedOut();
  if (cause === 'ECONNREFUSED' || code === 'UND_ERR_SOCKET' || code === 'ECONNRESET') return leaderProxyErrors.refused();
  return leaderProxyErrors.failed();
}

/** Node's codes of a TLS peer that failed verification (OpenSSL's X509 errors, and the host name check). */
const TLS_VERIFY_CODE = /^(?:ERR_TLS_CERT_ALTNAME_INVALID|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT(?:_LOCALLY)?|CERT_[A-Z_]+)$/;

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}
