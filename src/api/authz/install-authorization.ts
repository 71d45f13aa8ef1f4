import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import type { ApiDeps } from '../api-deps';
import { notAuthorized } from '../errors';
import type { ApiAuthorization } from './api-authorization';
import { authorizedDeps } from './authorized-deps';
import type { Access } from './policy';
import { runAs, type RequestAccess } from './request-access';
import { ruleOf, type RouteRule } from './route-rules';

/**
 * Puts every route behind `--authorization_file`, Marathon's plugin semantics
 * (`AuthResource.scala` checkAuthorization/isAuthorized, body of its RAML `secured` trait): an
 * `onRoute` hook wraps each route's handler (so a route added later cannot be missed) to
 * - resolve the caller's {@link Access} (after authentication, which set `request.principal`;
 *   open routes such as `/ping` run as `open`),
 * - apply the route's rule ({@link ruleOf}): system resources, or a single run spec or group the
 *   caller may not view → 403 `{"message":"Not Authorized to perform this action!"}`,
 * - run the handler as the caller, so the deps' `submit` checks each command against every run
 *   spec it touches ({@link authorizedDeps});
 * and a `preSerialization` hook trims list answers to what the caller may view. Call before any
 * route is added; returns the deps the routes must be given. Without authorization, `deps`.
 */
export function installAuthorization(app: FastifyInstance, deps: ApiDeps, authorization: ApiAuthorization | undefined): ApiDeps {
  app.decorateRequest('access', null);
  if (authorization === undefined) return deps;
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    const rule = ruleOf(methods[0], route.url ?? route.path);
    const handler = route.handler as RouteHandlerMethod;
    route.handler = function authorized(this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
      const access: RequestAccess = request.principal === null ? 'open' : authorization.accessOf(request.principal.name);
      request.access = access === 'open' ? null : access;
      if (access !== 'open') checkRule(rule, access, request, deps);
      return runAs(access, () => handler.call(this, request, reply));
    };
  });
  app.addHook('preSerialization', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: Error | null, value?: unknown) => void) => {
    const access = request.access;
    if (access === null || reply.statusCode >= 300 || access.seesEverything()) return done(null, payload);
    const rule = ruleOf(request.method, request.routeOptions.url ?? '');
    done(null, rule.kind === 'runSpecs' && rule.filter !== undefined ? rule.filter(access, payload) : payload);
  });
  return authorizedDeps(deps);
}

function checkRule(rule: RouteRule, access: Access, request: FastifyRequest, deps: ApiDeps): void {
  switch (rule.kind) {
    case 'any':
      return;
    case 'resource':
      if (!access.may(rule.action)) throw notAuthorized();
      return;
    case 'runSpecs':
      rule.before?.(access, request, deps);
  }
}
