import type { Enum } from 'protobufjs';
import { checkModelScalar } from './check-model-scalar';
import { MesosCodecError } from './mesos-codec-error';
import type { ScalarKind } from './read-message';
import type { ValueWriter } from './write-message';

/** Looks an enum name up, throwing for names the enum does not declare. */
export function enumNumber(name: unknown, enumType: Enum, path: string): number {
  if (typeof name !== 'string' || !Object.prototype.hasOwnProperty.call(enumType.values, name)) {
    throw new MesosCodecError(`unknown ${enumType.name} value ${JSON.stringify(name)}`, path);
  }
  return enumType.values[name] as number;
}

/** A bigint as the `{ low, high }` bits protobufjs writes exactly (its `LongBits.from` takes any Long-like). */
function longBitsOf(value: bigint): { low: number; high: number } {
  const bits = BigInt.asUintN(64, value);
  return { low: Number(bits & 0xffff_ffffn) | 0, high: Number(bits >> 32n) | 0 };
}

/** Leaf values for protobufjs `encode`: enums as numbers, a bigint int64 as its 64 bits, everything else as in the model. */
export const PROTOBUF_VALUE_WRITER: ValueWriter = {
  writeEnum: enumNumber,
  writeScalar(kind: ScalarKind, value: unknown, path: string): unknown {
    checkModelScalar(kind, value, path);
    return typeof value === 'bigint' ? longBitsOf(value) : value;
  },
};
