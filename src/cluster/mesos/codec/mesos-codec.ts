import { CALL_TYPE, EVENT_TYPE } from '../proto/mesos-root';
import { checkCall } from './check-call';
import { decodeMessage, encodeMessage } from './message-codec';
import type { Call, Event, MesosFormat } from './mesos-model';

/**
 * Encodes a scheduler Call as a request body: binary protobuf for `application/x-protobuf`, or
 * Mesos JSON for `application/json` (spec §1.2). Throws MesosCodecError for a call the master
 * would reject outright (see checkCall: no type, no framework id, missing sub-message) or that is
 * malformed (missing required field, unknown enum name, wrong value type).
 */
export function encodeCall(call: Call, format: MesosFormat): Uint8Array {
  checkCall(call);
  return encodeMessage(CALL_TYPE, call, format);
}

/**
 * Decodes one RecordIO record of the SUBSCRIBE stream (spec §1.4) into an Event. An event type
 * this subset does not know reads as `'UNKNOWN'` (log and ignore it, §3); unknown fields are
 * skipped. Malformed records throw MesosCodecError — a fatal stream error: close and resubscribe.
 */
export function decodeEvent(body: Uint8Array, format: MesosFormat): Event {
  const event = decodeMessage(EVENT_TYPE, body, format) as unknown as Partial<Event>;
  return { ...event, type: event.type ?? 'UNKNOWN' };
}

/** Decodes a request body into a Call (a fake master's side of encodeCall). */
export function decodeCall(body: Uint8Array, format: MesosFormat): Call {
  const call = decodeMessage(CALL_TYPE, body, format) as unknown as Partial<Call>;
  return { ...call, type: call.type ?? 'UNKNOWN' };
}

/** Encodes an Event as one record payload (a fake master's side of decodeEvent). */
export function encodeEvent(event: Event, format: MesosFormat): Uint8Array {
  return encodeMessage(EVENT_TYPE, event, format);
}
