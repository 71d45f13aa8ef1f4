import { readFileSync } from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { createSecureContext } from 'node:tls';
import type { FastifyInstance, FastifyServerFactory } from 'fastify';
import type { PacerConfig } from './config';

/** One listening socket of the API. */
export interface ListenerAddress {
  readonly scheme: 'http' | 'https';
  /** `host:port` actually bound (port 0 resolved). */
  readonly address: string;
}

/** How long `close()` lets the HTTPS listener's requests finish before cutting its connections. */
const CLOSE_GRACE_MS = 5_000;

/**
 * Connections open at once on one listener, at most: one more is closed as soon as it is accepted
 * (Node's `server.maxConnections`), before it is read. Without a bound, clients that open
 * connections and send nothing (each held up to Node's 60 s `headersTimeout`) could take every
 * file descriptor pacer has, and its store and local tasks would fail to open files. Above
 * `/v2/events`' 4,096 subscribers (`MAX_EVENT_SUBSCRIBERS`), with room for the API's own clients.
 */
export const MAX_API_CONNECTIONS = 10_000;

/**
 * How long a kept-alive connection may stay idle between requests: Marathon's 30 s
 * (`HttpModule.scala`, `connector.setIdleTimeout(30000)` on every Jetty connector). fastify sets
 * its own 72 s only on a server it creates itself, so the servers made here had Node's 5 s: a
 * client reusing a kept-alive connection after a pause of about that long (Go's net/http keeps
 * idle connections 90 s; go-marathon, Traefik) could send its request as pacer closed the socket,
 * and got `connection reset by peer`, which Go does not retry for POST, PUT or DELETE.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 30_000;

/**
 * The API's listeners, as Marathon's `HttpModule.scala` builds its Jetty connectors: HTTP on
 * `--port` unless `--disable_http`, HTTPS (HTTP/1.1 over TLS, PEM `--ssl_cert`/`--ssl_key`) on
 * `--https_port` when the PEM files are given, both on `--address`. One fastify instance serves
 * both: its `serverFactory` makes the primary server (HTTP, or HTTPS when HTTP is off), which
 * fastify listens on, and a second HTTPS server handed the same request handler, so the two
 * share every route, hook, the authentication and the event-stream hub. The certificate and key
 * are read when this is built: an unreadable file stops start-up with its path.
 */
export class ApiListeners {
  private primary: http.Server | undefined;
  private secondary: https.Server | undefined;
  private readonly tls: https.ServerOptions | undefined;

  /** `maxConnections`: {@link MAX_API_CONNECTIONS} (tests give fewer). */
  constructor(private readonly config: PacerConfig, private readonly maxConnections = MAX_API_CONNECTIONS) {
    this.tls = config.sslCert === undefined || config.sslKey === undefined ? undefined : {
      cert: readPem(config.sslCert, '--ssl_cert'),
      key: readPem(config.sslKey, '--ssl_key'),
      minVersion: 'TLSv1.2',
      ALPNProtocols: ['http/1.1'],
    };
    if (this.tls !== undefined) checkKeyPair(this.tls, config);
  }

  /** For `buildServer`: creates the servers around fastify's handler. */
  readonly serverFactory: FastifyServerFactory = (handler) => {
    const tls = this.tls;
    const served = refusingInMarathonShape(handler);
    if (tls !== undefined && this.config.disableHttp) {
      this.primary = answeringWhatNodeRefuses(https.createServer({ ...tls, requireHostHeader: false }, served));
    } else {
      this.primary = answeringWhatNodeRefuses(http.createServer({ requireHostHeader: false }, served));
      if (tls !== undefined) this.secondary = answeringWhatNodeRefuses(https.createServer({ ...tls, requireHostHeader: false }, served));
    }
    for (const server of [this.primary, this.secondary]) {
      if (server === undefined) continue;
      server.maxConnections = this.maxConnections;
      server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
    }
    return this.primary;
  };

  /** `http`, or `https` when only HTTPS is served (Marathon's `LeaderProxyFilter.scala` scheme). */
  get scheme(): 'http' | 'https' {
    return this.tls !== undefined && this.config.disableHttp ? 'https' : 'http';
  }

  /**
   * `host:port` of the primary listener (`/v2/leader`, `X-Marathon-Leader`): Marathon's
   * `MarathonModule.scala` provideHostPort (`--hostname`, else `--address`), the HTTPS port when
   * HTTP is disabled. The configured port until the socket is bound.
   */
  get leaderAddress(): string {
    const port = boundPort(this.primary) ?? (this.scheme === 'https' ? this.config.httpsPort : this.config.port);
    // Read for every response (`X-Marathon-Leader`): the same string while the port is the same,
    // so that the header's reader compares it by reference and no string is built per request.
    if (port !== this.leaderPort) {
      this.leaderPort = port;
      this.leaderText = `${this.config.hostname ?? this.config.address}:${port}`;
    }
    return this.leaderText;
  }

  private leaderPort: number | undefined;
  private leaderText = '';

  /** `/v2/info` `http_config`: the ports bound, or the configured one for a listener that is off. */
  get ports(): { readonly http: number; readonly https: number } {
    const httpsServer = this.scheme === 'https' ? this.primary : this.secondary;
    const httpServer = this.scheme === 'https' ? undefined : this.primary;
    return { http: boundPort(httpServer) ?? this.config.port, https: boundPort(httpsServer) ?? this.config.httpsPort };
  }

