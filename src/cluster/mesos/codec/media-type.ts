import type { MesosFormat } from './mesos-model';

/**
 * The Content-Type / Accept value of each format (spec §1.2). The master compares Content-Type
 * byte for byte: never append `; charset=utf-8` (that is a 415).
 */
export const MEDIA_TYPES: Readonly<Record<MesosFormat, string>> = {
  protobuf: 'application/x-protobuf',
  json: 'application/json',
};

/**
 * The format a Content-Type header names, compared exactly as the master does (spec §1.2), or
 * `undefined` for anything else. The SUBSCRIBE response's Content-Type is the type of each
 * record, not `application/recordio`.
 */
export function formatOfMediaType(contentType: string | undefined): MesosFormat | undefined {
  if (contentType === MEDIA_TYPES.protobuf) return 'protobuf';
  if (contentType === MEDIA_TYPES.json) return 'json';
  return undefined;
}

/** The media type of a `Content-Type` header without its parameters, lower case: `text/html; charset=utf-8` → `text/html`. */
export function mediaTypeOf(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}
