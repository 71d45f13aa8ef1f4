import { Root, type Type } from 'protobufjs';
import { mesosDescriptor } from './descriptor';

/**
 * The protobufjs reflection root of pacer's Mesos v1 subset, built once from the generated
 * descriptor (see generate-descriptor.ts for why it is not loaded from the `.proto` files at run
 * time). Field names are the proto names in snake_case.
 */
export const mesosRoot: Root = Root.fromJSON(mesosDescriptor);
mesosRoot.resolveAll();

/** `mesos.v1.scheduler.Call`: the body of every request to the master. */
export const CALL_TYPE: Type = mesosRoot.lookupType('mesos.v1.scheduler.Call');

/** `mesos.v1.scheduler.Event`: one RecordIO record of the SUBSCRIBE stream. */
export const EVENT_TYPE: Type = mesosRoot.lookupType('mesos.v1.scheduler.Event');
