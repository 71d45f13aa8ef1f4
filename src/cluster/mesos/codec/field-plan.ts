import { Enum, Type, type Field } from 'protobufjs';

/** How a field's values are represented, independent of the wire format. */
export type FieldKind = 'message' | 'enum' | 'double' | 'int' | 'long' | 'bool' | 'string' | 'bytes';

/** Everything the codec walkers need to know about one field, computed once per type. */
export interface FieldPlan {
  /** The proto (and Mesos JSON) name, snake_case. */
  readonly wireName: string;
  /** The model name, camelCase (protobufjs `toObject` style). */
  readonly modelName: string;
  readonly kind: FieldKind;
  readonly repeated: boolean;
  readonly required: boolean;
  /** For `message` fields. */
  readonly messageType?: Type;
  /** For `enum` fields. */
  readonly enumType?: Enum;
}

const plansByType = new WeakMap<Type, readonly FieldPlan[]>();

const SCALAR_KINDS: Readonly<Record<string, FieldKind>> = {
  double: 'double',
  float: 'double',
  int32: 'int',
  uint32: 'int',
  sint32: 'int',
  fixed32: 'int',
  sfixed32: 'int',
  int64: 'long',
  uint64: 'long',
  sint64: 'long',
  fixed64: 'long',
  sfixed64: 'long',
  bool: 'bool',
  string: 'string',
  bytes: 'bytes',
};

/** `framework_id` → `frameworkId`. */
function modelNameOf(wireName: string): string {
  return wireName.replace(/_([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());
}

function planOf(field: Field): FieldPlan {
  field.resolve();
  const base = {
    wireName: field.name,
    modelName: modelNameOf(field.name),
    repeated: field.repeated,
    required: field.required,
  };
  if (field.map) throw new Error(`map field ${field.fullName} is not supported by the Mesos codec`);
  if (field.resolvedType instanceof Type) return { ...base, kind: 'message', messageType: field.resolvedType };
  if (field.resolvedType instanceof Enum) return { ...base, kind: 'enum', enumType: field.resolvedType };
  const kind = SCALAR_KINDS[field.type];
  if (kind === undefined) throw new Error(`field ${field.fullName} has unsupported type ${field.type}`);
  return { ...base, kind };
}

/** The plans of a message type's fields, in declaration order (cached). */
export function fieldPlans(type: Type): readonly FieldPlan[] {
  let plans = plansByType.get(type);
  if (plans === undefined) {
    plans = type.fieldsArray.map(planOf);
    plansByType.set(type, plans);
  }
  return plans;
}
