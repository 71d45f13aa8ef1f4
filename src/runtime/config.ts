import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { LOG_FORMATS, LOGGING_LEVELS, type LogFormat, type LoggingLevel } from './pacer-log';
import { DEFAULT_REALM } from '../api/auth/auth-options';
import { DEFAULT_LOGIN_FAILURE_WINDOW_MS, DEFAULT_LOGIN_FAILURES } from '../api/auth/login-guard';
import { DEFAULT_SCRYPT_RUNS, MAX_SCRYPT_WAITING } from '../api/auth/scrypt-gate';
import { parseHttpCredentials } from '../api/auth/http-credentials';
import { DEFAULT_OFFER_INTERVAL_MS, DEFAULT_SANDBOX_GC_DELAY_MS, DEFAULT_SANDBOX_KEEP, type AgentDomain } from '../cluster/local/local-cluster-options';
import { DEFAULT_MAX_TOTAL_INSTANCES, DEFAULT_SCHEDULER_OPTIONS, MAX_TOTAL_INSTANCES, parseFloorCapacity, roleNameProblem } from '../scheduler/index';
import { DEFAULT_RING_INPUTS } from './recording/flight-recorder';
import { DEFAULT_STORE_MIN_FREE_BYTES } from '../store/sqlite/store-write-guard';
import { parseZkUrl, unsupportedZkUrlProblem } from '../cluster/mesos/zk/zk-url';
import { DEFAULTS as MESOS_DEFAULTS } from '../cluster/mesos/mesos-cluster-options';
import { redactUrlValue } from '../cluster/url-credentials';
import { masterBaseUrl } from '../cluster/mesos/transport/leader-url';
import { agentPortsProblem, perAgentProblem, DEFAULT_FIRST_AGENT_PORT, DEFAULT_PORTS_PER_AGENT, MAX_LOCAL_AGENTS } from '../cluster/local/local-agent';
import { attributeFromText, MAX_ATTRIBUTE_CHARS } from '../cluster/local/agent-attribute-text';
import type { PortRange } from '../scheduler/model/resources';
import { MAX_INSTANCES } from '../scheduler/model/run-spec-limits';

/** Which cluster the scheduler runs against. */
export type ClusterKind = 'local' | 'sim' | 'mesos';

/** Marathon's `--gpu_scheduling_behavior` values (`GpuSchedulingBehavior.scala`; `undefined` was removed in 1.9). */
export type GpuSchedulingBehavior = 'restricted' | 'unrestricted';

/** Everything `npm start` can be told, from flags or `PACER_*` environment variables. */
export interface PacerConfig {
  readonly cluster: ClusterKind;
  readonly address: string;
  readonly port: number;
  /** The embedded store file (SQLite). */
  readonly storePath: string;
  readonly storeSynchronous: 'NORMAL' | 'FULL';
  /** `--store_min_free` (MiB on the flag): API changes are refused (503) while the store's file system has less free (0: not checked). */
  readonly storeMinFreeBytes: number;
  /** Local cluster: sandbox directory and agent count. */
  readonly sandboxRoot: string;
  readonly localAgents: number;
  /**
   * `--local_agent_ports BEGIN-END`: the host ports the local agents offer, split evenly among
   * them; undefined: the default, 31000 upward, 1000 per agent (local-agent.ts `defaultAgentPorts`).
   */
  readonly localAgentPorts?: PortRange;
  /**
   * `--local_agent_attributes`: the local agents' attributes (what constraints match on) as their
   * texts, typed when the agents are made (agent-attribute-text.ts), one list for every agent or
   * one per agent in order; undefined: none.
   */
  readonly localAgentAttributes?: readonly Readonly<Record<string, string>>[];
  /**
   * `--local_agent_domains`: the local agents' fault domains (`@region`, `@zone`), one for every
   * agent or one per agent in order; undefined: none, as a Mesos agent without `--domain`.
   */
  readonly localAgentDomains?: readonly AgentDomain[];
  /** `--mesos_role`. */
  readonly defaultRole: string;
  /** `--framework_name` (Marathon's default `marathon`): FrameworkInfo.name in SUBSCRIBE. */
  readonly frameworkName: string;
  /** `--mesos_user`: FrameworkInfo.user, the Unix user tasks run as; undefined: the user running pacer (Marathon's default). */
  readonly mesosUser?: string;
  /** `--failover_timeout` (seconds; Marathon's default 604800, one week): how long the master keeps the tasks of a disconnected pacer. */
  readonly failoverTimeoutSeconds: number;
  readonly newGroupEnforceRole: 'off' | 'top';
  readonly maxRunningDeployments: number;
  /** `--max_total_instances` (pacer's own): the most instances the root may ask for, all apps and pods together. */
  readonly maxTotalInstances: number;
  /** `--local_port_min` / `--local_port_max`: the range of apps' dynamic service ports. */
  readonly localPortMin: number;
  readonly localPortMax: number;
  /** `--gpu_scheduling_behavior`: `restricted` keeps work without GPUs off agents that have GPUs. */
  readonly gpuSchedulingBehavior: GpuSchedulingBehavior;
  /**
   * `--[disable_]maintenance_mode` (Marathon's toggle, on by default): offers of agents in their
   * maintenance window (Mesos `Offer.unavailability`) launch nothing and are declined.
   */
  readonly maintenanceMode: boolean;
  /** `--draining_seconds` (Marathon's default 0): how many seconds before its window starts an agent's offers stop being used. */
  readonly drainingSeconds: number;
  /** Offer handling: `--max_instances_per_offer`, `--decline_offer_duration`, `--accept_refuse_duration` (ms). */
  readonly maxInstancesPerOffer: number;
  readonly declineOfferDurationMs: number;
  readonly acceptRefuseDurationMs: number;
  /**
   * pacer's own bounds on one input of the core (issue 11 item 4: a big change must not block the
   * loop): `--launches_per_input`, `--launches_per_offer_batch`, `--instances_per_input`
   * (SchedulerOptions `launchesPerInput`, `launchesPerOfferBatch`, `instancesPerInput`).
   */
  readonly launchesPerInput: number;
  readonly launchesPerOfferBatch: number;
  readonly instancesPerInput: number;
  /** Local cluster: `--local_offer_interval` (ms), how often free resources are offered. */
  readonly localOfferIntervalMs: number;
  /** Local cluster: `--local_sandbox_gc_delay` (ms), how long a finished task's sandbox is kept (a Mesos agent's `--gc_delay`). */
  readonly localSandboxGcDelayMs: number;
  /** Local cluster: `--local_sandbox_keep`, the most finished sandboxes kept (the oldest go first). */
  readonly localSandboxKeep: number;
  readonly features: readonly string[];
  /** `--unhealthy_kill_floor`: share (0–1) of an app's instances unhealthy kills leave running; absent: its minimumHealthCapacity. */
  readonly unhealthyKillFloor?: number;
  readonly defaultNetworkName?: string;
  readonly bodyLimitBytes: number;
  /** Simulated cluster: workload file, speed, seed. */
  readonly workload: string;
  readonly speed: number;
  readonly seed?: number;
  readonly master?: string;
  /** `--log_format`: log records for people (`text`) or one JSON object per line (`json`); undefined: `text` on a terminal, else `json`. */
  readonly logFormat?: LogFormat;
  /** `--log_level`, or Marathon's `--logging_level` (Marathon's values). */
  readonly loggingLevel: LoggingLevel;
  /** `--http_credentials`: `user:password[,…]` (Marathon's flag; pacer takes a list). */
  readonly httpCredentials?: string;
  /** `--http_credentials_file`: `user:<scrypt hash>` lines, reloaded when changed. */
  readonly httpCredentialsFile?: string;
  /** `--http_tokens_file`: `principal:token` lines, reloaded when changed. */
  readonly httpTokensFile?: string;
  /** `--http_realm` (Marathon's default `Mesosphere`). */
  readonly httpRealm: string;
  /** `--http_auth_open_paths`: routes served without credentials (default `/ping`). */
  readonly httpAuthOpenPaths: readonly string[];
  /** `--http_auth_failures`: failed logins a client address may make per window before it is answered 429 (0: not limited). */
  readonly httpAuthFailures: number;
  /** `--http_auth_failure_window`: ms those failures are counted in, from the first. */
  readonly httpAuthFailureWindowMs: number;
  /** `--http_auth_scrypt_runs`: password checks (scrypt) run at once. */
  readonly httpAuthScryptRuns: number;
  /** `--authorization_file`: who may do what where (src/api/authz), reloaded when changed. */
  readonly authorizationFile?: string;
  /** `--ssl_cert` / `--ssl_key`: PEM files; both set = HTTPS on `httpsPort`. */
  readonly sslCert?: string;
  readonly sslKey?: string;
  /** `--https_port` (Marathon's default 8443; 0 picks a free one). */
  readonly httpsPort: number;
  /** `--disable_http`: HTTPS only. */
  readonly disableHttp: boolean;
  /**
   * `--[disable_]http_compression` (Marathon's toggle, on by default, `HttpConf.scala`): GET
   * answers of at least 1 KiB are gzipped for clients that accept it (src/api/compression.ts).
   */
  readonly httpCompression: boolean;
  /** `--mesos_authentication_principal`: FrameworkInfo.principal and the basic-auth user toward the master. */
  readonly mesosAuthenticationPrincipal?: string;
  /** `--mesos_authentication_secret_file`: the file holding the principal's secret. */
  readonly mesosAuthenticationSecretFile?: string;
  /** `--record DIR`: the flight recorder writes every input of the core to `DIR/recording.jsonl`. */
  readonly recordDir?: string;
  /** `--record_ring N`: inputs the always-on ring keeps (`POST /pacer/v1/recording` writes it). */
  readonly recordRingInputs: number;
  /**
   * `--zk`: `zk://[user:pass@]host:port[,host:port…]/path`; several pacers elect a leader under
   * `<path>/leader` and keep their state under `<path>/state` (src/ha, src/store/zk).
   */
  readonly zk?: string;
  /** `--zk_timeout` (ms; Marathon's default 10000): how long one ZooKeeper operation (and connecting) may take. */
  readonly zkTimeoutMs: number;
  /** `--zk_session_timeout` (ms; Marathon's default 10000): how soon a silent leader loses its session. */
  readonly zkSessionTimeoutMs: number;
  /**
   * `--hostname`: the host this pacer advertises to the others (default: `--address`) and, on
   * Mesos, FrameworkInfo.hostname (default: this machine's name, as Marathon's `--hostname`).
   */
  readonly hostname?: string;
  /** `--webui_url`: FrameworkInfo.webui_url, the link the Mesos master's UI shows (default: derived, start-mesos.ts `frameworkAddressOf`). */
  readonly webuiUrl?: string;
}

