import { MALFORMED_AUTHORIZATION_MESSAGE } from './auth/authorization-header';

/**
 * The one error catalogue of the REST API (marathon-api-facts.md section A). Handlers never build
 * error bodies themselves: they throw an {@link ApiError} made by one of the factories below, and
 * the server's error handler writes `statusCode` and `body` as `application/json`.
 */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: Readonly<Record<string, unknown>>,
    /** Headers the answer carries besides the ones of every answer (`Allow` of a 405). */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(typeof body.message === 'string' ? body.message : `HTTP ${statusCode}`);
  }
}

/** One offending field: JSON-pointer-like path (`/role`, `/healthChecks(0)` or `/healthChecks/0`) and its messages. */
export interface ErrorDetail {
  readonly path: string;
  readonly errors: readonly string[];
}

/** Fact 3: semantic validation failure → 422 "Object is not valid". */
export function objectNotValid(details: readonly ErrorDetail[]): ApiError {
  return new ApiError(422, { message: 'Object is not valid', details });
}

/** Fact 4: wrong JSON shape (type, missing field, range, pattern) → 422 "Invalid JSON" with play-json keys. */
export function invalidJson(details: readonly ErrorDetail[]): ApiError {
  // Fact 4: an entry with an empty error list makes Marathon fall back to 400.
  const status = details.some((d) => d.errors.length === 0) ? 400 : 422;
  return new ApiError(status, { message: 'Invalid JSON', details });
}

/** Fact 5: syntactically broken JSON → 400, `details` is the parser's text (a string). */
export function malformedJson(parserText: string): ApiError {
  return new ApiError(400, { message: 'Invalid JSON', details: parserText });
}

/** Fact 6: empty body on a JSON endpoint → 400. */
export function emptyBody(): ApiError {
  return new ApiError(400, {
    message: 'Please specify data in JSON format',
    details: 'No content to map due to end-of-input',
  });
}

/** A request body above the configured limit → 413 (Marathon had no limit; pacer refuses before parsing). */
export function bodyTooLarge(limitBytes: number): ApiError {
  return new ApiError(413, { message: `Request body is larger than the limit of ${limitBytes} bytes`, details: [] });
}

/**
 * A body in a media type or charset the endpoint does not read → 415 with a message only (JSON
 * bodies must be UTF-8; docs/limits.md).
 */
export function unsupportedMediaType(message: string): ApiError {
  return new ApiError(415, { message });
}

/** The longest piece of a request (its path, its content type) an error message repeats. */
const ECHO_MAX = 200;

function echoed(text: string): string {
  return text.length <= ECHO_MAX ? text : `${text.slice(0, ECHO_MAX)}…`;
}

/**
 * A body sent in another media type than JSON (`curl -d` without a header sends a form;
 * `text/plain`) → 415 naming it: the API reads JSON only, as Marathon's resources consume only
 * `application/json`.
 */
export function notJsonMediaType(contentType: string | undefined): ApiError {
  const sent = contentType === undefined || contentType.trim() === '' ? 'no Content-Type' : echoed(contentType);
  return unsupportedMediaType(`Unsupported Media Type: ${sent} (request bodies must be sent as Content-Type: application/json)`);
}

/**
 * A body sent with a `Content-Encoding` other than `identity` (`gzip`, `deflate`, `br`, …) → 415
 * naming the encoding: pacer reads request bodies as sent, never inflated (server.ts,
 * `refuseEncodedBodies`).
 */
export function encodedBody(contentEncoding: string): ApiError {
  return unsupportedMediaType(`Unsupported Content-Encoding: ${echoed(contentEncoding)} (request bodies must be sent uncompressed, without Content-Encoding)`);
}

/** A URL path whose percent-escapes do not decode (`%ZZ`, a cut `%E`, bytes that are not UTF-8) → 400. */
export function malformedUrl(path: string): ApiError {
  return new ApiError(400, { message: `Malformed URL '${echoed(path)}': a percent-escape is incomplete or does not decode to UTF-8` });
}

