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

/** Leaf values for protobufjs `encode`: enums as numbers, everything else as in the model. */
export const PROTOBUF_VALUE_WRITER: ValueWriter = {
  writeEnum: enumNumber,
  writeScalar(kind: ScalarKind, value: unknown, path: string): unknown {
    checkModelScalar(kind, value, path);
    return value;
  },
};