/** One option: its flag, environment variable, and how it is read into the config. */
interface OptionSpec {
  readonly flag: string;
  readonly env: string;
  readonly help: string;
  /** A switch: given alone it means `true` (`--disable_http`); `--flag=false` and `PACER_X=false` turn it off. */
  readonly boolean?: true;
  /**
   * How an error echoes the value: `url` hides a URL's credentials (`--master`, `--zk`:
   * url-credentials.ts), `secret` the whole value (`--http_credentials`). Default: as given.
   */
  readonly echo?: 'url' | 'secret';
  readonly apply: (config: Mutable<PacerConfig>, value: string, cwd: string) => string | undefined;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Longest `--framework_name` (Mesos sets none; the master's UI and logs show it whole). */
export const MAX_FRAMEWORK_NAME_LENGTH = 256;
/** Longest `--mesos_user` (Linux user names are at most 32 characters; a directory service may allow more). */
export const MAX_MESOS_USER_LENGTH = 256;
/** Longest `--webui_url` (Mesos sets none; a URL this long is a mistake). */
export const MAX_WEBUI_URL_LENGTH = 2048;
/** Longest `--failover_timeout`: ten years, in seconds (Marathon's default is one week). */
export const MAX_FAILOVER_TIMEOUT_S = 10 * 365 * 24 * 3600;

const YEAR_MS = 365 * 24 * 3600 * 1000;
/** Mesos caps a refuse filter at 365 days (mesos-v1-scheduler-api.md §2.3). */
const MAX_FILTER_MS = YEAR_MS;
/** Longest `--draining_seconds`: ten years (Marathon takes any Long; its default is 0). */
export const MAX_DRAINING_S = MAX_FAILOVER_TIMEOUT_S;
/** Bounds of `--local_sandbox_gc_delay` (a year) and `--local_sandbox_keep`. */
const MAX_SANDBOX_GC_DELAY_MS = YEAR_MS;
const MAX_SANDBOX_KEEP = 1_000_000;

/**
 * pacer's defaults of `--launches_per_input` and `--instances_per_input`, smaller than the core's
 * (2,000, which the simulator's scenarios keep): one input of 250 placements or 500 creations
 * takes a few ms on a quiet machine and stays within 100 ms of event-loop delay on the project's
 * loaded 2-core machine (bench:scale-lag, bench/README.md). Placement throughput is unchanged:
 * a batch of offers still places up to `--launches_per_offer_batch`, over several inputs.
 */
export const DEFAULT_LAUNCHES_PER_INPUT = 250;
export const DEFAULT_INSTANCES_PER_INPUT = 500;

/**
 * The names `--enable_features` takes: Marathon 1.11's (`Features.availableFeatures`: vips,
 * task_killing, external_volumes, secrets, gpu_resources). pacer acts on task_killing and
 * gpu_resources; as Marathon, the API refuses an app's GPUs without gpu_resources, secrets
 * without secrets and external volumes without external_volumes (`marathon/convert/feature-rules.ts`);
 * vips is accepted and changes nothing.
 */
export const MARATHON_FEATURES: readonly string[] = ['vips', 'task_killing', 'external_volumes', 'secrets', 'gpu_resources'];

const MIB = 1024 * 1024;

/** Largest `--store_min_free`, in MiB (1 TiB). */
const MAX_STORE_MIN_FREE_MIB = 1024 * 1024;

/** Most attributes of one local agent (`--local_agent_attributes`). */
export const MAX_AGENT_ATTRIBUTES = 32;

const OPTIONS: readonly OptionSpec[] = [
  { flag: '--cluster', env: 'PACER_CLUSTER', help: 'local (default) | sim | mesos', apply: (c, v) => oneOf(v, ['local', 'sim', 'mesos'], (k) => { c.cluster = k as ClusterKind; }) },
  { flag: '--address', env: 'PACER_ADDRESS', help: 'address the API listens on (default 127.0.0.1)', apply: (c, v) => { c.address = v; return undefined; } },
  { flag: '--port', env: 'PACER_PORT', help: 'API port (default 8080; 0 picks a free one)', apply: (c, v) => intIn(v, 0, 65535, (n) => { c.port = n; }) },
  { flag: '--store', env: 'PACER_STORE', help: 'embedded store file (default .pacer/pacer.db)', apply: (c, v, cwd) => { c.storePath = resolve(cwd, v); return undefined; } },
  { flag: '--store_sync', env: 'PACER_STORE_SYNC', help: 'NORMAL (default; survives kill -9) | FULL (also power loss)', apply: (c, v) => oneOf(v.toUpperCase(), ['NORMAL', 'FULL'], (k) => { c.storeSynchronous = k as 'NORMAL' | 'FULL'; }) },
  { flag: '--store_min_free', env: 'PACER_STORE_MIN_FREE', help: `MiB the store's file system must keep free for API changes to be taken; below it they are answered 503 (default ${DEFAULT_STORE_MIN_FREE_BYTES / MIB}; 0 to ${MAX_STORE_MIN_FREE_MIB}; 0: not checked)`, apply: (c, v) => intIn(v, 0, MAX_STORE_MIN_FREE_MIB, (n) => { c.storeMinFreeBytes = n * MIB; }) },
  { flag: '--sandbox', env: 'PACER_SANDBOX', help: 'local cluster: task sandboxes (default .pacer/sandboxes)', apply: (c, v, cwd) => { c.sandboxRoot = resolve(cwd, v); return undefined; } },
  { flag: '--local_agents', env: 'PACER_LOCAL_AGENTS', help: 'local cluster: number of agents sharing this host (default 1)', apply: (c, v) => intIn(v, 1, MAX_LOCAL_AGENTS, (n) => { c.localAgents = n; }) },
  { flag: '--local_agent_ports', env: 'PACER_LOCAL_AGENT_PORTS', help: `local cluster: BEGIN-END, host ports the agents offer, split evenly among them (default ${DEFAULT_FIRST_AGENT_PORT} upward, ${DEFAULT_PORTS_PER_AGENT} per agent); two pacers on one host need ranges that do not overlap`, apply: (c, v) => portRange(v, (r) => { c.localAgentPorts = r; }) },
  { flag: '--local_agent_attributes', env: 'PACER_LOCAL_AGENT_ATTRIBUTES', help: `local cluster: the agents' attributes, as a Mesos agent's --attributes: NAME:VALUE;NAME:VALUE (every agent), or one such list per agent separated by | ('rack:r1;level:10|rack:r2;level:12'); a value is typed as Mesos types it: [b-e,…] ranges, {a,…} a set, a number a scalar, else text; names, text and set items of [a-zA-Z0-9_/.-], at most ${MAX_ATTRIBUTE_CHARS} characters each, no blanks, ${MAX_AGENT_ATTRIBUTES} per agent (default: none)`, apply: (c, v) => agentAttributes(v, (lists) => { c.localAgentAttributes = lists; }) },
  { flag: '--local_agent_domains', env: 'PACER_LOCAL_AGENT_DOMAINS', help: `local cluster: the agents' fault domains, which @region and @zone constraints read (a Mesos agent's --domain): REGION/ZONE (every agent), or one per agent separated by | ('eu/eu-1|eu/eu-2|us/us-1'); names of [a-zA-Z0-9_.-], at most ${MAX_ATTRIBUTE_CHARS} characters (default: none)`, apply: (c, v) => agentDomains(v, (domains) => { c.localAgentDomains = domains; }) },
  { flag: '--mesos_role', env: 'PACER_MESOS_ROLE', help: 'default role of apps and pods (default *; a role name as an app\'s role: not . or .., no leading -, no blanks or /)', apply: (c, v) => mesosRole(c, v) },
  { flag: '--new_group_enforce_role', env: 'PACER_NEW_GROUP_ENFORCE_ROLE', help: 'off (default) | top', apply: (c, v) => oneOf(v, ['off', 'top'], (k) => { c.newGroupEnforceRole = k as 'off' | 'top'; }) },
  { flag: '--max_running_deployments', env: 'PACER_MAX_RUNNING_DEPLOYMENTS', help: 'cap on running deployments (default 100)', apply: (c, v) => intIn(v, 1, 100_000, (n) => { c.maxRunningDeployments = n; }) },
  { flag: '--max_total_instances', env: 'PACER_MAX_TOTAL_INSTANCES', help: `most instances all apps and pods together may ask for; a change that would ask for more, and more than before, is 422 (default ${DEFAULT_MAX_TOTAL_INSTANCES})`, apply: (c, v) => intIn(v, 1, MAX_TOTAL_INSTANCES, (n) => { c.maxTotalInstances = n; }) },
  { flag: '--local_port_min', env: 'PACER_LOCAL_PORT_MIN', help: 'lowest dynamic service port of apps (default 10000)', apply: (c, v) => intIn(v, 1, 65535, (n) => { c.localPortMin = n; }) },
  { flag: '--local_port_max', env: 'PACER_LOCAL_PORT_MAX', help: 'highest dynamic service port of apps (default 20000)', apply: (c, v) => intIn(v, 1, 65535, (n) => { c.localPortMax = n; }) },
  { flag: '--gpu_scheduling_behavior', env: 'PACER_GPU_SCHEDULING_BEHAVIOR', help: 'restricted (default; no GPU-less work on GPU agents) | unrestricted', apply: (c, v) => gpuBehavior(c, v) },
  { flag: '--max_instances_per_offer', env: 'PACER_MAX_INSTANCES_PER_OFFER', help: `most instances launched on one offer (default ${DEFAULT_SCHEDULER_OPTIONS.maxInstancesPerOffer})`, apply: (c, v) => intIn(v, 1, 1_000_000, (n) => { c.maxInstancesPerOffer = n; }) },
  { flag: '--decline_offer_duration', env: 'PACER_DECLINE_OFFER_DURATION', help: `ms an agent whose offer was declined is not offered again (default ${DEFAULT_SCHEDULER_OPTIONS.declineRefuseMs})`, apply: (c, v) => intIn(v, 0, MAX_FILTER_MS, (n) => { c.declineOfferDurationMs = n; }) },
  { flag: '--accept_refuse_duration', env: 'PACER_ACCEPT_REFUSE_DURATION', help: `ms the unused rest of an accepted offer is refused (default ${DEFAULT_SCHEDULER_OPTIONS.acceptRefuseMs})`, apply: (c, v) => intIn(v, 0, MAX_FILTER_MS, (n) => { c.acceptRefuseDurationMs = n; }) },
  { flag: '--disable_maintenance_mode', env: 'PACER_DISABLE_MAINTENANCE_MODE', boolean: true, help: 'mesos: a switch: use offers of agents in a maintenance window too (Marathon\'s flag; default: maintenance mode on, such offers launch nothing and are declined)', apply: (c, v) => bool(v, (b) => { c.maintenanceMode = !b; }) },
  { flag: '--maintenance_mode', env: 'PACER_MAINTENANCE_MODE', boolean: true, help: 'mesos: a switch: maintenance mode on (the default; Marathon\'s other spelling of the toggle)', apply: (c, v) => bool(v, (b) => { c.maintenanceMode = b; }) },
  { flag: '--draining_seconds', env: 'PACER_DRAINING_SECONDS', help: `mesos: seconds before an agent's maintenance window starts that its offers stop being used (default 0; 0 to ${MAX_DRAINING_S}; no effect with --disable_maintenance_mode)`, apply: (c, v) => intIn(v, 0, MAX_DRAINING_S, (n) => { c.drainingSeconds = n; }) },
  { flag: '--launches_per_input', env: 'PACER_LAUNCHES_PER_INPUT', help: `most instances one input of the core places; offers it did not get to are matched by the next inputs (default ${DEFAULT_LAUNCHES_PER_INPUT})`, apply: (c, v) => intIn(v, 1, MAX_INSTANCES, (n) => { c.launchesPerInput = n; }) },
  { flag: '--launches_per_offer_batch', env: 'PACER_LAUNCHES_PER_OFFER_BATCH', help: `most instances placed from one batch of offers, over the inputs that match it; its offers left are declined to come back in 5 s (default ${DEFAULT_SCHEDULER_OPTIONS.launchesPerOfferBatch})`, apply: (c, v) => intIn(v, 1, MAX_INSTANCES, (n) => { c.launchesPerOfferBatch = n; }) },
  { flag: '--instances_per_input', env: 'PACER_INSTANCES_PER_INPUT', help: `most instances one input of the core creates, kills for a delete or reconciles; the rest follow in the next inputs (default ${DEFAULT_INSTANCES_PER_INPUT})`, apply: (c, v) => intIn(v, 1, MAX_INSTANCES, (n) => { c.instancesPerInput = n; }) },
  { flag: '--local_offer_interval', env: 'PACER_LOCAL_OFFER_INTERVAL', help: `local cluster: ms between offers of free resources (default ${DEFAULT_OFFER_INTERVAL_MS})`, apply: (c, v) => intIn(v, 1, 60_000, (n) => { c.localOfferIntervalMs = n; }) },
  { flag: '--local_sandbox_gc_delay', env: 'PACER_LOCAL_SANDBOX_GC_DELAY', help: `local cluster: ms a finished task's sandbox is kept, as a Mesos agent's --gc_delay (default ${DEFAULT_SANDBOX_GC_DELAY_MS}, one week; 0 to ${MAX_SANDBOX_GC_DELAY_MS}, a year)`, apply: (c, v) => intIn(v, 0, MAX_SANDBOX_GC_DELAY_MS, (n) => { c.localSandboxGcDelayMs = n; }) },
  { flag: '--local_sandbox_keep', env: 'PACER_LOCAL_SANDBOX_KEEP', help: `local cluster: most finished sandboxes kept, the oldest removed first (default ${DEFAULT_SANDBOX_KEEP}; 0 to ${MAX_SANDBOX_KEEP})`, apply: (c, v) => intIn(v, 0, MAX_SANDBOX_KEEP, (n) => { c.localSandboxKeep = n; }) },
  { flag: '--unhealthy_kill_floor', env: 'PACER_UNHEALTHY_KILL_FLOOR', help: 'share (0 to 1) of an app\'s instances unhealthy kills leave running (default: its upgradeStrategy.minimumHealthCapacity; label PACER_UNHEALTHY_KILL_FLOOR wins)', apply: (c, v) => share(v, (n) => { c.unhealthyKillFloor = n; }) },
  { flag: '--enable_features', env: 'PACER_ENABLE_FEATURES', help: `comma list of ${MARATHON_FEATURES.join(', ')}`, apply: (c, v) => features(c, v) },
  { flag: '--default_network_name', env: 'PACER_DEFAULT_NETWORK_NAME', help: 'name given to container networks declared without one', apply: (c, v) => { c.defaultNetworkName = v; return undefined; } },
  { flag: '--http_max_body', env: 'PACER_HTTP_MAX_BODY', help: 'largest request body in bytes (default 1048576)', apply: (c, v) => intIn(v, 1024, 1 << 30, (n) => { c.bodyLimitBytes = n; }) },
  { flag: '--master', env: 'PACER_MASTER', echo: 'url', help: 'mesos: http://host:5050 or zk://host:2181/mesos', apply: (c, v) => masterUrl(c, v) },
  // Authentication and TLS of the API (Marathon's `HttpConf.scala`; files are pacer's own).
  { flag: '--http_credentials', env: 'PACER_HTTP_CREDENTIALS', echo: 'secret', help: 'user:password[,user2:password2]: HTTP basic auth for the API', apply: (c, v) => httpCredentials(c, v) },
  { flag: '--http_credentials_file', env: 'PACER_HTTP_CREDENTIALS_FILE', help: 'file of user:<scrypt hash> lines (npm run passwd -- USER); reloaded when changed', apply: (c, v, cwd) => { c.httpCredentialsFile = resolve(cwd, v); return undefined; } },
  { flag: '--http_tokens_file', env: 'PACER_HTTP_TOKENS_FILE', help: 'file of principal:token lines for bearer tokens; reloaded when changed', apply: (c, v, cwd) => { c.httpTokensFile = resolve(cwd, v); return undefined; } },
  { flag: '--http_realm', env: 'PACER_HTTP_REALM', help: 'realm of the 401 challenge (default Mesosphere)', apply: (c, v) => { c.httpRealm = v; return undefined; } },
  { flag: '--http_auth_open_paths', env: 'PACER_HTTP_AUTH_OPEN_PATHS', help: 'comma list of routes served without credentials (default /ping; empty: none)', apply: (c, v) => openPaths(c, v) },
  { flag: '--http_auth_failures', env: 'PACER_HTTP_AUTH_FAILURES', help: `failed logins a client address may make within --http_auth_failure_window; its next attempts there are answered 429 without a check (default ${DEFAULT_LOGIN_FAILURES}; 0 to 1000000; 0: not limited)`, apply: (c, v) => intIn(v, 0, 1_000_000, (n) => { c.httpAuthFailures = n; }) },
  { flag: '--http_auth_failure_window', env: 'PACER_HTTP_AUTH_FAILURE_WINDOW', help: `ms failed logins are counted in, from an address's first (default ${DEFAULT_LOGIN_FAILURE_WINDOW_MS}; 1000 to 3600000)`, apply: (c, v) => intIn(v, 1000, 3_600_000, (n) => { c.httpAuthFailureWindowMs = n; }) },
  { flag: '--http_auth_scrypt_runs', env: 'PACER_HTTP_AUTH_SCRYPT_RUNS', help: `password checks of the credentials file (scrypt, ~0.1 s of a core each) run at once; ${MAX_SCRYPT_WAITING} more wait, beyond them 503 (default ${DEFAULT_SCRYPT_RUNS}; 1 to 64)`, apply: (c, v) => intIn(v, 1, 64, (n) => { c.httpAuthScryptRuns = n; }) },
  { flag: '--authorization_file', env: 'PACER_AUTHORIZATION_FILE', help: 'policy file (YAML or JSON): which principals may view, create, update, delete what under which group paths; reloaded when changed', apply: (c, v, cwd) => { c.authorizationFile = resolve(cwd, v); return undefined; } },
  { flag: '--ssl_cert', env: 'PACER_SSL_CERT', help: 'PEM certificate (chain) for HTTPS; needs --ssl_key', apply: (c, v, cwd) => { c.sslCert = resolve(cwd, v); return undefined; } },
  { flag: '--ssl_key', env: 'PACER_SSL_KEY', help: 'PEM private key for HTTPS; needs --ssl_cert', apply: (c, v, cwd) => { c.sslKey = resolve(cwd, v); return undefined; } },
  { flag: '--https_port', env: 'PACER_HTTPS_PORT', help: 'HTTPS port (default 8443; 0 picks a free one)', apply: (c, v) => intIn(v, 0, 65535, (n) => { c.httpsPort = n; }) },
  { flag: '--disable_http', env: 'PACER_DISABLE_HTTP', boolean: true, help: 'serve HTTPS only (a switch; needs --ssl_cert and --ssl_key)', apply: (c, v) => bool(v, (b) => { c.disableHttp = b; }) },
  { flag: '--disable_http_compression', env: 'PACER_DISABLE_HTTP_COMPRESSION', boolean: true, help: 'a switch: never gzip answers (Marathon\'s flag; default: compression on, GET answers of at least 1 KiB gzipped for clients that send Accept-Encoding: gzip, never the event stream)', apply: (c, v) => bool(v, (b) => { c.httpCompression = !b; }) },
  { flag: '--http_compression', env: 'PACER_HTTP_COMPRESSION', boolean: true, help: 'a switch: compression on (the default; Marathon\'s other spelling of the toggle)', apply: (c, v) => bool(v, (b) => { c.httpCompression = b; }) },
  // The framework pacer registers as (Marathon's `MarathonConf.scala`; FrameworkInfo, mesos-v1-scheduler-api.md §2.1).
  { flag: '--framework_name', env: 'PACER_FRAMEWORK_NAME', help: `mesos: the framework's name (FrameworkInfo.name; default ${MESOS_DEFAULTS.frameworkName}, at most ${MAX_FRAMEWORK_NAME_LENGTH} characters)`, apply: (c, v) => frameworkName(c, v) },
  { flag: '--mesos_user', env: 'PACER_MESOS_USER', help: `mesos: the Unix user tasks run as (FrameworkInfo.user; default the user running pacer, at most ${MAX_MESOS_USER_LENGTH} characters)`, apply: (c, v) => mesosUser(c, v) },
  { flag: '--failover_timeout', env: 'PACER_FAILOVER_TIMEOUT', help: `mesos: seconds the master keeps the tasks of a disconnected pacer (FrameworkInfo.failover_timeout; default ${MESOS_DEFAULTS.failoverTimeoutSeconds}, one week; 0 to ${MAX_FAILOVER_TIMEOUT_S})`, apply: (c, v) => intIn(v, 0, MAX_FAILOVER_TIMEOUT_S, (n) => { c.failoverTimeoutSeconds = n; }) },
  { flag: '--webui_url', env: 'PACER_WEBUI_URL', help: 'mesos: the web UI URL the master shows (FrameworkInfo.webui_url; default http(s)://<--hostname>:<port>)', apply: (c, v) => webuiUrl(c, v) },
  { flag: '--mesos_authentication_principal', env: 'PACER_MESOS_AUTHENTICATION_PRINCIPAL', help: 'mesos: principal of the framework (FrameworkInfo.principal, basic auth)', apply: (c, v) => { c.mesosAuthenticationPrincipal = v; return v === '' ? 'expected a principal' : undefined; } },
  { flag: '--mesos_authentication_secret_file', env: 'PACER_MESOS_AUTHENTICATION_SECRET_FILE', help: 'mesos: file holding the principal\'s secret (one trailing newline ignored)', apply: (c, v, cwd) => { c.mesosAuthenticationSecretFile = resolve(cwd, v); return undefined; } },
  { flag: '--record', env: 'PACER_RECORD', help: 'flight recorder: write every input of the core to DIR/recording.jsonl (npm run sim -- replay DIR)', apply: (c, v, cwd) => { c.recordDir = resolve(cwd, v); return undefined; } },
  { flag: '--record_ring', env: 'PACER_RECORD_RING', help: `inputs the always-on ring keeps for POST /pacer/v1/recording (default ${DEFAULT_RING_INPUTS}; 0: none)`, apply: (c, v) => intIn(v, 0, 1_000_000, (n) => { c.recordRingInputs = n; }) },
  // High availability (Marathon's `ZookeeperConf.scala` and `--hostname`; src/ha).
  { flag: '--zk', env: 'PACER_ZK', echo: 'url', help: 'zk://[user:pass@]host:port[,host:port]/path: elect one leader among pacers there and keep the state there (<path>/state)', apply: (c, v) => zkUrl(c, v) },
  { flag: '--zk_timeout', env: 'PACER_ZK_TIMEOUT', help: 'ms one ZooKeeper operation, and connecting the store, may take (default 10000; joining the leader election at start waits a fixed 10 s)', apply: (c, v) => intIn(v, 100, 600_000, (n) => { c.zkTimeoutMs = n; }) },
  { flag: '--zk_session_timeout', env: 'PACER_ZK_SESSION_TIMEOUT', help: 'ZooKeeper session timeout in ms (default 10000)', apply: (c, v) => intIn(v, 1000, 600_000, (n) => { c.zkSessionTimeoutMs = n; }) },
  { flag: '--hostname', env: 'PACER_HOSTNAME', help: 'host advertised to the other pacers and in X-Marathon-Leader (default: --address); mesos: FrameworkInfo.hostname (default: this machine\'s name)', apply: (c, v) => { c.hostname = v; return v === '' || /[\s/]/.test(v) ? 'expected a host name or address' : undefined; } },
  { flag: '--http_port', env: 'PACER_HTTP_PORT', help: 'Marathon\'s name for --port', apply: (c, v) => intIn(v, 0, 65535, (n) => { c.port = n; }) },
  { flag: '--workload', env: 'PACER_WORKLOAD', help: 'sim: scenario file (default scenarios/demo.yaml)', apply: (c, v, cwd) => { c.workload = resolve(cwd, v); return undefined; } },
  { flag: '--speed', env: 'PACER_SPEED', help: 'sim: virtual ms per wall-clock ms (default 10)', apply: (c, v) => positive(v, (n) => { c.speed = n; }) },
  { flag: '--log_format', env: 'PACER_LOG_FORMAT', help: 'text | json: the log on stderr (default: text on a terminal, json otherwise)', apply: (c, v) => oneOf(v, LOG_FORMATS, (k) => { c.logFormat = k as LogFormat; }) },
  { flag: '--log_level', env: 'PACER_LOG_LEVEL', help: `${LOGGING_LEVELS.join(' | ')} (default info)`, apply: (c, v) => loggingLevel(c, v) },
  // Marathon's name of the same flag (DebugConf.scala `logging_level`), for Marathon's command lines.
  { flag: '--logging_level', env: 'PACER_LOGGING_LEVEL', help: 'the same as --log_level (Marathon\'s name)', apply: (c, v) => loggingLevel(c, v) },
  { flag: '--seed', env: 'PACER_SEED', help: 'sim: override the workload seed', apply: (c, v) => intIn(v, 0, Number.MAX_SAFE_INTEGER, (n) => { c.seed = n; }) },
];

/** The usage text, generated from the option table so it never drifts. */
export function usage(): string {
  const names = OPTIONS.map((o) => `${o.flag}${o.boolean === true ? '' : ' VALUE'}`);
  // The widest flag and two spaces: a long flag never runs into its text.
  const width = Math.max(...names.map((n) => n.length)) + 2;
  const lines = OPTIONS.map((o, i) => `  ${names[i].padEnd(width)}${o.help}  [${o.env}]`);
  return `usage: npm start -- [options]\n\n${lines.join('\n')}\n  ${'--help'.padEnd(width)}this text`;
}

/** The defaults, relative to `cwd`. */
export function defaultConfig(cwd: string): PacerConfig {
  return {
    cluster: 'local', address: '127.0.0.1', port: 8080,
    storePath: resolve(cwd, '.pacer', 'pacer.db'), storeSynchronous: 'NORMAL', storeMinFreeBytes: DEFAULT_STORE_MIN_FREE_BYTES,
    sandboxRoot: resolve(cwd, '.pacer', 'sandboxes'), localAgents: 1,
    defaultRole: '*', frameworkName: MESOS_DEFAULTS.frameworkName, failoverTimeoutSeconds: MESOS_DEFAULTS.failoverTimeoutSeconds, newGroupEnforceRole: 'off', maxRunningDeployments: 100, maxTotalInstances: DEFAULT_MAX_TOTAL_INSTANCES, localPortMin: 10_000, localPortMax: 20_000, gpuSchedulingBehavior: 'restricted', features: [],
    maxInstancesPerOffer: DEFAULT_SCHEDULER_OPTIONS.maxInstancesPerOffer, declineOfferDurationMs: DEFAULT_SCHEDULER_OPTIONS.declineRefuseMs,
    acceptRefuseDurationMs: DEFAULT_SCHEDULER_OPTIONS.acceptRefuseMs,
    maintenanceMode: DEFAULT_SCHEDULER_OPTIONS.maintenanceMode, drainingSeconds: DEFAULT_SCHEDULER_OPTIONS.drainingMs / 1000,
    localOfferIntervalMs: DEFAULT_OFFER_INTERVAL_MS,
    localSandboxGcDelayMs: DEFAULT_SANDBOX_GC_DELAY_MS, localSandboxKeep: DEFAULT_SANDBOX_KEEP,
    launchesPerInput: DEFAULT_LAUNCHES_PER_INPUT, launchesPerOfferBatch: DEFAULT_SCHEDULER_OPTIONS.launchesPerOfferBatch,
    instancesPerInput: DEFAULT_INSTANCES_PER_INPUT,
    bodyLimitBytes: 1024 * 1024,
    httpRealm: DEFAULT_REALM, httpAuthOpenPaths: ['/ping'], httpsPort: 8443, disableHttp: false, httpCompression: true,
    httpAuthFailures: DEFAULT_LOGIN_FAILURES, httpAuthFailureWindowMs: DEFAULT_LOGIN_FAILURE_WINDOW_MS, httpAuthScryptRuns: DEFAULT_SCRYPT_RUNS,
    workload: resolve(repoRoot(), 'scenarios', 'demo.yaml'), speed: 10, loggingLevel: 'info',
    recordRingInputs: DEFAULT_RING_INPUTS,
    zkSessionTimeoutMs: 10_000, zkTimeoutMs: 10_000,
  };
}

/**
 * A word that is no option (`npm start --port 8090` without the `--`: npm takes `--port` as a
 * setting of its own, says so in a warning, and passes `8090` on). The pacer flag npm took is named
 * when its `npm_config_<name>` variable shows it.
 */
function unexpectedArgument(word: string, env: NodeJS.ProcessEnv): string {
  const taken = OPTIONS.find((o) => o.flag.startsWith('--') && env[`npm_config_${o.flag.slice(2)}`] !== undefined);
  const example = taken === undefined ? 'npm start -- --port 8090' : `npm start -- ${taken.flag} ${word}`;
  return `unexpected argument ${word}: pacer takes only options (--name value); through npm they go after --, as in ${example}`;
}

/**
 * Reads the config: defaults, then `PACER_*` variables, then flags (flags win). Returns the config,
 * `'help'`, or an error naming the option, the value and what was expected.
 */
export function parseConfig(argv: readonly string[], env: NodeJS.ProcessEnv, cwd: string): PacerConfig | 'help' | { error: string } {
  const config: Mutable<PacerConfig> = { ...defaultConfig(cwd) };
  for (const o of OPTIONS) {
    const value = env[o.env];
    if (value === undefined) continue;
    const problem = o.apply(config, value, cwd);
    if (problem !== undefined) return { error: `${o.env}=${echoed(o, value)}: ${problem}` };
  }
  for (const { flag, spec, value, inline } of optionWords(argv)) {
    if (!inline && (flag === '--help' || flag === '-h')) return 'help';
    if (spec === undefined) return { error: flag.startsWith('-') ? `unknown option ${flag}` : unexpectedArgument(flag, env) };
    if (value === undefined) return { error: `${flag}: missing value` };
    const problem = spec.apply(config, value, cwd);
    if (problem !== undefined) return { error: `${flag} ${echoed(spec, value)}: ${problem}` };
  }
  if (config.localPortMin > config.localPortMax) {
    return { error: `--local_port_min ${config.localPortMin} is above --local_port_max ${config.localPortMax}: expected a range of service ports` };
  }
  return agentPortsConflict(config) ?? agentAttributesConflict(config) ?? agentDomainsConflict(config) ?? listenerProblem(config) ?? mesosAuthProblem(config) ?? haProblem(config) ?? config;
}

/** The option a command-line word names: `--flag_name` or its dashed spelling `--flag-name`. */
function optionOf(flag: string): OptionSpec | undefined {
  return OPTIONS.find((o) => o.flag === flag || o.flag.replace(/_/g, '-') === flag);
}

/** One option of the command line, as {@link optionWords} reads it. */
interface OptionWord {
  /** As written: `--store`, its dashed spelling, `--help`, or a word no option has. */
  readonly flag: string;
  /** The option it names; undefined for a word no option has. */
  readonly spec: OptionSpec | undefined;
  /** Its value: after `=`, `'true'` for a boolean given without one, else the next word (undefined at the end, and for an unknown word). */
  readonly value: string | undefined;
  /** Where the value is in `argv` (the word itself when `inline`), or -1 (a boolean's implied value, an unknown word). */
  readonly valueAt: number;
  /** Given as `--flag=value`. */
  readonly inline: boolean;
}

/**
 * The command line's words as options, the one reading of them ({@link parseConfig},
 * {@link givenFlags}, {@link hiddenArgv}): `--flag=value`, or `--flag value` (the next word is the
 * value, unless the option is a boolean); a word no option has takes no value.
 */
function optionWords(argv: readonly string[]): OptionWord[] {
  const out: OptionWord[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = arg.indexOf('=');
    const flag = eq < 0 ? arg : arg.slice(0, eq);
    const spec = optionOf(flag);
    if (eq >= 0) out.push({ flag, spec, value: arg.slice(eq + 1), valueAt: i, inline: true });
    else if (spec === undefined || spec.boolean === true) out.push({ flag, spec, value: spec === undefined ? undefined : 'true', valueAt: -1, inline: false });
    else out.push({ flag, spec, value: argv[i + 1], valueAt: ++i, inline: false });
  }
  return out;
}

/** What stands in, in the process title, for the value of a flag whose whole value is secret. */
export const HIDDEN_VALUE = '(hidden)';

/**
 * `argv` with the values of secret flags hidden, for the process title: a `secret` option's value
 * (`--http_credentials`) becomes {@link HIDDEN_VALUE}, a `url` option's credentials
 * (`--zk`, `--master`) the mask of url-credentials.ts; `hidden` names the flags that had
 * something hidden. Read as {@link parseConfig} reads the words (`--flag value`, `--flag=value`).
 * Why: a command line is readable by every user of the host (`ps`, `/proc/<pid>/cmdline`).
 */
export function hiddenArgv(argv: readonly string[]): { argv: string[]; hidden: string[] } {
  const out = [...argv];
  const hidden = new Set<string>();
  for (const { flag, spec, value, valueAt, inline } of optionWords(argv)) {
    if (spec?.echo === undefined || value === undefined || valueAt < 0) continue;
    const shown = spec.echo === 'secret' ? HIDDEN_VALUE : redactUrlValue(value);
    if (shown === value) continue;
    out[valueAt] = inline ? `${flag}=${shown}` : shown;
    hidden.add(spec.flag);
  }
  return { argv: out, hidden: [...hidden] };
}

/**
 * The options `argv` and `env` set, by flag name (`--store`, not `--store=x` or `PACER_STORE`), in
 * the order read: variables first, then flags. Read the same way as {@link parseConfig} (a
 * value-taking flag consumes the next word); unknown words are skipped, since `parseConfig` has
 * refused them already. Used to warn about options the chosen cluster does not use.
 */
export function givenFlags(argv: readonly string[], env: NodeJS.ProcessEnv): string[] {
  const given = OPTIONS.filter((o) => env[o.env] !== undefined).map((o) => o.flag);
  for (const { spec } of optionWords(argv)) if (spec !== undefined) given.push(spec.flag);
  return [...new Set(given)];
}

/**
 * The agents' range must split among `--local_agents`, and must not hold the API's own ports: a
 * task given one of them could not bind it.
 */
function agentPortsConflict(c: PacerConfig): { error: string } | undefined {
  if (c.localAgentPorts === undefined) return undefined;
  const [begin, end] = c.localAgentPorts;
  const range = `--local_agent_ports ${begin}-${end}`;
  const problem = agentPortsProblem(c.localAgentPorts, c.localAgents);
  if (problem !== undefined) return { error: `${range} with --local_agents ${c.localAgents}: ${problem}` };
  const api = [['--port', c.disableHttp ? 0 : c.port], ['--https_port', c.sslCert === undefined ? 0 : c.httpsPort]] as const;
  for (const [flag, port] of api) {
    if (port !== 0 && port >= begin && port <= end) return { error: `${range} holds ${flag} ${port}: expected a range apart from the API's ports` };
  }
  return undefined;
}

/**
 * `--local_agent_attributes`: `NAME:VALUE;…` lists separated by `|`, in a Mesos agent's
 * `--attributes` syntax, each value one that agent-attribute-text.ts types (text, scalar, ranges
 * or set); kept as text, typed when the agents are made.
 */
function agentAttributes(value: string, set: (lists: Record<string, string>[]) => void): string | undefined {
  const lists: Record<string, string>[] = [];
  const texts = value.split('|');
  if (texts.length > MAX_LOCAL_AGENTS) return `expected at most one attribute list per agent (at most ${MAX_LOCAL_AGENTS})`;
  for (const [i, text] of texts.entries()) {
    const where = texts.length === 1 ? '' : `agent ${i + 1}: `;
    const attrs: Record<string, string> = {};
    const pairs = text.trim() === '' ? [] : text.split(';');
    if (pairs.length > MAX_AGENT_ATTRIBUTES) return `${where}${pairs.length} attributes, expected at most ${MAX_AGENT_ATTRIBUTES}`;
    for (const pair of pairs) {
      const m = /^\s*([^:\s]+)\s*:\s*(\S+)\s*$/.exec(pair);
      if (m === null) return `${where}${JSON.stringify(pair.trim())}: expected NAME:VALUE, no blanks inside either`;
      const [, name, attrValue] = m;
      const typed = attributeFromText(name, attrValue);
      if ('error' in typed) return `${where}${JSON.stringify(pair.trim())}: ${typed.error}`;
      if (Object.hasOwn(attrs, name)) return `${where}attribute ${name} given twice`;
      attrs[name] = attrValue;
    }
    lists.push(attrs);
  }
  set(lists);
  return undefined;
}

/**
 * `--local_agent_domains`: `REGION/ZONE` entries separated by `|`, one for every agent or one per
 * agent (a Mesos agent's `--domain` fault domain, in short).
 */
function agentDomains(value: string, set: (domains: AgentDomain[]) => void): string | undefined {
  const texts = value.split('|');
  if (texts.length > MAX_LOCAL_AGENTS) return `expected at most one domain per agent (at most ${MAX_LOCAL_AGENTS})`;
  const domains: AgentDomain[] = [];
  for (const [i, text] of texts.entries()) {
    const m = DOMAIN.exec(text.trim());
    if (m === null) {
      const where = texts.length === 1 ? '' : `agent ${i + 1}: `;
      return `${where}${JSON.stringify(text.trim())}: expected REGION/ZONE, each of 1 to ${MAX_ATTRIBUTE_CHARS} characters of a-z A-Z 0-9 _ . -`;
    }
    domains.push({ region: m[1], zone: m[2] });
  }
  set(domains);
  return undefined;
}

const DOMAIN = new RegExp(`^([a-zA-Z0-9_.-]{1,${MAX_ATTRIBUTE_CHARS}})/([a-zA-Z0-9_.-]{1,${MAX_ATTRIBUTE_CHARS}})$`);

/** One domain for every local agent, or one per agent. */
function agentDomainsConflict(c: PacerConfig): { error: string } | undefined {
  const domains = c.localAgentDomains;
  if (domains === undefined || perAgentProblem('domains', domains, c.localAgents) === undefined) return undefined;
  return { error: `--local_agent_domains gives ${domains.length} domains with --local_agents ${c.localAgents}: expected one domain for every agent, or one per agent` };
}

/** One attribute list for every local agent, or one per agent. */
function agentAttributesConflict(c: PacerConfig): { error: string } | undefined {
  const lists = c.localAgentAttributes;
  if (lists === undefined || perAgentProblem('attribute lists', lists, c.localAgents) === undefined) return undefined;
  return { error: `--local_agent_attributes gives ${lists.length} attribute lists with --local_agents ${c.localAgents}: expected one list for every agent, or one per agent` };
}

/** `BEGIN-END`, both integers from 1 to 65535, BEGIN not above END. */
function portRange(value: string, set: (r: PortRange) => void): string | undefined {
  const m = /^\s*(\d{1,5})\s*-\s*(\d{1,5})\s*$/.exec(value);
  const range = m === null ? undefined : ([Number(m[1]), Number(m[2])] as const);
  if (range === undefined || range[0] < 1 || range[1] > 65535 || range[0] > range[1]) {
    return 'expected BEGIN-END, two ports from 1 to 65535 with BEGIN not above END (such as 31000-31999)';
  }
  set(range);
  return undefined;
}

/** A leader must be reachable by the others at what it advertises; HA runs the local and Mesos clusters. */
function haProblem(c: PacerConfig): { error: string } | undefined {
  if (c.zk === undefined) return undefined;
  if (c.cluster === 'sim') return { error: '--zk: the simulated cluster keeps its state in memory and cannot fail over; use --cluster local or mesos' };
  if (c.hostname === undefined && ['0.0.0.0', '::', ''].includes(c.address)) {
    return { error: `--zk with --address ${c.address}: give --hostname, the name the other pacers reach this one by` };
  }
  return undefined;
}

/** A value as an error may show it: credentials never (see {@link OptionSpec.echo}). */
function echoed(spec: OptionSpec, value: string): string {
  if (spec.echo === 'secret') return '(hidden)';
  return spec.echo === 'url' ? redactUrlValue(value) : value;
}

/** `--master`: a Mesos master's `http(s)://host:port`, or `zk://…/path` where the masters elect their leader. */
function masterUrl(c: Mutable<PacerConfig>, value: string): string | undefined {
  const v = value.trim();
  if (v.startsWith('zk://')) {
    const problem = zkProblem(v);
    if (problem !== undefined) return problem;
  } else if (!/^https?:\/\/[^/\s]/.test(v) || !isMasterBaseUrl(v)) {
    return 'expected http://host:port, https://host:port or zk://host:port/path';
  } else {
    const problem = httpMasterExtras(v);
    if (problem !== undefined) return problem;
  }
  c.master = value;
  return undefined;
}

/**
 * Why an http(s) `--master` that parses holds more than pacer would use, or undefined: the
 * scheduler API is `/api/v1/scheduler` on the master itself (mesos-v1-scheduler-api.md §1.1), so
 * a path, query or fragment would be dropped, and framework credentials are
 * `--mesos_authentication_principal`/`--mesos_authentication_secret_file` (Marathon's flags), so a
 * `user:pass@` would be dropped too: refused rather than silently ignored.
 */
function httpMasterExtras(value: string): string | undefined {
  const url = new URL(value);
  if (url.username !== '' || url.password !== '') {
    return 'credentials in an http(s) master URL are not used: expected http://host:port or https://host:port, with the credentials in --mesos_authentication_principal and --mesos_authentication_secret_file';
  }
  if ((url.pathname !== '/' && url.pathname !== '') || url.search !== '' || url.hash !== '' || /[?#]/.test(value)) {
    return 'a path, query or fragment in an http(s) master URL is not used (pacer calls /api/v1/scheduler on the master itself): expected http://host:port or https://host:port';
  }
  return undefined;
}

/**
 * Whether the driver can read `value` as a master's URL (transport/leader-url.ts), checked here so
 * that `http://:5050` or `http://m:99999` is refused as a flag, not after the store is open.
 */
function isMasterBaseUrl(value: string): boolean {
  try {
    masterBaseUrl(value);
    return true;
  } catch {
    return false;
  }
}

/**
 * Why `value` is not a ZooKeeper URL pacer can use (parseZkUrl's message, or the client's limit:
 * no IPv6 servers; credentials hidden), or undefined.
 */
function zkProblem(value: string): string | undefined {
  try {
    return unsupportedZkUrlProblem(parseZkUrl(value));
  } catch (err) {
    return (err as Error).message;
  }
}

function zkUrl(c: Mutable<PacerConfig>, value: string): string | undefined {
  const problem = zkProblem(value);
  if (problem === undefined) c.zk = value;
  return problem;
}

/** TLS needs both PEM files; Marathon refuses to start with neither HTTP nor HTTPS (`HttpModule.scala`). */
function listenerProblem(c: PacerConfig): { error: string } | undefined {
  if ((c.sslCert === undefined) !== (c.sslKey === undefined)) return { error: '--ssl_cert and --ssl_key go together: give both PEM files, or neither' };
  if (c.disableHttp && c.sslCert === undefined) return { error: '--disable_http needs --ssl_cert and --ssl_key: Invalid configuration: Neither HTTP nor HTTPS support has been configured.' };
  if (c.sslCert !== undefined && !c.disableHttp && c.port !== 0 && c.port === c.httpsPort) return { error: `--port and --https_port are both ${c.port}: expected two ports` };
  return undefined;
}

/** A secret without a principal cannot authenticate (Marathon: `dependsOnAll(mesosAuthentication, principal)`). */
function mesosAuthProblem(c: PacerConfig): { error: string } | undefined {
  if (c.mesosAuthenticationSecretFile !== undefined && c.mesosAuthenticationPrincipal === undefined) {
    return { error: '--mesos_authentication_secret_file needs --mesos_authentication_principal' };
  }
  return undefined;
}

function openPaths(c: Mutable<PacerConfig>, value: string): string | undefined {
  const paths = value.split(',').map((p) => p.trim()).filter((p) => p !== '');
  const bad = paths.find((p) => !p.startsWith('/'));
  if (bad !== undefined) return `expected route paths starting with / (such as /ping), got ${bad}`;
  c.httpAuthOpenPaths = paths;
  return undefined;
}

/**
 * `--mesos_role`: a role name an app could be given (Marathon's `ResourceRole` rules, the ones
 * the API applies to an app's `role`): every app and pod without a role of its own takes it, and
 * on Mesos it is subscribed to; refused here, a bad name stops pacer before anything starts, not
 * at the master's refusal after it has served.
 */
function mesosRole(c: Mutable<PacerConfig>, value: string): string | undefined {
  const problem = roleNameProblem(value);
  if (problem !== undefined) return `expected a role name: ${problem}`;
  c.defaultRole = value;
  return undefined;
}

/** `--framework_name`: printable, not blank, bounded. */
function frameworkName(c: Mutable<PacerConfig>, value: string): string | undefined {
  if (value.trim() === '' || value.length > MAX_FRAMEWORK_NAME_LENGTH || /[\u0000-\u001f\u007f]/.test(value)) {
    return `expected a name of 1 to ${MAX_FRAMEWORK_NAME_LENGTH} printable characters`;
  }
  c.frameworkName = value;
  return undefined;
}

/** `--webui_url`: an absolute http(s) URL, bounded. */
function webuiUrl(c: Mutable<PacerConfig>, value: string): string | undefined {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:') || value.length > MAX_WEBUI_URL_LENGTH) {
    return `expected an http:// or https:// URL of at most ${MAX_WEBUI_URL_LENGTH} characters`;
  }
  c.webuiUrl = value;
  return undefined;
}

/** `--mesos_user`: a user name (no blanks, no control characters, no `/` or `:`), bounded. */
function mesosUser(c: Mutable<PacerConfig>, value: string): string | undefined {
  if (value === '' || value.length > MAX_MESOS_USER_LENGTH || /[\s\u0000-\u001f\u007f/:]/.test(value)) {
    return `expected a user name of 1 to ${MAX_MESOS_USER_LENGTH} characters without blanks, '/' or ':'`;
  }
  c.mesosUser = value;
  return undefined;
}

function bool(value: string, set: (b: boolean) => void): string | undefined {
  const v = value.toLowerCase();
  if (v !== 'true' && v !== 'false') return 'expected true or false';
  set(v === 'true');
  return undefined;
}

/** Marathon's messages (`MarathonConf.scala` gpuSchedulingBehaviorConverter), `undefined` included. */
function gpuBehavior(c: Mutable<PacerConfig>, value: string): string | undefined {
  if (value === 'undefined') return "'--gpu_scheduling_behavior undefined' has been removed. Please set either restricted or unrestricted.";
  return oneOf(value, ['restricted', 'unrestricted'], (k) => { c.gpuSchedulingBehavior = k as GpuSchedulingBehavior; });
}

/**
 * `--enable_features`: a comma list of {@link MARATHON_FEATURES}. A name not among them fails
 * start-up, as in Marathon (its configuration refuses "Unknown features specified"): a misspelt
 * `task_kiling` must not leave TASK_KILLING off without a word.
 */
function features(c: Mutable<PacerConfig>, value: string): string | undefined {
  const names = value.split(',').map((f) => f.trim()).filter((f) => f !== '');
  const unknown = names.filter((f) => !MARATHON_FEATURES.includes(f));
  if (unknown.length > 0) return `unknown feature${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; expected a comma list of ${MARATHON_FEATURES.join(', ')}`;
  c.features = names;
  return undefined;
}

/** `--log_level` / `--logging_level`: Marathon's level names, in any case. */
function loggingLevel(c: Mutable<PacerConfig>, value: string): string | undefined {
  return oneOf(value.toLowerCase(), LOGGING_LEVELS, (k) => { c.loggingLevel = k as LoggingLevel; });
}

/** `--http_credentials`: checked here, with the other flags, so that a bad value stops pacer before it opens its store. */
function httpCredentials(c: Mutable<PacerConfig>, value: string): string | undefined {
  const parsed = parseHttpCredentials(value);
  if ('error' in parsed) return parsed.error;
  c.httpCredentials = value;
  return undefined;
}

function oneOf(value: string, allowed: readonly string[], set: (v: string) => void): string | undefined {
  if (!allowed.includes(value)) return `expected one of ${allowed.join(', ')}`;
  set(value);
  return undefined;
}

function intIn(value: string, min: number, max: number, set: (n: number) => void): string | undefined {
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < min || n > max) return `expected an integer from ${min} to ${max}`;
  set(n);
  return undefined;
}

/** A share from 0 to 1, read as the core reads the `PACER_UNHEALTHY_KILL_FLOOR` label. */
function share(value: string, set: (n: number) => void): string | undefined {
  const n = parseFloorCapacity(value);
  if (n === undefined) return 'expected a number from 0 to 1';
  set(n);
  return undefined;
}

function positive(value: string, set: (n: number) => void): string | undefined {
  const n = Number(value);
  if (!(n > 0) || !Number.isFinite(n)) return 'expected a positive number';
  set(n);
  return undefined;
}

/** The project directory: the nearest ancestor of this file holding `scenarios/` (works from src/ and dist/). */
function repoRoot(): string {
  let dir = __dirname;
  for (let i = 0; i < 6; i++) {
    if (existsSync(resolve(dir, 'scenarios'))) return dir;
    dir = dirname(dir);
  }
  return process.cwd();
}
