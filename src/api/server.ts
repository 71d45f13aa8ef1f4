import Fastify, { type FastifyBaseLogger, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerFactory } from 'fastify';
import { CoreFailure, coreFailureText, haltingHandler, isCoreFault, type CoreFailureHandler } from '../runtime/core-failure';
import type { PacerLog } from '../runtime/pacer-log';
import type { ApiDeps } from './api-deps';
import { knownLeader } from './known-leader';
import type { ApiAuthentication } from './auth/api-authentication';
import { authenticationPlugin } from './auth/authentication-plugin';
import { installAuthorization } from './authz/install-authorization';
import { ApiError, bodyTooLarge, emptyBody, encodedBody, internal, malformedJson, malformedUrl, notJsonMediaType, RouteNotFound } from './errors';
import { RouteMethods } from './route-methods';
import { leaderHeaders } from './leader-headers';
import { jsonBodyText, nullCharacterAt, protoKeyAt } from './json-body-limits';
import { appsRoutes } from './v2/apps/routes';
import { podsRoutes } from './v2/pods/routes';
import { groupsRoutes } from './v2/groups/routes';
import { deploymentsRoutes } from './v2/deployments/routes';
import { tasksRoutes } from './v2/tasks/routes';
import { keepListsAhead } from './v2/lists-ahead';
import { answerClientError } from './client-error';
import { queueRoutes } from './v2/queue/routes';
import { systemRoutes } from './v2/system/routes';
import { eventsRoutes, type EventStream } from './events/routes';
import { uiRoutes } from './ui/ui-routes';
import { setAsideRoutes } from './pacer/set-aside-routes';
import { recordingRoutes } from './pacer/recording-routes';
import { RequestLifecycle } from './request-lifecycle';
import { requestPath } from './request-path';
import { capacityRoutes } from './whatif/capacity-routes';
import { installWhatIf } from './whatif/install-what-if';
import { installCompression } from './compression';

/** What {@link buildServer} needs besides the routes' deps. */
export interface ServerParts {
  readonly deps: ApiDeps;
  /** The SSE fan-out (`/v2/events`). */
  readonly stream: EventStream;
  /** pacer's log: one record per request (request-log.ts, written by request-lifecycle.ts), fastify's own records; absent = no log. */
  readonly log?: PacerLog;
  /**
   * The core failed while serving a request (runtime/core-failure.ts): a query that tripped an
   * assertion, or a command whose failure the loop reported already. Default: print it and end the
   * process. Never answered as a 500.
   */
  readonly onCoreFailure?: CoreFailureHandler;
  /** Who may call (src/api/auth); absent = open to anyone, as Marathon without `--http_credentials`. */
  readonly auth?: ApiAuthentication;
  /** The listening server(s) (src/runtime/api-listeners.ts: HTTP and/or HTTPS over the same routes). */
  readonly serverFactory?: FastifyServerFactory;
  /** Registers what must see every request before authentication: a standby's leader proxy (src/ha). */
  readonly front?: (app: FastifyInstance) => void;
}

/**
 * Builds the REST API (never listens: `main.ts` does, tests use `inject`). Cross-cutting behaviour
 * lives here once: JSON parsing with Marathon's error bodies, the body limit, repeated slashes
 * collapsed (`/v2/apps//web`), Marathon's cache and leader headers (set by the request lifecycle,
 * request-lifecycle.ts, which also feeds the HTTP metrics and the request log), the error catalogue
 * as the only writer of error bodies, 405 with `Allow` for a method a known `/v2` path is not served
 * with, and 404 for unknown routes.
 */
