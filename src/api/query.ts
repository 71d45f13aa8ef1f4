import { invalidJson } from './errors';

/** A query string value as fastify parses it: one string, several, or none. */
export type QueryValue = string | readonly string[] | undefined;

/** The query object of a request (fastify's default parser). */
export type Query = Readonly<Record<string, QueryValue>>;

/** All values of a repeatable parameter (`?embed=a&embed=b`), in order. */
export function queryAll(query: Query, name: string): string[] {
  const v = query[name];
  if (v === undefined) return [];
  return typeof v === 'string' ? [v] : [...v];
}

/**
 * The first value of a parameter, or undefined: a single-valued `@QueryParam` of Marathon's JAX-RS
 * resources takes the first of repeated values (the `QueryParam` contract: "the first value
 * (lexically) of the parameter is used"), so `?force=true&force=false` forces, as there. pacer
 * took the last before 2026-12-03 (found by an API trial).
 */
export function queryOne(query: Query, name: string): string | undefined {
  const all = queryAll(query, name);
  return all.length === 0 ? undefined : all[0];
}

/**
 * A boolean parameter, liberal as Marathon's server was: `true`/`True`/`TRUE`, `false`…, and a bare
 * `?force` counts as true. Anything else is a 422 naming the parameter.
 */
export function queryBool(query: Query, name: string, fallback: boolean): boolean {
  const v = queryOne(query, name);
  if (v === undefined) return fallback;
  const lower = v.toLowerCase();
  if (lower === 'true' || lower === '') return true;
  if (lower === 'false') return false;
  throw invalidJson([{ path: `/${name}`, errors: [`error.expected.boolean: '${v}' is not true or false`] }]);
}

/**
 * `embed` values normalized: the `app.`/`apps.` prefixes are accepted on either route
 * (`apps.tasks`, `app.tasks`, `tasks` all mean `tasks`), and values may be comma-separated. Other
 * values (`group.groups`, `group.apps.tasks`) are kept as given for the routes that know them.
 */
export function embedSet(query: Query): Set<string> {
  const out = new Set<string>();
  for (const raw of queryAll(query, 'embed')) {
    for (const part of raw.split(',')) {
      const v = part.trim();
      if (v === '') continue;
      out.add(v.replace(/^apps?\./, ''));
    }
  }
  return out;
}

/** The query string of a URL (`''` without one), as asked: what a kept list answer is kept under (list-body-cache.ts). */
export function queryOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? '' : url.slice(q + 1);
}
