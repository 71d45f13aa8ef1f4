import type { MesosDriverMetrics } from '../cluster/mesos/driver-metrics';
import type { Clock } from '../scheduler/ports/clock';
import type { Command, CommandResult } from '../scheduler/model/inputs';
import type { Scheduler } from '../scheduler/index';
import type { MarathonEvent } from '../scheduler/model/events';
import type { WhatIf } from '../whatif/what-if';

/** An event the API layer itself publishes (api_post_event, pod_*_event, …): Marathon's wire shape. */
export interface ApiEvent {
  readonly eventType: string;
  readonly timestamp: string;
  readonly [field: string]: unknown;
}

/** Where API-originated events go: the same stream as the core's events (`/v2/events`). */
export interface EventPublisher {
  publish(event: ApiEvent): void;
}

/** pacer's own build, reported in `/v2/info` `buildref` (`version` there is the Marathon API pacer speaks). */
export interface PacerBuild {
  /** pacer's version (package.json). */
  readonly version: string;
  /** The git commit pacer was started from, or `unknown`. */
  readonly commit: string;
}

/** Static facts and options the API reports or needs (`/v2/info`, validation context). */
export interface ApiConfig {
  /** `--mesos_role`: default role of run specs. */
  readonly defaultRole: string;
  /** `--default_network_name`, if set. */
  readonly defaultNetworkName?: string;
  /** `--new_group_enforce_role`. */
  readonly newGroupEnforceRole: 'off' | 'top';
  /** `host:port` this server is reachable at (`/v2/leader`, `X-Marathon-Leader`). */
  readonly httpAddress: string;
  /**
   * The scheme of `httpAddress` (`X-Marathon-Leader`): `https` only when HTTP is disabled, as
   * Marathon's `LeaderProxyFilter.scala` decides. Absent = `http`.
   */
  readonly leaderScheme?: 'http' | 'https';
  /**
   * `/v2/info` `http_config`: the ports really listened on (the configured one of a listener that
   * is off). Absent = the port of `httpAddress` and Marathon's `--https_port` default.
   */
  readonly listenerPorts?: { readonly http: number | null; readonly https: number };
  /** Largest request body accepted, bytes. */
  readonly bodyLimitBytes: number;
  /**
   * `--[disable_]http_compression`: GET answers of at least 1 KiB gzipped for clients that accept
   * it (compression.ts). Absent = on, Marathon's default.
   */
  readonly httpCompression?: boolean;
  /** pacer's own version and commit (`/v2/info` `buildref`). */
  readonly build: PacerBuild;
  /** Cluster kind: `local`, `sim`, `mesos` (`/v2/info`). */
  readonly clusterKind: string;
  /** Mesos master URL or a description of the cluster (`/v2/info` `marathon_config.master`). */
  readonly master: string;
  /** `--max_running_deployments`. */
  readonly maxRunningDeployments: number;
  /** Whether `/metrics/prometheus` is served. */
  readonly prometheus: boolean;
  /** `--enable_features` as Marathon lists them (`/v2/info`). */
  readonly features: readonly string[];
  /** With `--zk` (several pacers, src/ha): what `/v2/info` reports as `zookeeper_config`; absent, every key is null. */
  readonly zookeeper?: ZookeeperFacts;
  /**
   * The framework flags (`--framework_name`, `--mesos_user`, `--failover_timeout`): on Mesos the
   * FrameworkInfo pacer registers with, on other clusters the flags as given (`/v2/info` reports
   * them as Marathon reports its flags); absent, `/v2/info` reports their defaults.
   */
  readonly mesosFramework?: MesosFrameworkFacts;
  /** `--webui_url` as given (`/v2/info` `webui_url`; null when not given, as Marathon reports its flag). */
  readonly webuiUrl?: string;
}

/** The FrameworkInfo pacer subscribes with, as `/v2/info` `marathon_config` reports it (Marathon's keys). */
export interface MesosFrameworkFacts {
  /** `--framework_name` (`framework_name`). */
  readonly name: string;
  /** `--mesos_user`, or the user running pacer (`mesos_user`); absent = not given off Mesos (`/v2/info` names the user running pacer). */
  readonly user?: string;
  /** `--failover_timeout`, seconds (`failover_timeout`). */
  readonly failoverTimeoutSeconds: number;
}

/** `--zk` and how the ZooKeeper store writes, as `/v2/info` `zookeeper_config` reports them (Marathon's keys). */
export interface ZookeeperFacts {
  /** `--zk` as given; the API hides its credentials. */
  readonly zk: string;
  /** Records above {@link compressionThresholdBytes} are stored gzipped (`zk_compression`). */
  readonly compression: boolean;
  readonly compressionThresholdBytes: number;
  readonly connectionTimeoutMs: number;
  /** Largest znode the store writes; larger records are chunked (`zk_max_node_size`). */
  readonly maxNodeSizeBytes: number;
  /** Versions kept per app, pod and of the root group (`zk_max_versions`). */
  readonly maxVersions: number;
  readonly sessionTimeoutMs: number;
  readonly timeoutMs: number;
}

/**
 * Everything the REST routes need. Routes read through `scheduler`'s queries and change state only
 * through `submit`, which runs the command through the runtime loop at once (Node is single-threaded,
 * so a handler sees the result synchronously) and returns the core's CommandResult.
 */
export interface ApiDeps {
  readonly scheduler: Scheduler;
  submit(command: Command): CommandResult;
  /**
   * Throws Marathon's 403 when the caller may not submit `command` (`--authorization_file`,
   * src/api/authz); `submit` checks too. Absent = everything is allowed.
   */
  readonly authorize?: (command: Command) => void;
  readonly clock: Clock;
  readonly events: EventPublisher;
  readonly config: ApiConfig;
  /** The framework id once subscribed (`/v2/info` `frameworkId`). */
  frameworkId(): string | undefined;
  /** Milliseconds since the process started serving (`/metrics` uptime). */
  uptimeMs(): number;
  /** On Mesos: the driver's counts, read at every `/metrics` snapshot. */
  readonly mesosDriverMetrics?: () => MesosDriverMetrics;
  /**
   * The flight recorder's ring (local and Mesos clusters): `POST /pacer/v1/recording` writes it to
   * a fresh directory; undefined when pacer keeps no ring (`--record_ring 0`).
   */
  readonly recording?: { dump(): { readonly path: string; readonly inputs: number; readonly dropped: number; readonly replayable: boolean } | undefined };
  /**
   * What-if questions on a fork of the live cluster (issue 18, docs/what-if.md): `?dryRun=true&simulate=…`
   * on app, pod and group writes, and `GET /v2/capacity`. Absent: they answer 422 (not available).
   */
  readonly whatIf?: Pick<WhatIf, 'simulate' | 'capacity' | 'limits'>;
  /**
   * With HA (`--zk`, src/ha): the leader's `host:port` as this pacer knows it, undefined when none
   * is known (`X-Marathon-Leader`). Absent: this pacer is the only one and always leads.
   */
  readonly leaderAddress?: () => string | undefined;
  /**
   * With HA: subscribes `listener` to the events of the core that leads now and of every core that
   * leads later here (each term's core is a new object, and a standby has none, so
   * `scheduler.subscribe` would throw or follow one term only); returns the unsubscribe function.
   * Absent: this pacer is the only one, and `scheduler.subscribe` is the same.
   */
  readonly subscribeCore?: (listener: (event: MarathonEvent) => void) => () => void;
  /** With HA: milliseconds since this pacer was last elected (`/metrics`); absent = {@link uptimeMs}. */
  readonly leadershipMs?: () => number;
}
