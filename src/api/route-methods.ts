import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type ApiError, methodNotAllowed, routeNotFound } from './errors';
import { requestPath } from './request-path';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * For a wildcard route (`/v2/apps/*`): whether it serves this rest of the path. A method
     * whose wildcard serves only some paths (POST below an app: only `…/restart`) says which,
     * so that the others are answered 405 (or 404 when no method serves them).
     */
    readonly servesPath?: (rest: string) => boolean;
  }
}

/** The order methods are listed in an `Allow` header. */
const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

interface RouteEntry {
  /** The URL's segments; a last `*` takes the rest, a `:name` one segment. */
  readonly segments: readonly string[];
  readonly wildcard: boolean;
  readonly methods: readonly string[];
  readonly servesPath: ((rest: string) => boolean) | undefined;
}

/**
 * Which methods the `/v2` routes serve on a path, from the routes as they are registered (an
 * `onRoute` hook: a route added later is known too). Marathon (Jersey) answers a method a
 * resource does not serve on a path it knows with 405 and an `Allow` header (`POST /v2/apps/foo`);
 * pacer answered 404 as for an unknown path. Now: a path that some method serves gets 405 naming
 * them; a path that none serves stays 404. Only below `/v2`: the other paths (`/ui`, `/ping`,
 * `/metrics`) keep their 404.
 */
export class RouteMethods {
  private readonly routes: RouteEntry[] = [];

  /** Records every route of `app` added after this call. */
  static install(app: FastifyInstance): RouteMethods {
    const table = new RouteMethods();
    app.addHook('onRoute', (route) => {
      const url = route.url ?? route.path;
      if (!url.startsWith('/v2')) return;
      table.add(url, [route.method].flat(), route.config?.servesPath);
    });
    return table;
  }

  add(url: string, methods: readonly string[], servesPath?: (rest: string) => boolean): void {
    const segments = trimmed(url).split('/');
    const wildcard = segments[segments.length - 1] === '*';
    this.routes.push({ segments: wildcard ? segments.slice(0, -1) : segments, wildcard, methods, servesPath });
  }

  /** The methods served on `path` (no query), in {@link METHOD_ORDER}; empty for a path no route serves. */
  allowedAt(path: string): string[] {
    if (!path.startsWith('/v2')) return [];
    const parts = trimmed(path).split('/');
    const allowed = new Set<string>();
    for (const route of this.routes) {
      const rest = restOf(route, parts, path);
      if (rest === undefined || (route.servesPath !== undefined && !route.servesPath(rest))) continue;
      for (const m of route.methods) allowed.add(m);
    }
    return METHOD_ORDER.filter((m) => allowed.has(m)).concat([...allowed].filter((m) => !METHOD_ORDER.includes(m)).sort());
  }

  /**
   * The answer to a request no route served: 405 with `Allow` when other methods serve its path,
   * else the 404 of an unknown route.
   */
  notServed(req: FastifyRequest): ApiError {
    const path = requestPath(req);
    const allowed = this.allowedAt(path);
    return allowed.length === 0 || allowed.includes(req.method) ? routeNotFound(req.method, req.url) : methodNotAllowed(req.method, path, [...allowed, 'OPTIONS']);
  }

  /**
   * The `Allow` header an `OPTIONS` request of `path` is answered 200 with (OPTIONS included), as
   * JAX-RS answers OPTIONS on every resource it knows (Marathon); undefined for a path no method
   * serves (then 404, as any other unknown path).
   */
  optionsAt(path: string): string | undefined {
    const allowed = this.allowedAt(path);
    return allowed.length === 0 ? undefined : [...allowed, 'OPTIONS'].join(', ');
  }
}

/** `/v2/apps/` → `/v2/apps` (the router ignores a trailing slash). */
function trimmed(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/** The rest of `path` the route's wildcard takes (`''` for a route without one), or undefined when it does not match. */
function restOf(route: RouteEntry, parts: readonly string[], path: string): string | undefined {
  const n = route.segments.length;
  if (route.wildcard ? parts.length < n : parts.length !== n) return undefined;
  for (let i = 0; i < n; i++) {
    const s = route.segments[i];
    if (s.startsWith(':') ? parts[i] === '' : s !== parts[i]) return undefined;
  }
  if (!route.wildcard) return '';
  // `/v2/apps/*` takes `/v2/apps/` and below, never `/v2/apps` itself.
  const prefix = `${route.segments.join('/')}/`;
  return path.startsWith(prefix) ? path.slice(prefix.length) : undefined;
}
