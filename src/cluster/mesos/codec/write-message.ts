import type { Enum, Type } from 'protobufjs';
import { fieldPlans, type FieldPlan } from './field-plan';
import { MesosCodecError } from './mesos-codec-error';
import type { ScalarKind } from './read-message';

/** A message in wire form (snake_case keys), ready for protobufjs `encode` or `JSON.stringify`. */
export type WireMessage = { [wireName: string]: unknown };

/** How one wire format represents leaf values when writing. */
export interface ValueWriter {
  /** The wire form of an enum name; throws MesosCodecError for a name the enum does not have. */
  writeEnum(name: unknown, enumType: Enum, path: string): unknown;
  /** The wire form of a model scalar; throws MesosCodecError when `value` has the wrong shape. */
  writeScalar(kind: ScalarKind, value: unknown, path: string): unknown;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}

function writeValue(plan: FieldPlan, value: unknown, writer: ValueWriter, path: string): unknown {
  if (plan.kind === 'message') {
    if (!isPlainObject(value)) throw new MesosCodecError(`expected a ${plan.messageType?.name} object`, path);
    return writeMessage(plan.messageType as Type, value, writer, path);
  }
  if (plan.kind === 'enum') return writer.writeEnum(value, plan.enumType as Enum, path);
  return writer.writeScalar(plan.kind, value, path);
}

/**
 * Converts a model message (camelCase keys) into wire form (snake_case keys), in declaration
 * order. `undefined`/`null` fields and empty arrays are left out — nothing is written that the
 * caller did not set (no proto2 defaults, spec §4.2). Keys the type does not declare are ignored.
 * A missing required field, an unknown enum name or a value of the wrong type throws
 * MesosCodecError, so a malformed call fails here rather than as a 400 from the master.
 */
export function writeMessage(type: Type, model: Record<string, unknown>, writer: ValueWriter, path: string): WireMessage {
  const wire: WireMessage = {};
  for (const plan of fieldPlans(type)) {
    const value = model[plan.modelName];
    if (value === undefined || value === null) {
      if (plan.required) throw new MesosCodecError(`missing required field '${plan.modelName}'`, path);
    } else {
      const written = writeField(plan, value, writer, `${path}.${plan.modelName}`);
      if (written !== undefined) wire[plan.wireName] = written;
    }
  }
  return wire;
}

function writeField(plan: FieldPlan, value: unknown, writer: ValueWriter, path: string): unknown {
  if (!plan.repeated) return writeValue(plan, value, writer, path);
  if (!Array.isArray(value)) throw new MesosCodecError('expected an array', path);
  return value.length > 0 ? value.map((item: unknown, index) => writeValue(plan, item, writer, `${path}[${index}]`)) : undefined;
}
