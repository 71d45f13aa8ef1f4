import { util, type Enum } from 'protobufjs';
import { MesosCodecError } from './mesos-codec-error';
import type { ModelScalar, ScalarKind, ValueReader } from './read-message';

interface LongLike { low: number; high: number; unsigned: boolean }

function isLongLike(raw: unknown): raw is LongLike {
  return typeof raw === 'object' && raw !== null && 'low' in raw && 'high' in raw;
}

/** A 64-bit integer as decoded by protobufjs (`Long` when long.js is installed) → `number`. */
function longToNumber(raw: unknown, path: string): number {
  if (typeof raw === 'number') return raw;
  if (isLongLike(raw)) return new util.LongBits(raw.low >>> 0, raw.high >>> 0).toNumber(raw.unsigned);
  throw new MesosCodecError('expected a 64-bit integer', path);
}

function expect<T>(ok: boolean, value: T, what: string, path: string): T {
  if (!ok) throw new MesosCodecError(`expected ${what}`, path);
  return value;
}

/**
 * Leaf values of a message decoded by protobufjs: enums arrive as numbers, 64-bit integers as
 * `Long`, bytes as `Buffer`s that may share memory with the input (copied here, so a record's
 * buffer is not kept alive by the model).
 */
export const PROTOBUF_VALUE_READER: ValueReader = {
  readEnum(raw: unknown, enumType: Enum, path: string): string | undefined {
    if (typeof raw !== 'number') throw new MesosCodecError(`expected a ${enumType.name} number`, path);
    return enumType.valuesById[raw];
  },
  readScalar(kind: ScalarKind, raw: unknown, path: string): ModelScalar {
    switch (kind) {
      case 'long':
        return longToNumber(raw, path);
      case 'bytes':
        if (!(raw instanceof Uint8Array)) throw new MesosCodecError('expected bytes', path);
        return new Uint8Array(raw);
      case 'bool':
        return expect(typeof raw === 'boolean', raw as boolean, 'a boolean', path);
      case 'string':
        return expect(typeof raw === 'string', raw as string, 'a string', path);
      default:
        return expect(typeof raw === 'number', raw as number, 'a number', path);
    }
  },
};
