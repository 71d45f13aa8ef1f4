/**
 * Normalizers for comparing the protobuf run with the JSON run of the recorded story: the two runs
 * had different masters, so ids, uuids, timestamps and pids differ (samples/README.md).
 */

const UUID_TEXT = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
/** Numbers that differ between runs. */
const RUN_NUMBERS = new Set(['timestamp', 'executorPid']);

/** Replaces run-specific values (uuid text, uuid bytes, timestamps, pids) with placeholders. */
export function maskRunSpecific(value: unknown, key = ''): unknown {
  if (value instanceof Uint8Array) return `<${value.length} bytes>`;
  if (Array.isArray(value)) return value.map((item) => maskRunSpecific(item, key));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, maskRunSpecific(inner, name)]));
  }
  if (typeof value === 'string') return value.replace(UUID_TEXT, '<uuid>');
  if (typeof value === 'number' && RUN_NUMBERS.has(key)) return '<number>';
  return value;
}

/**
 * Adds the `protocol: "IPv4"` that Mesos's JSON writer prints for every unset
 * `NetworkInfo.IPAddress.protocol` (it emits unset fields with an explicit default; the binary
 * leaves them out — samples/README.md surprise 1, spec §1.2 "output quirk").
 */
export function withJsonDefaults(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((item) => withJsonDefaults(item, key));
  if (typeof value === 'object' && value !== null && !(value instanceof Uint8Array)) {
    const object = Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, withJsonDefaults(inner, name)]));
    return key === 'ipAddresses' && !('protocol' in object) ? { protocol: 'IPv4', ...object } : object;
  }
  return value;
}

interface StatusLike { executorId?: { value: string }; containerStatus?: { containerId?: unknown } }

/**
 * Task-group members' updates carry either a full container_status or only its container_id,
 * differently from run to run (samples/README.md surprise 8): compare only the container id there.
 */
export function withGroupContainerIdOnly(event: { update?: { status: StatusLike } }): unknown {
  const status = event.update?.status;
  if (status?.containerStatus === undefined || !status.executorId?.value.startsWith('default-executor')) return event;
  return { ...event, update: { status: { ...status, containerStatus: { containerId: status.containerStatus.containerId } } } };
}
