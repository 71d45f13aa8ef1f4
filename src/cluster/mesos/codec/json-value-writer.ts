import type { Enum } from 'protobufjs';
import { encodeBase64 } from './base64';
import { checkModelScalar } from './check-model-scalar';
import { enumNumber } from './protobuf-value-writer';
import type { ScalarKind } from './read-message';
import type { ValueWriter } from './write-message';

/**
 * Leaf values of Mesos's JSON (spec §1.2): enums as names, 64-bit integers as JSON numbers (a bigint
 * stays a bigint here and is written exactly by `jsonTextWithLongs`), bytes
 * as padded standard base64, infinite doubles as the strings "Infinity" / "-Infinity".
 */
export const JSON_VALUE_WRITER: ValueWriter = {
  writeEnum(name: unknown, enumType: Enum, path: string): unknown {
    enumNumber(name, enumType, path);
    return name;
  },
  writeScalar(kind: ScalarKind, value: unknown, path: string): unknown {
    checkModelScalar(kind, value, path);
    if (kind === 'bytes') return encodeBase64(value as Uint8Array);
    if (kind === 'double' && !Number.isFinite(value)) return (value as number) > 0 ? 'Infinity' : '-Infinity';
    return value;
  },
};
