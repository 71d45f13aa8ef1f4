import { isInt64 } from './int64';
import { MesosCodecError } from './mesos-codec-error';
import type { ScalarKind } from './read-message';

function fail(what: string, path: string): never {
  throw new MesosCodecError(`expected ${what}`, path);
}

/**
 * Checks that a model value fits its scalar kind before it is written: integers must be integral
 * (an int64 may also be a `bigint` within 64 bits),
 * doubles must not be NaN (±Infinity is allowed: `limits` may be infinite, spec §5.1), bytes must
 * be a `Uint8Array`.
 */
export function checkModelScalar(kind: ScalarKind, value: unknown, path: string): void {
  switch (kind) {
    case 'int':
      if (typeof value !== 'number' || !Number.isInteger(value)) fail('an integer', path);
      return;
    case 'long':
      if (!isInt64(value)) fail('an integer', path);
      return;
    case 'double':
      if (typeof value !== 'number' || Number.isNaN(value)) fail('a number', path);
      return;
    case 'bytes':
      if (!(value instanceof Uint8Array)) fail('a Uint8Array', path);
      return;
    case 'bool':
      if (typeof value !== 'boolean') fail('a boolean', path);
      return;
    case 'string':
      if (typeof value !== 'string') fail('a string', path);
      return;
  }
}
