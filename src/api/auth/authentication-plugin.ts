import fastifyAuth from '@fastify/auth';
import fastifyBasicAuth from '@fastify/basic-auth';
import fastifyBearerAuth from '@fastify/bearer-auth';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { type ApiError, malformedAuthorization, notAuthenticated } from '../errors';
import type { ApiAuthentication } from './api-authentication';
import { readAuthorization } from './authorization-header';
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
 * the body slowly. Register it before any route.
 */
async function authentication(app: FastifyInstance, options: AuthenticationPluginOptions): Promise<void> {
  app.decorateRequest('principal', null);
  const auth = options.auth;
  if (auth === undefined) return;
  const checks: Check[] = [];
  const basic = auth.basic;
  if (basic !== undefined) {
    await app.register(fastifyBasicAuth, {
      authenticate: false, // the challenge is written below, once, for every failure
      validate: async (user, password, request) => {
        if (!(await basic.verify(user, password))) throw notAuthenticated();
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
    const refuse = (error: ApiError): void => {
      request.principal = null;
      const challenges = auth.challenges();
      void reply.header('WWW-Authenticate', challenges.length === 1 ? challenges[0] : challenges);
      // A body is never read for a caller refused here; keeping the connection would make Node
      // drain it for as long as the caller sends (up to `requestTimeout`, 5 minutes): close it.
      if (hasBody(request)) void reply.header('connection', 'close');
      done(error);
    };
    const header = readAuthorization(request.headers.authorization);
    if (header.kind === 'malformed') return refuse(malformedAuthorization());
    if (header.kind === 'credentials') request.raw.headers.authorization = `${header.scheme === 'basic' ? 'Basic' : 'Bearer'} ${header.token}`;
    check.call(app, request, reply, (err?: Error | null) => {
      if (err === undefined || err === null) return done();
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
