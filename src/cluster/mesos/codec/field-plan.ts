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
  /** A value this subset does not declare is kept as `UNRECOGNIZED:<number or name>` (`keepsUnrecognized` below). */
  readonly keepsUnrecognized?: boolean;
}

/**
 * Whether a required field of this enum keeps a value this subset does not declare, as
 * `UNRECOGNIZED:<number or name>`, instead of failing the whole message: true for the enums
 * proto/mesos-root.ts opens (TaskState: a state a newer Mesos added must not cost the event
 * stream). Other unknown enum values are dropped (proto2), and a required field then fails.
 */
function keepsUnrecognized(field: Field, enumType: Enum): boolean {
  const features = enumType.getOption('features') as { enum_type?: string } | undefined;
  return field.required && features?.enum_type === 'OPEN';
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
  if (field.resolvedType instanceof Enum) {
    return { ...base, kind: 'enum', enumType: field.resolvedType, ...(keepsUnrecognized(field, field.resolvedType) ? { keepsUnrecognized: true } : {}) };
  }
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
