import fastifyAuth from '@fastify/auth';
import fastifyBasicAuth from '@fastify/basic-auth';
import fastifyBearerAuth from '@fastify/bearer-auth';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { type ApiError, loginsBusy, malformedAuthorization, notAuthenticated, tooManyFailedLogins } from '../errors';
import type { ApiAuthentication } from './api-authentication';
import { readAuthorization } from './authorization-header';
import { loginSource } from './login-guard';
import './principal';

/** Options of {@link authenticationPlugin}. */
export interface AuthenticationPluginOptions {
  /** The configured authentication; undefined = the API is open (nothing configured). */
  readonly auth?: ApiAuthentication;
}

type Check = (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => void;

/**
 * Puts every route behind authentication, as Marathon's Jetty security handler covers `/*`
 * (`HttpModule.scala` createSecurityHandler): one `onRequest` hook on the root context, so every
 * route registered after this plugin (the API, `/v2/events`, the UI, unknown paths' 404) gets it
 * and no route can be forgotten. Credentials are read by fastify's plugins: `@fastify/basic-auth`
 * (HTTP basic) and `@fastify/bearer-auth` (tokens), either accepted (`@fastify/auth`, relation
 * `or`). The header is read first by {@link readAuthorization} (RFC 7235: the scheme in any case,
 * one or more spaces, one token68) and, when it holds Basic or Bearer credentials, rewritten to
 * the one spelling both plugins parse (`Basic <token>`, `Bearer <token>`), so that its syntax has
 * one reader and the plugins only decode and verify. The caller becomes `request.principal`.
 * Routes whose path is in `openPaths` (`/ping` by default; Marathon guards it too) are served to
 * anyone. A failure is Marathon's 401: the body of its RAML `secured` trait
 * (`docs/docs/rest-api/public/api/traits.raml`) — or, for a header outside the grammar,
 * {@link malformedAuthorization}'s message — and `WWW-Authenticate: Basic realm="<--http_realm>"`
 * (plus a Bearer challenge with tokens); a refused request that announces a body also gets
 * `Connection: close`, so that an unauthenticated client cannot hold the connection by sending
 * the body slowly.
 *
 * Failed logins (Basic or Bearer credentials refused) are counted per client source by
 * `auth.guard` (`login-guard.ts`); a source over its limit gets 429 with `Retry-After` for any
 * request carrying credentials, answered from the headers alone: no scrypt run, and no check that
 * could tell a right password from a wrong one (a remembered password included: answering it would
 * let a source test guesses against it at the speed of the network). Requests without credentials
 * still get the 401 challenge, and open paths stay open. The source is the connection's peer
 * address (pacer takes no `X-Forwarded-For`, which any caller can write): behind a proxy, or
 * forwarded by a standby, every caller shares the proxy's. A password check the scrypt gate had no
 * room for is 503 with `Retry-After: 1`, not counted as a failure. Register it before any route.
 */
async function authentication(app: FastifyInstance, options: AuthenticationPluginOptions): Promise<void> {
  app.decorateRequest('principal', null);
  const auth = options.auth;
  if (auth === undefined) return;
  const checks: Check[] = [];
  // Requests whose password check found the scrypt gate full (answered 503, not 401).
  const busy = new WeakSet<FastifyRequest>();
  const basic = auth.basic;
  if (basic !== undefined) {
    await app.register(fastifyBasicAuth, {
      authenticate: false, // the challenge is written below, once, for every failure
      validate: async (user, password, request) => {
        const verdict = await basic.verify(user, password);
        if (verdict === 'busy') busy.add(request);
        if (verdict !== true) throw notAuthenticated();
        request.principal = { name: user, scheme: 'basic' };
      },
    });
    checks.push(app.basicAuth as Check);
  }
  const tokens = auth.tokens;
  if (tokens !== undefined) {
    await app.register(fastifyBearerAuth, {
      keys: [], addHook: false, verifyErrorLogLevel: 'debug',
      auth: (token, request) => {
        const name = tokens.principalOf(token);
        if (name === undefined) return false;
        request.principal = { name, scheme: 'bearer' };
        return true;
      },
    });
    checks.push(app.verifyBearerAuth as Check);
  }
  await app.register(fastifyAuth);
  const check = app.auth(checks, { relation: 'or' }) as Check;
  app.addHook('onRequest', (request, reply, done) => {
    const route = request.routeOptions.url;
    if (route !== undefined && auth.openPaths.has(route)) return done();
    const end = (error: ApiError): void => {
      request.principal = null;
      // A body is never read for a caller refused here; keeping the connection would make Node
      // drain it for as long as the caller sends (up to `requestTimeout`, 5 minutes): close it.
      if (hasBody(request)) void reply.header('connection', 'close');
      done(error);
    };
    const refuse = (error: ApiError): void => {
      const challenges = auth.challenges();
      void reply.header('WWW-Authenticate', challenges.length === 1 ? challenges[0] : challenges);
      end(error);
    };
    const header = readAuthorization(request.headers.authorization);
    if (header.kind === 'malformed') return refuse(malformedAuthorization());
    const guard = header.kind === 'credentials' ? auth.guard : undefined;
    const source = guard === undefined ? '' : loginSource(request.socket.remoteAddress ?? '');
    const waitMs = guard?.retryAfterMs(source);
    if (waitMs !== undefined) {
      const retryAfterS = Math.ceil(waitMs / 1000);
      void reply.header('retry-after', String(retryAfterS));
      return end(tooManyFailedLogins(auth.loginLimit.failures, auth.loginLimit.windowMs, retryAfterS));
    }
    if (header.kind === 'credentials') request.raw.headers.authorization = `${header.scheme === 'basic' ? 'Basic' : 'Bearer'} ${header.token}`;
    check.call(app, request, reply, (err?: Error | null) => {
      if (err === undefined || err === null) return done();
      if (busy.has(request)) {
        void reply.header('retry-after', '1');
        return end(loginsBusy());
      }
      guard?.recordFailure(source);
      refuse(notAuthenticated());
    });
  });
}

/** Whether the request announces a body (RFC 9112 §6.3: `Transfer-Encoding`, or a `Content-Length` other than 0). */
function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** {@link authentication} as a fastify plugin whose hook and decorator reach the root context. */
export const authenticationPlugin = fp(authentication, { name: 'pacer-authentication', fastify: '5.x' });