  /** Starts listening (primary through fastify, so its lifecycle stays fastify's); what is bound. */
  async listen(app: FastifyInstance): Promise<ListenerAddress[]> {
    const primaryPort = this.scheme === 'https' ? this.config.httpsPort : this.config.port;
    // fastify names the scheme from its own `https` option, which pacer does not use (it builds
    // the server itself): an HTTPS-only start was logged as http://.
    const scheme = this.scheme;
    await app.listen({
      host: this.config.address, port: primaryPort,
      listenTextResolver: (address) => `Server listening at ${scheme === 'https' ? address.replace(/^http:/, 'https:') : address}`,
    });
    const secondary = this.secondary;
    if (secondary !== undefined) {
      const primary = this.primary as http.Server;
      secondary.keepAliveTimeout = primary.keepAliveTimeout;
      secondary.requestTimeout = primary.requestTimeout;
      secondary.headersTimeout = primary.headersTimeout;
      try {
        await listenOn(secondary, this.config.address, this.config.httpsPort);
      } catch (err) {
        await app.close();
        throw err;
      }
    }
    return this.addresses();
  }

  /** Where the API listens now. */
  addresses(): ListenerAddress[] {
    const out: ListenerAddress[] = [];
    const port = boundPort(this.primary);
    if (port !== undefined) out.push({ scheme: this.scheme, address: `${this.config.address}:${port}` });
    const httpsPort = boundPort(this.secondary);
    if (httpsPort !== undefined) out.push({ scheme: 'https', address: `${this.config.address}:${httpsPort}` });
    return out;
  }

  /**
   * Closes the HTTPS listener that fastify does not own (fastify's `close()` closes the primary
   * one and, in its `preClose`, the event streams of both): idle connections at once, the rest
   * after their requests or {@link CLOSE_GRACE_MS}.
   */
  async close(): Promise<void> {
    const server = this.secondary;
    if (server === undefined || !server.listening) return;
    await new Promise<void>((resolveClosed) => {
      const grace = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
      grace.unref();
      server.close(() => {
        clearTimeout(grace);
        resolveClosed();
      });
      server.closeIdleConnections();
    });
  }
}

function readPem(path: string, flag: string): Buffer {
  try {
    return readFileSync(path);
  } catch (err) {
    throw new Error(`${flag} ${path} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}

/** A certificate and key that TLS cannot use together fail here, naming both files. */
function checkKeyPair(tls: https.ServerOptions, config: PacerConfig): void {
  try {
    createSecureContext({ cert: tls.cert, key: tls.key });
  } catch (err) {
    throw new Error(`--ssl_cert ${config.sslCert ?? ''} / --ssl_key ${config.sslKey ?? ''} cannot be used: ${(err as Error).message}`);
  }
}

/**
 * The port a listening server is bound to. `X-Marathon-Leader` reads it on every response and
 * `server.address()` asks the socket (a system call: 5 % of the CPU of a `/ping` load), so it is
 * kept per server while the server listens, and forgotten when it listens again.
 */
function boundPort(server: http.Server | undefined): number | undefined {
  if (server === undefined || !server.listening) return undefined;
  const kept = boundPorts.get(server);
  if (kept !== undefined) return kept;
  const bound = server.address();
  if (typeof bound !== 'object' || bound === null) return undefined;
  const port = (bound as AddressInfo).port;
  if (!watched.has(server)) {
    watched.add(server);
    server.on('listening', () => boundPorts.delete(server));
  }
  boundPorts.set(server, port);
  return port;
}

const boundPorts = new WeakMap<http.Server, number>();
const watched = new WeakSet<http.Server>();

function listenOn(server: https.Server, host: string, port: number): Promise<void> {
  return new Promise((resolveListening, reject) => {
    const onError = (err: Error): void => reject(err);
    server.once('error', onError);
    server.listen({ host, port }, () => {
      server.off('error', onError);
      resolveListening();
    });
  });
}

/**
 * Node's HTTP server answers a few bad requests itself, before any route: an HTTP/1.1 request
 * without `Host` (`400`), an `Expect` other than `100-continue` (`417`), both with an empty body,
 * and `CONNECT` (its connection closed, no answer). Here they get a 4xx with Marathon's
 * `{"message"}` like every other refusal (src/api/errors.ts): Node's own Host check is off
 * (`requireHostHeader: false`) and done by {@link refusingInMarathonShape}, the other two are
 * answered by listeners on the server.
 */
function answeringWhatNodeRefuses<S extends http.Server>(server: S): S {
  server.on('checkExpectation', (req: http.IncomingMessage, res: http.ServerResponse) => {
    refuse(res, 417, `Expect: ${String(req.headers.expect).slice(0, 200)} is not supported (only 100-continue)`);
  });
  server.on('connect', (req: http.IncomingMessage, socket: Duplex) => {
    const body = JSON.stringify({ message: `Method ${req.method ?? 'CONNECT'} is not allowed` });
    socket.on('error', () => socket.destroy());
    socket.end(`HTTP/1.1 405 Method Not Allowed\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
  });
  return server;
}

/** An HTTP/1.1 request without `Host` (RFC 9112 section 3.2) is refused here, as Node would, but with a body. */
function refusingInMarathonShape(handler: http.RequestListener): http.RequestListener {
  return (req, res) => {
    if (req.headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor >= 1) {
      refuse(res, 400, 'HTTP/1.1 requests must have a Host header');
      return;
    }
    handler(req, res);
  };
}

function refuse(res: http.ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', connection: 'close' });
  res.end(JSON.stringify({ message }));
}
