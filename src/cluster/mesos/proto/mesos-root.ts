import { Root, type INamespace, type Type } from 'protobufjs';
import { mesosDescriptor } from './descriptor';

/**
 * Enums read as open: a value a newer Mesos added is kept (as its number) instead of being put
 * aside as an unknown field, as proto2's closed enums are. For TaskState this matters because
 * `TaskStatus.state` is required: put aside, the field is missing, protobufjs refuses the whole
 * record, and the driver resubscribes only to be sent the same update again. The codec reads the
 * value as `UNRECOGNIZED:<number>` (codec/field-plan.ts); the `.proto` files stay as Mesos has them.
 */
export const OPEN_ENUMS: readonly string[] = ['mesos.v1.TaskState'];

/** A copy of the descriptor whose named enums have the `enum_type = OPEN` feature (protobufjs reads features once, when the root is built). */
function withOpenEnums(descriptor: INamespace, names: readonly string[]): INamespace {
  const copy = structuredClone(descriptor);
  for (const name of names) {
    let node: INamespace | undefined = copy;
    for (const part of name.split('.')) node = node?.nested?.[part] as INamespace | undefined;
    if (node === undefined) throw new Error(`no enum ${name} in the Mesos descriptor`);
    const options = (node.options ??= {});
    options.features = { ...(options.features as object | undefined), enum_type: 'OPEN' };
  }
  return copy;
}

/**
 * The protobufjs reflection root of pacer's Mesos v1 subset, built once from the generated
 * descriptor (see generate-descriptor.ts for why it is not loaded from the `.proto` files at run
 * time). Field names are the proto names in snake_case.
 */
export const mesosRoot: Root = Root.fromJSON(withOpenEnums(mesosDescriptor, OPEN_ENUMS));

/** `mesos.v1.scheduler.Call`: the body of every request to the master. */
export const CALL_TYPE: Type = mesosRoot.lookupType('mesos.v1.scheduler.Call');

/** `mesos.v1.scheduler.Event`: one RecordIO record of the SUBSCRIBE stream. */
export const EVENT_TYPE: Type = mesosRoot.lookupType('mesos.v1.scheduler.Event');
