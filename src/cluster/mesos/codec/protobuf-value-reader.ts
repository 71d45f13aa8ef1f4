import type { Enum } from 'protobufjs';
import { int64Of, type Int64 } from './int64';
import { MesosCodecError } from './mesos-codec-error';
import type { ModelScalar, ScalarKind, ValueReader } from './read-message';

interface LongLike { low: number; high: number; unsigned: boolean }

function isLongLike(raw: unknown): raw is LongLike {
  return typeof raw === 'object' && raw !== null && 'low' in raw && 'high' in raw;
}

/**
 * A 64-bit integer as decoded by protobufjs — a `Long` (long.js, a dependency of protobufjs, is
 * installed, so every int64 arrives this way with all 64 bits) — exactly, as an {@link Int64}. A
 * plain `number` (protobufjs without long.js) is taken as it is.
 */
function readLong(raw: unknown, path: string): Int64 {
  if (typeof raw === 'number' && Number.isInteger(raw)) return int64Of(BigInt(raw), path);
  if (!isLongLike(raw)) throw new MesosCodecError('expected a 64-bit integer', path);
  const bits = (BigInt(raw.high >>> 0) << 32n) | BigInt(raw.low >>> 0);
  return int64Of(raw.unsigned ? bits : BigInt.asIntN(64, bits), path);
}

function expect<T>(ok: boolean, value: T, what: string, path: string): T {
  if (!ok) throw new MesosCodecError(`expected ${what}`, path);
  return value;
}

/**
 * Leaf values of a message decoded by protobufjs: enums arrive as numbers, 64-bit integers as
 * `Long` (read exactly, int64.ts), bytes as `Buffer`s that may share memory with the input (copied here, so a record's
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
        return readLong(raw, path);
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
