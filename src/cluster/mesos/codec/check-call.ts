import { MesosCodecError } from './mesos-codec-error';
import type { Call, CallType, FrameworkID } from './mesos-model';

/** The sub-message each call type must carry (spec §2.0: missing → 400 "Expecting '<name>' to be present"). */
const REQUIRED_PART: Partial<Record<CallType, keyof Call>> = {
  SUBSCRIBE: 'subscribe',
  ACCEPT: 'accept',
  DECLINE: 'decline',
  KILL: 'kill',
  SHUTDOWN: 'shutdown',
  ACKNOWLEDGE: 'acknowledge',
  RECONCILE: 'reconcile',
  UPDATE_FRAMEWORK: 'updateFramework',
};

function sameId(a: FrameworkID | undefined, b: FrameworkID | undefined): boolean {
  return a?.value === b?.value;
}

function checkFrameworkIds(call: Call): void {
  if (call.type !== 'SUBSCRIBE' && call.frameworkId === undefined) {
    throw new MesosCodecError(`a ${call.type} call needs frameworkId (spec §2.0)`, 'Call');
  }
  // §1.8 / §2.13: Call.framework_id and framework_info.id must agree (both absent on a first SUBSCRIBE).
  const info = call.type === 'SUBSCRIBE' ? call.subscribe?.frameworkInfo : call.type === 'UPDATE_FRAMEWORK' ? call.updateFramework?.frameworkInfo : undefined;
  if (info !== undefined && !sameId(call.frameworkId, info.id)) {
    throw new MesosCodecError(`frameworkId and frameworkInfo.id must be equal in ${call.type} (spec §1.8)`, 'Call');
  }
}

/**
 * Rejects calls the master would answer with 400/501 for their envelope alone (spec §1.6, §2.0):
 * no `type` or type UNKNOWN, no `frameworkId` on a non-SUBSCRIBE call, the sub-message of the
 * type missing, or `frameworkId` ≠ `frameworkInfo.id` in SUBSCRIBE / UPDATE_FRAMEWORK. Field-level
 * problems (missing required fields, wrong value types) are caught while encoding.
 */
export function checkCall(call: Call): void {
  if ((call.type as CallType | undefined) === undefined || call.type === 'UNKNOWN') {
    throw new MesosCodecError(`a call needs a type other than UNKNOWN (got ${String(call.type)})`, 'Call');
  }
  checkFrameworkIds(call);
  const part = REQUIRED_PART[call.type];
  if (part !== undefined && call[part] === undefined) {
    throw new MesosCodecError(`a ${call.type} call needs its '${part}' sub-message (spec §2.0)`, 'Call');
  }
}
