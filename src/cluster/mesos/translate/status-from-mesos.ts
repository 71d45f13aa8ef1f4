import type { TaskStatus } from '../../../scheduler/model/inputs';
import type { TaskState } from '../../../scheduler/model/task-state';
import type { CheckStatus } from '../../../scheduler/model/checks';
import type { CheckStatusInfo, ContainerStatus, TaskState as MesosTaskState, TaskStatus as MesosTaskStatus } from '../codec/mesos-model';
import { type IpAddress, MAX_IP_ADDRESS_CHARS, MAX_TASK_IP_ADDRESSES } from '../../../scheduler/model/ip-address';
import { UNRECOGNIZED_PREFIX } from '../codec/read-message';
import { uuidFromBytes } from './uuid-bytes';
import { nanosToMs } from './nanos-to-ms';

/**
 * Mesos task state → core task state. The core models the full Mesos set
 * (mesos-v1-scheduler-api.md §6.1), so this is the identity; it is spelled out so that a state
 * added on either side fails to compile here instead of slipping through. What is terminal is
 * the core's business (spec README: TASK_KILLING is not terminal, TASK_LOST and
 * TASK_GONE_BY_OPERATOR are).
 */
export const TASK_STATE_FROM_MESOS: Readonly<Record<MesosTaskState, TaskState>> = {
  TASK_STAGING: 'TASK_STAGING',
  TASK_STARTING: 'TASK_STARTING',
  TASK_RUNNING: 'TASK_RUNNING',
  TASK_KILLING: 'TASK_KILLING',
  TASK_FINISHED: 'TASK_FINISHED',
  TASK_FAILED: 'TASK_FAILED',
  TASK_KILLED: 'TASK_KILLED',
  TASK_ERROR: 'TASK_ERROR',
  TASK_LOST: 'TASK_LOST',
  TASK_DROPPED: 'TASK_DROPPED',
  TASK_UNREACHABLE: 'TASK_UNREACHABLE',
  TASK_GONE: 'TASK_GONE',
  TASK_GONE_BY_OPERATOR: 'TASK_GONE_BY_OPERATOR',
  TASK_UNKNOWN: 'TASK_UNKNOWN',
};

/**
 * The state as a newer Mesos named it, when this pacer's protobuf does not declare it (the codec
 * keeps such a value as `UNRECOGNIZED:<number or name>`); undefined for a known state. Such an
 * update tells nothing pacer can act on: the driver acknowledges it and does not hand it to the
 * core, so the task keeps its last known state (mesos-cluster.ts `onUnknownState`).
 */
export function unknownTaskState(status: MesosTaskStatus): string | undefined {
  return status.state.startsWith(UNRECOGNIZED_PREFIX) ? status.state.slice(UNRECOGNIZED_PREFIX.length) : undefined;
}

/**
 * A Mesos `TaskStatus` (§3.5) as the core's status input. Optional fields are copied only when
 * present — presence, not truthiness, since several zero values are real (§9 traps):
 * `reason` (the Mesos name, e.g. `REASON_AGENT_REMOVED`), `message`, `healthy` (absent = no
 * verdict yet, §7.5), `agentId`; `unreachable_time` (ns, the master's clock, §7.4) as
 * `unreachableSinceMs`, which the unreachable strategy counts from. `uuid` is set only for a non-empty uuid, as base64
 * (uuid-bytes.ts): it is what tells the core to acknowledge (§7.1: never ACK an update without
 * one). Turn it back into bytes with `uuidToBytes` for the ACKNOWLEDGE call. Throws on a state pacer
 * does not know (`unknownTaskState`: the caller keeps such an update from the core). The
 * container's IP addresses are copied when it has any (`ipAddressesOf`); the check's status
 * (`check_status`, §5.5) when present (`checkStatusOf`).
 */
export function statusFromMesos(status: MesosTaskStatus): TaskStatus {
  const unknown = unknownTaskState(status);
  if (unknown !== undefined) throw new Error(`task ${status.taskId.value}: unknown Mesos task state ${unknown}`);
  const state = TASK_STATE_FROM_MESOS[status.state as MesosTaskState];
  const out: { -readonly [K in keyof TaskStatus]: TaskStatus[K] } = { taskId: status.taskId.value, state };
  if (status.agentId !== undefined) out.agentId = status.agentId.value;
  if (status.reason !== undefined) out.reason = status.reason;
  if (status.message !== undefined) out.message = status.message;
  if (status.healthy !== undefined) out.healthy = status.healthy;
  if (status.uuid !== undefined && status.uuid.byteLength > 0) out.uuid = uuidFromBytes(status.uuid);
  if (status.unreachableTime !== undefined) out.unreachableSinceMs = nanosToMs(status.unreachableTime.nanoseconds);
  const ips = ipAddressesOf(status.containerStatus);
  if (ips.length > 0) out.ipAddresses = ips;
  if (status.checkStatus !== undefined) out.checkStatus = checkStatusOf(status.checkStatus);
  return out;
}

/**
 * A `check_status` (§5.5) as the core's check status: each sub-message present kept, with its value
 * when it has one (an empty one: no result yet). `type` is not needed: the sub-message says it.
 * The core judges the values (model/checks.ts `checkResultOf`).
 */
function checkStatusOf(info: CheckStatusInfo): CheckStatus {
  const out: { -readonly [K in keyof CheckStatus]: CheckStatus[K] } = {};
  if (info.command !== undefined) out.command = info.command.exitCode === undefined ? {} : { exitCode: info.command.exitCode };
  if (info.http !== undefined) out.http = info.http.statusCode === undefined ? {} : { statusCode: info.http.statusCode };
  if (info.tcp !== undefined) out.tcp = info.tcp.succeeded === undefined ? {} : { succeeded: info.tcp.succeeded };
  return out;
}

/**
 * The container's addresses: every `network_infos[].ip_addresses[]` entry that names an address,
 * in order, as Marathon resolves them (NetworkInfo.resolveIpAddresses; `protocol` absent is the
 * proto's default, IPv4). Bounded (model/ip-address.ts): the first {@link MAX_TASK_IP_ADDRESSES},
 * and no address longer than {@link MAX_IP_ADDRESS_CHARS} (none is, that is an IP address).
 */
function ipAddressesOf(container: ContainerStatus | undefined): IpAddress[] {
  const out: IpAddress[] = [];
  for (const network of container?.networkInfos ?? []) {
    for (const ip of network.ipAddresses ?? []) {
      const address = ip.ipAddress;
      if (address === undefined || address === '' || address.length > MAX_IP_ADDRESS_CHARS) continue;
      out.push({ ipAddress: address, protocol: ip.protocol === 'IPv6' ? 'IPv6' : 'IPv4' });
      if (out.length === MAX_TASK_IP_ADDRESSES) return out;
    }
  }
  return out;
}
