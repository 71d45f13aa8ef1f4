import type { Enum, Type } from 'protobufjs';
import { fieldPlans, type FieldKind, type FieldPlan } from './field-plan';
import { MesosCodecError } from './mesos-codec-error';

/** How a kept unrecognized enum value starts (field-plan.ts `keepsUnrecognized`; mesos-model.ts `Unrecognized`). */
export const UNRECOGNIZED_PREFIX = 'UNRECOGNIZED:';

/** The non-message, non-enum field kinds. */
export type ScalarKind = Exclude<FieldKind, 'message' | 'enum'>;

/** A model scalar: `number` (integers and doubles), `bigint` (an int64 beyond 2^53, int64.ts), `boolean`, `string` or `Uint8Array`. */
export type ModelScalar = number | bigint | boolean | string | Uint8Array;

/** A message in model form (camelCase keys); the typed views are in mesos-model.ts. */
export type ModelMessage = { [modelName: string]: unknown };

/**
 * How one wire format represents leaf values when reading. Both formats reach the walker as
 * objects keyed by snake_case field names: a protobufjs-decoded message or parsed Mesos JSON.
 */
export interface ValueReader {
  /** The enum's name for a raw value, or `undefined` for a value this subset does not know. */
  readEnum(raw: unknown, enumType: Enum, path: string): string | undefined;
  /** The model value of a scalar; throws MesosCodecError when `raw` has the wrong shape. */
  readScalar(kind: ScalarKind, raw: unknown, path: string): ModelScalar;
}

function isPlainObject(raw: unknown): raw is Record<string, unknown> {
  return typeof raw === 'object' && raw !== null && !Array.isArray(raw) && !(raw instanceof Uint8Array);
}

/**
 * Deepest message nesting accepted. The subset's real depth is about ten (Call → Accept →
 * Operation → LaunchGroup → TaskInfo → ContainerInfo → Volume → Image → …); only a recursive
 * ContainerID chain could go deeper, and a hostile one must not overflow the stack.
 */
const MAX_DEPTH = 64;

function readValue(plan: FieldPlan, raw: unknown, reader: ValueReader, path: string, depth: number): unknown {
  if (plan.kind === 'message') {
    if (!isPlainObject(raw)) throw new MesosCodecError(`expected a ${plan.messageType?.name} message`, path);
    return readMessage(plan.messageType as Type, raw, reader, path, depth + 1);
  }
  if (plan.kind === 'enum') {
    const name = reader.readEnum(raw, plan.enumType as Enum, path);
    return name === undefined && plan.keepsUnrecognized === true ? `${UNRECOGNIZED_PREFIX}${String(raw)}` : name;
  }
  return reader.readScalar(plan.kind, raw, path);
}

function readField(plan: FieldPlan, raw: unknown, reader: ValueReader, path: string, depth: number): unknown {
  if (!plan.repeated) return readValue(plan, raw, reader, path, depth);
  if (!Array.isArray(raw)) throw new MesosCodecError('expected an array', path);
  const values = raw
    .map((item: unknown, index) => readValue(plan, item, reader, `${path}[${index}]`, depth))
    .filter((value) => value !== undefined);
  return values.length > 0 ? values : undefined;
}

/**
 * Converts a wire-shaped message (snake_case keys) into the model (camelCase keys), field by
 * field as the type declares them. Only own, non-null properties count as present, so protobufjs
 * prototype defaults are never materialized (spec §4.2: an echoed `role: "*"` can break an
 * ACCEPT). Unknown keys are ignored and unknown enum values dropped (forward compatible, §1.2) —
 * but kept as `UNRECOGNIZED:<raw>` in the few required fields that say so (field-plan.ts);
 * empty repeated fields are omitted; a missing required field throws MesosCodecError.
 */
export function readMessage(type: Type, source: Record<string, unknown>, reader: ValueReader, path: string, depth = 0): ModelMessage {
  if (depth > MAX_DEPTH) throw new MesosCodecError(`messages nested deeper than ${MAX_DEPTH} levels`, path);
  const model: ModelMessage = {};
  for (const plan of fieldPlans(type)) {
    const raw = Object.prototype.hasOwnProperty.call(source, plan.wireName) ? source[plan.wireName] : undefined;
    const value = raw === undefined || raw === null ? undefined : readField(plan, raw, reader, `${path}.${plan.wireName}`, depth);
    if (value !== undefined) model[plan.modelName] = value;
    else if (plan.required) throw new MesosCodecError(`missing required field '${plan.wireName}'`, path);
  }
  return model;
}
