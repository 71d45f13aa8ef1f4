import { emptyBody, invalidJson } from '../errors';
import { isRecord } from '../../marathon/convert/wire-object';

/** The body of `PATCH /v2/groups/{id}` (Marathon's `GroupPartialUpdate`): only `enforceRole`. */
export interface GroupPartialUpdateBody {
  readonly enforceRole?: boolean;
}

/**
 * Reads a `GroupPartialUpdate` body, or throws the catalogue's error: no body → 400 (fact 6), not
 * an object or a non-boolean `enforceRole` → 422 "Invalid JSON" (fact 4). Other fields are
 * ignored, as Marathon's reader ignores them.
 */
export function readGroupPartialUpdate(body: unknown): GroupPartialUpdateBody {
  if (body === undefined || body === null) throw emptyBody();
  if (!isRecord(body)) throw invalidJson([{ path: '/', errors: ['error.expected.jsobject'] }]);
  const value = body.enforceRole;
  if (value === undefined || value === null) return {};
  if (typeof value !== 'boolean') throw invalidJson([{ path: '/enforceRole', errors: ['error.expected.jsboolean'] }]);
  return { enforceRole: value };
}