export function buildServer(parts: ServerParts): FastifyInstance {
  const { deps } = parts;
  const lifecycle = new RequestLifecycle(marathonHeaders(deps), parts.log !== undefined);
  const app = Fastify({
    ...(parts.log === undefined ? {} : { loggerInstance: parts.log.child({ component: 'api' }) as FastifyBaseLogger }),
    logController: lifecycle,
    bodyLimit: deps.config.bodyLimitBytes,
    rewriteUrl: (req) => collapseSlashes(req.url ?? '/'),
    // Route params carry ids with `::` suffixes and dots; keep them whole.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 2048 },
    ...(parts.serverFactory === undefined ? {} : { serverFactory: parts.serverFactory }),
    // A request Node's parser refuses (headers over 16 KiB, not HTTP): Marathon's `{message}` shape too.
    clientErrorHandler: answerClientError,
    // A URL the router cannot decode (`%ZZ`) or a parameter above maxParamLength: answered from the
    // catalogue, after the lifecycle's headers, instead of fastify's own body.
    frameworkErrors: (error, req, reply) => {
      const err = error.code === 'FST_ERR_BAD_URL' ? malformedUrl(requestPath(req)) : toApiError(error, deps.config.bodyLimitBytes, undefined);
      lifecycle.answeredBeforeRouting(req, reply as FastifyReply);
      void (reply as FastifyReply).code(err.statusCode).type('application/json').send(err.body);
    },
  });
  refuseEncodedBodies(app);
  installJsonParser(app);
  // Before every route, so that it knows them all: which methods serve a path (405 or 404).
  const routeMethods = RouteMethods.install(app);
  installErrorHandling(app, deps, routeMethods, parts.onCoreFailure ?? haltingHandler((f) => void process.stderr.write(`${coreFailureText(f)}\n`)));
  parts.front?.(app);
  // Before every route, so that its onRoute hook sees them all (compression.ts); off with --disable_http_compression.
  if (deps.config.httpCompression !== false) installCompression(app);
  // Before every route: its hook must cover them all (the UI's too).
  void app.register(authenticationPlugin, { auth: parts.auth });
  // Also before every route: it wraps each handler; the routes get deps that check every command.
  const authorizedDeps = installAuthorization(app, parts.deps, parts.auth?.authorization);
  // After the authorization's hook, so that it wraps it: a simulated write is authorized as the write.
  const routeDeps = installWhatIf(app, authorizedDeps);
  appsRoutes(app, routeDeps);
  podsRoutes(app, routeDeps);
  groupsRoutes(app, routeDeps);
  deploymentsRoutes(app, routeDeps);
  tasksRoutes(app, routeDeps);
  queueRoutes(app, routeDeps);
  systemRoutes(app, routeDeps, lifecycle);
  eventsRoutes(app, routeDeps, parts.stream, lifecycle);
  uiRoutes(app);
  setAsideRoutes(app, routeDeps);
  recordingRoutes(app, routeDeps);
  capacityRoutes(app, routeDeps);
  // The lists' pieces of each app (`GET /v2/tasks`, `GET /v2/apps` with tasks) kept ahead of the reads once its events pause.
  const stopKeepingLists = keepListsAhead(routeDeps);
  app.addHook('onClose', async () => stopKeepingLists());
  return app;
}

/** `/v2/apps//web///x` → `/v2/apps/web/x`; the query string is left alone. */
export function collapseSlashes(url: string): string {
  // Almost every URL has no repeated slash: answered without a regular expression or a copy.
  if (!url.includes('//')) return url;
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const collapsed = path.replace(/\/{2,}/g, '/');
  return q < 0 ? collapsed : collapsed + url.slice(q);
}

/**
 * A request body with a `Content-Encoding` other than `identity` is refused with 415 naming the
 * encoding, before any of it is read; a bodyless request (no `Content-Length` above 0, no
 * `Transfer-Encoding`) is served whatever the header says. It was parsed as if it were plain
 * (a gzipped app answered `400 Invalid JSON … not valid UTF-8`). Refused rather than inflated:
 * Marathon does not inflate request bodies either (its Jetty `GzipHandler` only compresses
 * answers: `HttpModule.scala`, and the note in `HttpTransferMetricsHandler.scala`), so no
 * Marathon client sends one, and refusing leaves no decompression bomb to bound. A client that
 * compresses by default learns at once, from the message, what to turn off.
 */
function refuseEncodedBodies(app: FastifyInstance): void {
  app.addHook('preParsing', (req, _reply, payload, done) => {
    const encoding = req.headers['content-encoding'];
    if (encoding === undefined || !hasBody(req) || isIdentity(encoding)) return done(null, payload);
    done(encodedBody(encoding), payload);
  });
}

/** Whether the request announces a body: a `Content-Length` above 0, or a `Transfer-Encoding`. */
function hasBody(req: FastifyRequest): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = req.headers['content-length'];
  return length !== undefined && length.trim() !== '0';
}

/** `identity`, or nothing but empty entries and `identity` (`identity, `): the body is as sent. */
function isIdentity(encoding: string): boolean {
  return encoding.split(',').every((e) => e.trim() === '' || e.trim().toLowerCase() === 'identity');
}

