/**
 * One IP address of a task's container, as the cluster reported it (Mesos
 * `TaskStatus.container_status.network_infos[].ip_addresses`) and as Marathon writes it in a task's
 * `ipAddresses` and in `status_update_event` (marathon-api-facts.md facts 40 and 107).
 */
export interface IpAddress {
  readonly ipAddress: string;
  readonly protocol: 'IPv4' | 'IPv6';
}

/**
 * How many addresses one status update may give a task, and how long one address may be: the
 * cluster's adapters keep the first {@link MAX_TASK_IP_ADDRESSES} and drop an address longer than
 * {@link MAX_IP_ADDRESS_CHARS} (an IPv6 address with a zone is well under it), so that a report
 * cannot make a task record, the store or every task list large (docs/limits.md).
 */
export const MAX_TASK_IP_ADDRESSES = 16;

/** The longest address kept ({@link MAX_TASK_IP_ADDRESSES}). */
export const MAX_IP_ADDRESS_CHARS = 64;