/** Fact 1: 404 produced inside a resource (GET of an unknown thing): `details` is `[]`. */
export function notFound(message: string): ApiError {
  return new ApiError(404, { message, details: [] });
}

/** Fact 2: 404 raised as an exception (PATCH/DELETE/restart of an unknown thing): no `details`. */
export function notFoundBare(message: string): ApiError {
  return new ApiError(404, { message });
}

/** `App '/x' does not exist` and friends, as Marathon words them. */
export const notFoundText = {
  app: (id: string) => `App '${id}' does not exist`,
  pod: (id: string) => `Pod '${id}' does not exist`,
  group: (id: string) => `Group '${id}' does not exist`,
  task: (id: string) => `Task '${id}' does not exist`,
  deployment: (id: string) => `DeploymentPlan ${id} does not exist`,
  path: (id: string) => `Path '${id}' does not exist`,
  appVersion: (id: string, version: string) => `App '${id}' does not exist in version ${version}`,
} as const;

/** Fact 7: a change touching run specs locked by running deployments, without `force` → 409. */
export function locked(deploymentIds: readonly string[]): ApiError {
  const first = deploymentIds[0] ?? '';
  return new ApiError(409, {
    message:
      "App is locked by one or more deployments. Override with the option '?force=true'. " +
      `View details at '/v2/deployments/${first}'.`,
    deployments: deploymentIds.map((id) => ({ id })),
  });
}

/**
 * `/v2/events` holds as many clients as it may (`MAX_EVENT_SUBSCRIBERS`, docs/limits.md) → 429,
 * which the client may retry: not a 5xx (nothing is wrong with pacer), and before anything is
 * streamed. pacer's own bound: Marathon has none but its server's.
 */
export function tooManySubscribers(limit: number): ApiError {
  return new ApiError(429, { message: `/v2/events has as many subscribers as it takes (${limit}); try again later` });
}

/** Fact 8: the cap on running deployments → 403 (the missing space in "oneusing" is Marathon's). */
export function tooManyDeployments(max: number): ApiError {
  return new ApiError(403, {
    message:
      `Max number (${max}) of running deployments is achieved. Wait for existing deployments to complete ` +
      'or cancel oneusing force=true parameter. You can increase max deployment number by using ' +
      '--max_running_deployments parameter.',
  });
}

/** Facts 22, 66, 80: creating something that exists → 409 with Marathon's text. */
export function conflict(message: string): ApiError {
  return new ApiError(409, { message });
}

/** Fact 9: an illegal argument (e.g. an unparsable label selector) → 422 with only `message`. */
export function illegalArgument(message: string): ApiError {
  return new ApiError(422, { message });
}

/** A request Marathon answers 400 with a bare message (e.g. scale and wipe together). */
export function badRequest(message: string): ApiError {
  return new ApiError(400, { message });
}

/**
 * No valid credentials while authentication is on → 401 with the body of Marathon's RAML
 * `secured` trait (`docs/docs/rest-api/public/api/traits.raml`); the `WWW-Authenticate`
 * challenge is the authentication hook's (src/api/auth).
 */
export function notAuthenticated(): ApiError {
  return new ApiError(401, { message: 'Invalid username or password.' });
}

/**
 * A client source that made `failures` failed logins within `windowMs` (`auth/login-guard.ts`) → 429
 * until its window ends, answered before its credentials are checked. pacer's own: Marathon does not
 * limit failed logins.
 */
export function tooManyFailedLogins(failures: number, windowMs: number, retryAfterS: number): ApiError {
  return new ApiError(429, {
    message: `Too many failed logins from this address (${failures} within ${windowMs / 1000} s); try again in ${retryAfterS} s`,
  });
}

