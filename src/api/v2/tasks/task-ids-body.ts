import { MAX_ITEMS } from '../../../marathon/schemas/limits';
import { emptyBody, invalidJson, type ErrorDetail } from '../../errors';

/**
 * The `ids` of a `POST /v2/tasks/delete` body (`{"ids":["<taskId>",…]}`), duplicates dropped in
 * first-seen order (Marathon reads them as a set, fact 58). A body of the wrong shape is a 422
 * "Invalid JSON" with play-json keys (fact 4): `/ids` missing or not an array, `/ids(n)` not a string;
 * no body at all is fact 6's 400. At most {@link MAX_ITEMS} ids, the bound of every other list pacer
 * reads (docs/limits.md; Marathon has none but its body size): more is `error.maxLength` at `/ids`,
 * checked before any id is looked at, so a refused request kills nothing.
 */
export function taskIdsFromBody(body: unknown): string[] {
  if (body === undefined) throw emptyBody();
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalidJson([{ path: '/ids', errors: ['error.path.missing'] }]);
  }
  const ids = (body as Record<string, unknown>).ids;
  if (ids === undefined) throw invalidJson([{ path: '/ids', errors: ['error.path.missing'] }]);
  if (!Array.isArray(ids)) throw invalidJson([{ path: '/ids', errors: ['error.expected.jsarray'] }]);
  if (ids.length > MAX_ITEMS) throw invalidJson([{ path: '/ids', errors: ['error.maxLength'] }]);
  const details: ErrorDetail[] = [];
  ids.forEach((id, i) => {
    if (typeof id !== 'string') details.push({ path: `/ids(${i})`, errors: ['error.expected.jsstring'] });
  });
  if (details.length > 0) throw invalidJson(details);
  return [...new Set(ids as string[])];
}

/**
 * Whether a string has the shape of a Marathon task id: a run spec part and an id part separated
 * by `.` or `_` (`prod_web.instance-<uuid>._app.1`, `web.<uuid>`, pod `…instance-<uuid>.<container>.1`,
 * or `….<container>` as older pacer versions and Marathon's `EphemeralTaskId` wrote it).
 * Anything else is the "Invalid task id" 400 of fact 58; a well-formed id that matches no
 * instance is skipped silently.
 */
export function isWellFormedTaskId(id: string): boolean {
  return /^.+[._][^._]+$/.test(id);
}
