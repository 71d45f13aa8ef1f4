import type { ClusterKind } from './config';

/** Options that only the Mesos cluster reads (the README's options table says `--cluster mesos`). */
const MESOS_ONLY = [
  '--master', '--framework_name', '--mesos_user', '--failover_timeout', '--webui_url',
  '--mesos_authentication_principal', '--mesos_authentication_secret_file',
  // Only Mesos offers carry maintenance windows (the local and simulated agents have none).
  '--disable_maintenance_mode', '--maintenance_mode', '--draining_seconds',
];

/** Options that only the local cluster reads (the table says "local cluster"). */
const LOCAL_ONLY = [
  '--sandbox', '--local_agents', '--local_agent_ports', '--local_agent_attributes', '--local_agent_domains', '--local_offer_interval', '--local_sandbox_gc_delay', '--local_sandbox_keep',
];

/** Options that only `--cluster sim` reads (the table says "`--cluster sim` only"). */
const SIM_ONLY = ['--workload', '--speed', '--seed'];

/**
 * What `--cluster sim` does not use besides the other clusters' own options: the core there is the
 * workload's (its `options` and the core's defaults) and its state lives in memory, so the
 * scheduler and store flags have no effect (README, "`npm start -- --cluster sim`").
 */
const SIM_IGNORES = [
  '--store', '--store_sync', '--store_min_free', '--mesos_role', '--new_group_enforce_role', '--max_running_deployments', '--max_total_instances',
  '--local_port_min', '--local_port_max', '--gpu_scheduling_behavior', '--max_instances_per_offer',
  '--decline_offer_duration', '--accept_refuse_duration', '--launches_per_input', '--launches_per_offer_batch',
  '--instances_per_input', '--unhealthy_kill_floor', '--record', '--record_ring',
];

const UNUSED: Readonly<Record<ClusterKind, ReadonlySet<string>>> = {
  local: new Set([...MESOS_ONLY, ...SIM_ONLY]),
  mesos: new Set([...LOCAL_ONLY, ...SIM_ONLY]),
  sim: new Set([...MESOS_ONLY, ...LOCAL_ONLY, ...SIM_IGNORES]),
};

/**
 * One warning (logged at start-up, main.ts) naming the given options the chosen cluster does not
 * use, and one naming the ZooKeeper timeouts given without `--zk` (`zk`: whether it was given), or
 * none: pacer accepts them (a config shared between clusters stays valid) but a user who sets
 * `--max_instances_per_offer` over `--cluster sim` should learn that it changed nothing.
 */
export function unusedFlagWarnings(cluster: ClusterKind, given: readonly string[], zk = false): string[] {
  const out: string[] = [];
  const unused = given.filter((flag) => UNUSED[cluster].has(flag));
  const why = cluster === 'sim' ? ' (the workload\'s options set the simulated core; its state is in memory)' : '';
  if (unused.length > 0) out.push(`--cluster ${cluster} does not use ${unused.join(', ')}: ignored${why}`);
  const zkUnused = zk ? [] : given.filter((flag) => ZK_ONLY.includes(flag));
  if (zkUnused.length > 0) out.push(`${zkUnused.join(', ')}: ignored without --zk (ZooKeeper timeouts, of leader election and the store)`);
  return out;
}

/** Options that only a pacer with `--zk` reads, on any cluster. */
const ZK_ONLY = ['--zk_timeout', '--zk_session_timeout'];
