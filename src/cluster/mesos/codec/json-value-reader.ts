import type { Enum } from 'protobufjs';
import { decodeBase64 } from './base64';
import { int64Of, type Int64 } from './int64';
import { MesosCodecError } from './mesos-codec-error';
import type { ModelScalar, ScalarKind, ValueReader } from './read-message';

const INTEGER_TEXT = /^-?\d+$/;
const DOUBLE_TEXT = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;
const DOUBLE_WORDS: Readonly<Record<string, number>> = { Infinity: Infinity, '-Infinity': -Infinity };

/** Integers: a JSON number or a numeric string (Mesos accepts both, spec §1.2). */
function readInteger(raw: unknown, path: string): number {
  if (typeof raw === 'number' && Number.isInteger(raw)) return raw;
  if (typeof raw === 'string' && INTEGER_TEXT.test(raw)) return Number(raw);
  throw new MesosCodecError('expected an integer', path);
}

/**
 * 64-bit integers, exactly (int64.ts): a JSON number or a numeric string. The codec quotes integer
 * literals of 16+ digits before `JSON.parse` (json-long-integers.ts), so a `TimeInfo` arrives here
 * as its digits, not as the nearest double.
 */
function readLong(raw: unknown, path: string): Int64 {
  if (typeof raw === 'number' && Number.isInteger(raw)) return int64Of(BigInt(raw), path);
  if (typeof raw === 'string' && INTEGER_TEXT.test(raw)) return int64Of(BigInt(raw), path);
  throw new MesosCodecError('expected an integer', path);
}

/** Doubles: a number, a numeric string, or "Infinity" / "-Infinity" (spec §1.2). */
function readDouble(raw: unknown, path: string): number {
  if (typeof raw === 'number') return raw;
  if (typeof raw === 'string') {
    const word = DOUBLE_WORDS[raw];
    if (word !== undefined) return word;
    if (DOUBLE_TEXT.test(raw)) return Number(raw);
  }
  throw new MesosCodecError('expected a number', path);
}

function readTyped<T>(raw: unknown, type: 'string' | 'boolean', path: string): T {
  if (typeof raw !== type) throw new MesosCodecError(`expected a ${type}`, path);
  return raw as T;
}

/**
 * Leaf values of Mesos's own JSON (stout's converter, not the proto3 mapping; spec §1.2): enums are
 * name strings (a number is an error, an unknown name is dropped), int64 are numbers (numeric
 * strings accepted; read exactly), bytes are padded standard base64.
 */
export const JSON_VALUE_READER: ValueReader = {
  readEnum(raw: unknown, enumType: Enum, path: string): string | undefined {
    if (typeof raw !== 'string') throw new MesosCodecError(`expected a ${enumType.name} name`, path);
    return Object.prototype.hasOwnProperty.call(enumType.values, raw) ? raw : undefined;
  },
  readScalar(kind: ScalarKind, raw: unknown, path: string): ModelScalar {
    switch (kind) {
      case 'int':
        return readInteger(raw, path);
      case 'long':
        return readLong(raw, path);
      case 'double':
        return readDouble(raw, path);
      case 'bytes':
        return decodeBase64(readTyped<string>(raw, 'string', path), path);
      case 'bool':
        return readTyped<boolean>(raw, 'boolean', path);
      case 'string':
        return readTyped<string>(raw, 'string', path);
    }
  },
};
