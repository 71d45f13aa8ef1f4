import type { ConvertError as ErrorDetail } from '../convert/convert-result';
import { canonicalVersion } from '../../api/version-text';

/**
 * The problem with the `version` field of an app or pod body, if any: the RAML's `datetime`, an
 * ISO 8601 timestamp, read as a group body's `version` is (`readVersion`,
 * src/api/schemas/group-update.ts), by the one reading of a client's version text
 * (`canonicalVersion`, src/api/version-text.ts). A string that is no date is Marathon's play-json
 * `error.expected.date.isoformat` at `path`; any other type is the schema's to report. It was
 * accepted as any string: a create ignored it, and a rollback (`PUT /v2/apps/a {"version":"x"}`)
 * answered 404 `App '/a' does not exist` for an app that exists.
 */
export function versionFieldErrors(body: unknown, path: string): ErrorDetail[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return [];
  const version = (body as Readonly<Record<string, unknown>>).version;
  if (typeof version !== 'string' || canonicalVersion(version) !== undefined) return [];
  return [{ path, errors: ['error.expected.date.isoformat'] }];
}