/**
 * As many password checks as pacer runs and queues at once are under way (`auth/scrypt-gate.ts`)
 * → 503: nothing is wrong with the caller's credentials, which were not checked; try again shortly.
 */
export function loginsBusy(): ApiError {
  return new ApiError(503, { message: 'Too many logins are being checked at once; try again in a second' });
}

/**
 * An `Authorization` header outside RFC 7235's grammar (`auth/authorization-header.ts`) → 401 that
 * says what is wrong with it, never quoting it (it may hold a password).
 */
export function malformedAuthorization(): ApiError {
  return new ApiError(401, { message: MALFORMED_AUTHORIZATION_MESSAGE });
}

/**
 * Authenticated but not allowed (`--authorization_file`) → 403 with the body of Marathon's RAML
 * `secured` trait (`docs/docs/rest-api/public/api/traits.raml`).
 */
export function notAuthorized(): ApiError {
  return new ApiError(403, { message: 'Not Authorized to perform this action!' });
}

/**
 * A path no route serves → 404 (not Marathon's 500 "URI not found", fact 10: shared/spec/README.md).
 * Thrown by a wildcard route whose rest names nothing it serves; the server answers it 405 instead
 * when another method serves that path (route-methods.ts).
 */
export class RouteNotFound extends ApiError {}

export function routeNotFound(method: string, url: string): ApiError {
  return new RouteNotFound(404, { message: `URI not found: ${method} ${url}`, details: [] });
}

/**
 * A method the path's routes do not serve, on a path other methods serve (`POST /v2/apps/foo`) →
 * 405 with `Allow` naming them, as Marathon's Jersey answers; the body in the catalogue's shape.
 */
export function methodNotAllowed(method: string, path: string, allowed: readonly string[]): ApiError {
  const list = allowed.join(', ');
  return new ApiError(405, { message: `Method Not Allowed: ${method} ${echoed(path)} (allowed: ${list})`, details: [] }, { allow: list });
}

/** pacer could not do what was asked for a reason of its own host (a disk that refuses a write) → 503 with the reason. */
export function unavailable(message: string): ApiError {
  return new ApiError(503, { message });
}

/** Anything unexpected → 500 with the error's message (fact 9). */
export function internal(message: string): ApiError {
  return new ApiError(500, { message });
}

/**
 * Answers of a standby pacer that cannot forward a request to the leader (src/ha/leader-proxy.ts),
 * with the texts of Marathon's `LeaderProxyFilter.scala` and `forwarder/RequestForwarder.scala`
 * (Marathon writes them as Jetty error pages; pacer as JSON, like every other error).
 */
export const leaderProxyErrors = {
  /** No leader known, even after waiting for one: 503 (`LeaderProxyFilter`'s ServiceUnavailable). */
  noCurrentLeader: () => new ApiError(503, { message: 'Could not determine the current leader' }),
  /** `GET /v2/leader` while none is known: fact 94's 404. */
  noLeader: () => notFound('There is no leader'),
  /** The request already passed through this pacer: 502, never forwarded again. */
  loop: () => new ApiError(502, { message: 'Detected proxying loop.' }),
  /** The leader refused or dropped the connection: 502. */
  refused: () => new ApiError(502, { message: 'Connection to leader refused.' }),
  /** The leader did not answer in time: 504. */
  timedOut: () => new ApiError(504, { message: 'Connection to leader timed out.' }),
  /** Over HTTPS, the leader's certificate failed verification (`reason`: Node's code): 502, nothing forwarded. */
  untrustedLeader: (reason: string) => new ApiError(502, {
    message: `The leader's certificate is not trusted by this pacer (${reason}): give it the certificate's CA (NODE_EXTRA_CA_CERTS) or a certificate for the leader's host name.`,
  }),
  /** Anything else that kept the leader's answer from arriving: 502. */
  failed: () => new ApiError(502, { message: 'Failed to successfully establish a connection to the leader.' }),
} as const;
