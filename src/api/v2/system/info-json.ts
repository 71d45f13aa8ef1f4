import type { ApiDeps, ZookeeperFacts } from '../../api-deps';
import { redactCredentials } from '../../../cluster/url-credentials';
import { knownLeader } from '../../known-leader';

/**
 * The Marathon API version pacer implements, reported as `/v2/info` `version`: Marathon 1.11 at
 * commit 90619da, the reference of marathon-api-facts.md (Marathon's `version` script numbers it
 * 1.11.26: 26 first-parent commits after the 1.11 branch point). Clients gate features on it
 * (several refuse anything older than 0.8.1 or 0.11.0).
 */
export const MARATHON_API_VERSION = '1.11.26';

/** Marathon's `--https_port` default (`HttpConf.scala`), reported when no listener says otherwise. */
export const DEFAULT_HTTPS_PORT = 8443;

/**
 * `GET /v2/info` (fact 93; Marathon's `api/v2/InfoResource.scala`). `name` stays `"marathon"`:
 * clients (DC/OS CLI, go-marathon, marathon-lb, Terraform providers) identify the service by it;
 * `version` is the Marathon API version pacer speaks ({@link MARATHON_API_VERSION}), and
 * `buildref` (Marathon's build commit) names pacer's own version and commit, e.g.
 * `pacer-0.1.0-0123456789ab`. `elected` is whether this pacer leads and `leader` the leader it
 * knows (`null` when none), as Marathon's `electionService.isLeader` / `leaderHostPort`. Without
 * `--zk` pacer is one node that is always the leader and has no ZooKeeper; with `--zk` the leader
 * answers (a standby forwards, as Marathon's does: through a standby too `elected` is the
 * leader's `true`; a request that reached this route as leadership ended gets a standby's 503), `marathon_config.ha` is true
 * and `zookeeper_config` holds its ZooKeeper options. Options it does not have are `null`, as Marathon writes unset options; `http_config` has the
 * ports the listeners really got (`--https_port`, default 8443, when there is no TLS). HTTP callbacks (`event_subscriber`) were removed from
 * Marathon before 1.11 and are not reported. No fields of pacer's own: some client libraries
 * refuse unknown fields (issue 5).
 */
export function infoJson(deps: ApiDeps): Record<string, unknown> {
  const { config } = deps;
  const { host, port } = splitHostPort(config.httpAddress);
  const leader = knownLeader(deps);
  return {
    name: 'marathon',
    version: MARATHON_API_VERSION,
    buildref: `pacer-${config.build.version}-${config.build.commit}`,
    elected: leader !== undefined && leader === config.httpAddress,
    leader: leader ?? null,
    frameworkId: deps.frameworkId() ?? null,
    marathon_config: marathonConfig(deps, host),
    zookeeper_config: config.zookeeper === undefined ? ZOOKEEPER_CONFIG : zookeeperConfig(config.zookeeper),
    http_config: httpConfig(config.listenerPorts ?? { http: port, https: DEFAULT_HTTPS_PORT }),
  };
}

/** Marathon's `InfoResource.scala` httpConfigValues: both ports, whether or not each listens. */
function httpConfig(ports: { readonly http: number | null; readonly https: number }): Record<string, number | null> {
  return { http_port: ports.http, https_port: ports.https };
}

/** Every key of fact 93's `marathon_config`; the ones pacer has are filled in below. */
const UNSET_MARATHON_CONFIG_KEYS = [
  'access_control_allow_origin', 'checkpoint', 'env_vars_prefix', 'executor',
  'failover_timeout', 'framework_name', 'launch_token', 'launch_token_refresh_interval',
  'leader_proxy_connection_timeout_ms', 'leader_proxy_read_timeout_ms', 'mesos_bridge_name', 'mesos_heartbeat_failure_threshold', 'mesos_heartbeat_interval',
  'mesos_leader_ui_url', 'mesos_user', 'min_revive_offers_interval', 'offer_matching_timeout',
  'on_elected_prepare_timeout', 'reconciliation_initial_delay', 'scale_apps_initial_delay',
  'store_cache', 'task_launch_confirm_timeout', 'task_launch_timeout',
  'task_lost_expunge_initial_delay', 'task_lost_expunge_interval', 'task_reservation_timeout',
] as const;

