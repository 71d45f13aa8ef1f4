import type { ApiDeps, ZookeeperFacts } from '../../api-deps';
import { redactCredentials } from '../../../cluster/url-credentials';
import { knownLeader } from '../../known-leader';
import { userInfo } from 'node:os';
import { DEFAULTS as MESOS_DEFAULTS } from '../../../cluster/mesos/mesos-cluster-options';
import { MESOS_BRIDGE_NETWORK } from '../../../cluster/mesos/translate/app-container-info';
import { PROXY_CONNECT_TIMEOUT_MS, PROXY_READ_TIMEOUT_MS } from '../../../ha/leader-proxy';

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
 * and `zookeeper_config` holds its ZooKeeper options. `marathon_config` has every key of fact 93 with
 * its effective value, as Marathon writes its flags (their defaults when not given): pacer's own
 * settings where it has one, Marathon's default where it has none ({@link MARATHON_FLAG_DEFAULTS}),
 * `null` only for flags without a default that are not given; `http_config` has the
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

/**
 * Marathon's flag defaults (`MarathonConf.scala` and the traits it mixes in, 1.11) for keys of
 * `marathon_config` whose flags pacer does not have. Marathon reports every flag with its default
 * when not given (`InfoResource.scala`: scallop's `toOption` holds the default); pacer had written
 * `null` for them, which clients read as "unset". pacer does not act on these: it has no launch
 * tokens (launches are bounded per input instead: `--launches_per_input`), no task launch or
 * reservation timeouts, no offer matching deadline (bounded in counts), and it reconciles and
 * checks scaling on its own schedule (`reconciliation_interval`, `scale_apps_interval` below).
 */
const MARATHON_FLAG_DEFAULTS = {
  launch_token: 100,
  launch_token_refresh_interval: 30_000,
  min_revive_offers_interval: 5_000,
  offer_matching_timeout: 3_000,
  on_elected_prepare_timeout: 180_000,
  reconciliation_initial_delay: 15_000,
  scale_apps_initial_delay: 15_000,
  task_launch_confirm_timeout: 300_000,
  task_launch_timeout: 300_000,
  task_lost_expunge_interval: 30_000,
  task_reservation_timeout: 20_000,
} as const;

function marathonConfig(deps: ApiDeps, host: string): Record<string, unknown> {
  const { config } = deps;
  const framework = config.mesosFramework;
  const options = deps.scheduler.options();
  return {
    // Marathon's flags without a default: null unless given, as Marathon writes them. pacer has
    // no CORS and no prefix for the variables it gives tasks.
    access_control_allow_origin: null,
    env_vars_prefix: null,
    default_network_name: config.defaultNetworkName ?? null,
    // Marathon reports its `--webui_url` flag as given (`config.webuiUrl.toOption`, no default),
    // not the URL its driver derives without it.
    webui_url: config.webuiUrl ?? null,
    // Marathon's is the Mesos leader's UI URL as its driver last learned it (null before);
    // pacer does not learn it.
    mesos_leader_ui_url: null,
    // pacer has no --checkpoint flag: its FrameworkInfo always asks for checkpointing
    // (framework-info.ts), Marathon's default.
    checkpoint: true,
    // Marathon's `--executor` default, the Mesos command executor: the one pacer's apps run on.
    executor: '//cmd',
    // The FrameworkInfo flags (`failover_timeout` in seconds, as Marathon's flag): their values,
    // or Marathon's defaults, which are pacer's (src/cluster/mesos/mesos-cluster-options.ts),
    // when the API is built without them.
    failover_timeout: framework?.failoverTimeoutSeconds ?? MESOS_DEFAULTS.failoverTimeoutSeconds,
    framework_name: framework?.name ?? MESOS_DEFAULTS.frameworkName,
    mesos_user: framework?.user ?? runningUser(),
    features: [...config.features],
    ha: config.zookeeper !== undefined,
    hostname: host,
    // Fact 93: credentials redacted (`zk://xxxxxxxx@host/mesos`), by the one rule of url-credentials.ts.
    master: redactCredentials(config.master),
    mesos_role: config.defaultRole,
    new_group_enforce_role: config.newGroupEnforceRole,
    // What pacer's own settings are, in Marathon's units (milliseconds for durations).
    leader_proxy_connection_timeout_ms: PROXY_CONNECT_TIMEOUT_MS,
    leader_proxy_read_timeout_ms: PROXY_READ_TIMEOUT_MS,
    // The bridge network name pacer gives bridged Mesos containers (Marathon's default).
    mesos_bridge_name: MESOS_BRIDGE_NETWORK,
    // pacer's Mesos driver: the master's heartbeat interval (15 s unless it says otherwise) and
    // the missed heartbeats after which the stream is taken for dead; Marathon's defaults too.
    mesos_heartbeat_interval: MESOS_DEFAULTS.heartbeatIntervalSeconds * 1000,
    mesos_heartbeat_failure_threshold: MESOS_DEFAULTS.heartbeatFailureThreshold,
    // pacer keeps all of its state in memory and writes through: Marathon's store cache, on.
    store_cache: true,
    // The core's effective options.
    decline_offer_duration: options.declineRefuseMs,
    local_port_min: options.localPortMin,
    local_port_max: options.localPortMax,
    max_instances_per_offer: options.maxInstancesPerOffer,
    // `--[disable_]maintenance_mode` as Marathon reports it (InfoResource.scala: the toggle's value;
    // `--draining_seconds` is not among fact 93's keys).
    maintenance_mode: options.maintenanceMode,
    reconciliation_interval: options.reconciliationIntervalMs,
    scale_apps_interval: options.scaleAppsIntervalMs,
    task_lost_expunge_initial_delay: options.taskLostExpungeInitialDelayMs,
    ...MARATHON_FLAG_DEFAULTS,
  };
}

/** The user running pacer (`--mesos_user`'s default, as Marathon's `user.name`); null when the system names none. */
function runningUser(): string | null {
  try {
    return userInfo().username;
  } catch {
    return null;
  }
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