function installJsonParser(app: FastifyInstance): void {
  // JSON is the only body read. fastify's text/plain parser handed a string to routes that read
  // JSON objects (a valid JSON body sent as text/plain was answered 422 "Invalid JSON"); any other
  // media type is 415 naming it, but a bodyless request (DELETE, /restart) is served whatever
  // its Content-Type, as with application/json.
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (req, body: Buffer, done) => {
    if (body.length === 0) return done(null, undefined);
    done(notJsonMediaType(req.headers['content-type']), undefined);
  });
  app.removeContentTypeParser('application/json');
  // Read as bytes: decoding them is where a body that is not UTF-8 is refused (jsonBodyText).
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body: Buffer, done) => {
    const text = jsonBodyText(req.headers['content-type'], body);
    if (typeof text !== 'string') return done(text, undefined);
    // No body (clients send the JSON content type on every call, DELETE and /restart too): the
    // route decides; only routes that need one answer fact 6's 400 (`emptyBody`).
    if (text.trim() === '') return done(null, undefined);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      return done(malformedJson((err as Error).message), undefined);
    }
    const protoAt = protoKeyAt(text, parsed);
    if (protoAt !== undefined) return done(malformedJson(`The object key "__proto__" is not allowed (at ${protoAt})`), undefined);
    const nullAt = nullCharacterAt(text, parsed);
    if (nullAt !== undefined) return done(malformedJson(`A string with the null character (\\u0000) is not allowed (at ${nullAt})`), undefined);
    done(null, parsed);
  });
}

/**
 * Fact 12: every response is uncacheable and names the leader, when one is known. The leader is
 * read per request (the port is known only once the server listens; with HA the leader changes);
 * the headers' object is made once per leader. A hijacked answer (`/v2/events`) writes its own
 * (sse-headers.ts); a standby's proxied answer carries the leader's.
 */
export function marathonHeaders(deps: Pick<ApiDeps, 'config' | 'leaderAddress'>): (reply: FastifyReply) => void {
  const scheme = deps.config.leaderScheme ?? 'http';
  const headersFor = (leader: string | undefined): Readonly<Record<string, string>> => leaderHeaders(scheme, leader);
  let lastLeader: string | undefined;
  let headers = headersFor(undefined);
  return (reply) => {
    const leader = knownLeader(deps);
    if (leader !== lastLeader) {
      lastLeader = leader;
      headers = headersFor(leader);
    }
    void reply.headers(headers);
  };
}

function installErrorHandling(app: FastifyInstance, deps: ApiDeps, routeMethods: RouteMethods, onCoreFailure: CoreFailureHandler): void {
  // No route for the method and path: 405 with `Allow` when other methods serve the path, else 404.
  app.setNotFoundHandler((req, reply) => {
    const allow = req.method === 'OPTIONS' ? routeMethods.optionsAt(requestPath(req)) : undefined;
    if (allow !== undefined) {
      void reply.code(200).header('allow', allow).send();
      return;
    }
    const err = routeMethods.notServed(req);
    void reply.code(err.statusCode).headers(err.headers).type('application/json').send(err.body);
  });
  app.setErrorHandler((error: FastifyError | ApiError, req, reply) => {
    if (isCoreFault(error)) {
      // Not an answer to the client: pacer stops (the handler ends the process). Only a handler
      // that returns — a test's — lets this 503 out.
      const failure = coreFailureOf(error, req, deps.clock.nowMs());
      if (failure !== (error as unknown)) onCoreFailure(failure);
      void reply.code(503).type('application/json').send({ message: `pacer stopped: ${failure.message}` });
      return;
    }
    // A wildcard route whose rest names nothing it serves (`POST /v2/apps/foo`): as a path no route serves.
    const err = (error as unknown) instanceof RouteNotFound ? routeMethods.notServed(req) : toApiError(error, deps.config.bodyLimitBytes, req.headers['content-type']);
    void reply.code(err.statusCode).headers(err.headers).type('application/json').send(err.body);
  });
}

/**
 * A core failure as the loop reports it. A command's failure comes from the loop (or the
 * simulator's session) wrapped and reported already; a raw assertion comes from a query the route
 * asked, and the request is its input.
 */
function coreFailureOf(error: unknown, req: FastifyRequest, nowMs: number): CoreFailure {
  if (error instanceof CoreFailure) return error;
  return new CoreFailure({ request: { method: req.method, url: req.url } }, nowMs, error);
}

function toApiError(error: FastifyError | ApiError, bodyLimitBytes: number, contentType: string | undefined): ApiError {
  if (error instanceof ApiError) return error;
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return bodyTooLarge(bodyLimitBytes);
  if (error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return emptyBody();
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return notJsonMediaType(contentType);
  if (typeof error.statusCode === 'number' && error.statusCode < 500) {
    return new ApiError(error.statusCode, { message: error.message });
  }
  return internal(error.message);
}