function marathonConfig(deps: ApiDeps, host: string): Record<string, unknown> {
  const { config } = deps;
  const out: Record<string, unknown> = Object.fromEntries(UNSET_MARATHON_CONFIG_KEYS.map((k) => [k, null]));
  out.default_network_name = config.defaultNetworkName ?? null;
  out.features = [...config.features];
  out.ha = config.zookeeper !== undefined;
  out.hostname = host;
  // Fact 93: credentials redacted (`zk://xxxxxxxx@host/mesos`), by the one rule of url-credentials.ts.
  out.master = redactCredentials(config.master);
  out.mesos_role = config.defaultRole;
  // On Mesos, the FrameworkInfo it subscribes with (`failover_timeout` in seconds, as Marathon's flag).
  if (config.mesosFramework !== undefined) {
    out.framework_name = config.mesosFramework.name;
    out.mesos_user = config.mesosFramework.user;
    out.failover_timeout = config.mesosFramework.failoverTimeoutSeconds;
    // pacer has no --checkpoint flag: its FrameworkInfo always asks for checkpointing (framework-info.ts).
    out.checkpoint = true;
  }
  // Marathon reports its `--webui_url` flag as given (InfoResource.scala: `config.webuiUrl.toOption`),
  // not the URL its driver derives without it.
  out.webui_url = config.webuiUrl ?? null;
  out.new_group_enforce_role = config.newGroupEnforceRole;
  // The core's effective options, in Marathon's units (milliseconds for durations).
  const options = deps.scheduler.options();
  out.decline_offer_duration = options.declineRefuseMs;
  out.local_port_min = options.localPortMin;
  out.local_port_max = options.localPortMax;
  out.max_instances_per_offer = options.maxInstancesPerOffer;
  // `--[disable_]maintenance_mode` as Marathon reports it (InfoResource.scala: the toggle's value;
  // `--draining_seconds` is not among fact 93's keys).
  out.maintenance_mode = options.maintenanceMode;
  out.reconciliation_interval = options.reconciliationIntervalMs;
  out.scale_apps_interval = options.scaleAppsIntervalMs;
  return out;
}

/** Fact 93's `zookeeper_config` with `--zk` (Marathon's `InfoResource.scala`: its ZooKeeper options, durations in ms, the URL's credentials hidden). */
function zookeeperConfig(zk: ZookeeperFacts): Record<string, unknown> {
  return {
    zk: redactCredentials(zk.zk),
    zk_compression: zk.compression,
    zk_compression_threshold: zk.compressionThresholdBytes,
    zk_connection_timeout: zk.connectionTimeoutMs,
    zk_max_node_size: zk.maxNodeSizeBytes,
    zk_max_versions: zk.maxVersions,
    zk_session_timeout: zk.sessionTimeoutMs,
    zk_timeout: zk.timeoutMs,
  };
}

/** Fact 93's `zookeeper_config` keys without `--zk`: pacer uses no ZooKeeper. */
const ZOOKEEPER_CONFIG: Readonly<Record<string, null>> = Object.fromEntries(
  ['zk', 'zk_compression', 'zk_compression_threshold', 'zk_connection_timeout', 'zk_max_node_size', 'zk_max_versions',
    'zk_session_timeout', 'zk_timeout'].map((k) => [k, null]),
);


/** `127.0.0.1:8080` → host and numeric port (null when there is none); `[::1]:8080` keeps the brackets. */
export function splitHostPort(address: string): { host: string; port: number | null } {
  const colon = address.lastIndexOf(':');
  if (colon < 0 || address.endsWith(']')) return { host: address, port: null };
  const port = Number(address.slice(colon + 1));
  return { host: address.slice(0, colon), port: Number.isInteger(port) ? port : null };
}
