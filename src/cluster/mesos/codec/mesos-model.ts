/**
 * The subset of the Mesos v1 scheduler API (`mesos.v1.scheduler.Call` / `Event` and the
 * `mesos.v1` messages they carry) that pacer speaks, as plain TypeScript data.
 *
 * Conventions (the same in both wire formats, so code above the codec never sees the format):
 * - field names are the proto field names in camelCase (protobufjs `toObject` style):
 *   `framework_id` → `frameworkId` (mesos-v1-scheduler-api.md §8 gives the wire names);
 * - enums are their string names (`'TASK_RUNNING'`); a value this model does not know is dropped
 *   from an optional field (proto2 semantics, §1.2), an unknown `Event.type` reads `'UNKNOWN'`, an
 *   unknown `TaskStatus.state` reads `'UNRECOGNIZED:<number or name>'` (`Unrecognized`);
 * - 64-bit integers are exact {@link Int64}: a `number` when safe (|v| ≤ 2^53 − 1), else a
 *   `bigint` (nanosecond timestamps ≈1.8e18 are bigints, in both wire formats);
 * - `bytes` are `Uint8Array` (`TaskStatus.uuid` must be echoed unchanged in ACKNOWLEDGE, §2.10);
 * - an absent field is `undefined` — presence matters: TASK_STARTING, SOURCE_MASTER and
 *   REASON_COMMAND_EXECUTOR_FAILED are the zero values (§6, §9 "traps");
 * - empty repeated fields are omitted by the decoder; an empty sub-message is `{}` (a RECONCILE
 *   with no tasks still carries `reconcile: {}`, §2.0);
 * - fields Mesos marks `required` are required here, and the decoder rejects events without them.
 *
 * Fields and messages outside this subset are skipped when decoding (forward compatible).
 */

import type { TaskState } from '../../../scheduler/model/task-state';
import type { Int64 } from './int64';

/** The two body encodings of the scheduler endpoint (§1.2): `application/x-protobuf` or `application/json`. */
export type MesosFormat = 'protobuf' | 'json';

// ---------------------------------------------------------------------------------------------
// Identifiers, time, small shared messages (§8.2)

/** `mesos.v1.FrameworkID`. */
export interface FrameworkID { value: string }
/** `mesos.v1.OfferID`. */
export interface OfferID { value: string }
/** `mesos.v1.AgentID`. */
export interface AgentID { value: string }
/** `mesos.v1.TaskID`. */
export interface TaskID { value: string }
/** `mesos.v1.ExecutorID`. */
export interface ExecutorID { value: string }
/** `mesos.v1.OperationID` (operation feedback; experimental, §2.3). */
export interface OperationID { value: string }
/** `mesos.v1.ResourceProviderID`. */
export interface ResourceProviderID { value: string }
/** `mesos.v1.ContainerID`; nested containers (task-group members) carry their executor's id as `parent`. */
export interface ContainerID { value: string; parent?: ContainerID }

/** `mesos.v1.TimeInfo`: nanoseconds since the epoch (master clock), exact (a bigint beyond 2^53, int64.ts). */
export interface TimeInfo { nanoseconds: Int64 }
/** `mesos.v1.DurationInfo`: a duration in nanoseconds, exact (int64.ts). */
export interface DurationInfo { nanoseconds: Int64 }

/** `mesos.v1.Label`. */
export interface Label { key: string; value?: string }
/** `mesos.v1.Labels`. */
export interface Labels { labels?: Label[] }
/** `mesos.v1.Parameter`. */
export interface Parameter { key: string; value: string }
/** `mesos.v1.Parameters`. */
export interface Parameters { parameter?: Parameter[] }

/** `mesos.v1.Address`. */
export interface Address { hostname?: string; ip?: string; port: number }
/** `mesos.v1.URL`; offers carry the agent's HTTP endpoint (`path: "/slave(1)"`, §3.2). */
export interface URL {
  scheme: string;
  address: Address;
  path?: string;
  query?: Parameter[];
  fragment?: string;
}

/** `mesos.v1.Filters`: `refuseSeconds` defaults to 5 s; 0 installs no filter (§2.3). */
export interface Filters { refuseSeconds?: number }

/** `mesos.v1.KillPolicy`: the SIGTERM→SIGKILL grace period (default 3 s when unset, §7.6). */
export interface KillPolicy { gracePeriod?: DurationInfo }

/** `mesos.v1.DomainInfo.FaultDomain.RegionInfo` / `ZoneInfo`. */
export interface FaultDomainName { name: string }
/** `mesos.v1.DomainInfo.FaultDomain` (§4.5). */
export interface FaultDomain { region: FaultDomainName; zone: FaultDomainName }
/** `mesos.v1.DomainInfo`; absent on an agent = the master's domain (§4.5). */
export interface DomainInfo { faultDomain?: FaultDomain }

/** `mesos.v1.MasterInfo.Capability.Type`. */
export type MasterCapabilityType = 'UNKNOWN' | 'AGENT_UPDATE' | 'AGENT_DRAINING' | 'QUOTA_V2';
/** `mesos.v1.MasterInfo` (§3.1); compare `id` across subscriptions to detect a master change. */
export interface MasterInfo {
  id: string;
  /** IPv4 packed in network byte order (deprecated); prefer `address.ip`. */
  ip: number;
  port: number;
  pid?: string;
  hostname?: string;
  version?: string;
  address?: Address;
  domain?: DomainInfo;
  capabilities?: { type?: MasterCapabilityType }[];
}

// ---------------------------------------------------------------------------------------------
// Framework (§2.1)

/** `mesos.v1.FrameworkInfo.Capability.Type` (§2.1). */
export type FrameworkCapabilityType =
  | 'UNKNOWN'
  | 'REVOCABLE_RESOURCES'
  | 'TASK_KILLING_STATE'
  | 'GPU_RESOURCES'
  | 'SHARED_RESOURCES'
  | 'PARTITION_AWARE'
  | 'MULTI_ROLE'
  | 'RESERVATION_REFINEMENT'
  | 'REGION_AWARE';

/** `mesos.v1.FrameworkInfo.Capability`. */
export interface FrameworkCapability { type?: FrameworkCapabilityType }

/**
 * `mesos.v1.FrameworkInfo` (§2.1). With MULTI_ROLE use `roles` and never set the deprecated
 * `role` (not even `"*"`, §9 traps).
 */
export interface FrameworkInfo {
  user: string;
  name: string;
  id?: FrameworkID;
  /** Seconds the master keeps the framework's tasks after a disconnect (default 0, §1.8). */
  failoverTimeout?: number;
  checkpoint?: boolean;
  /** Deprecated single role; must stay unset with MULTI_ROLE. */
  role?: string;
  hostname?: string;
  principal?: string;
  webuiUrl?: string;
  capabilities?: FrameworkCapability[];
  labels?: Labels;
  roles?: string[];
}

// ---------------------------------------------------------------------------------------------
// Values, resources, attributes (§4)

/** `mesos.v1.Value.Type`. */
export type ValueType = 'SCALAR' | 'RANGES' | 'SET' | 'TEXT';
/** `mesos.v1.Value.Scalar` (three decimal digits of precision in Mesos, §4.1). */
export interface Scalar { value: number }
/** `mesos.v1.Value.Range`: inclusive bounds (uint64, exact: int64.ts). */
export interface Range { begin: Int64; end: Int64 }
/** `mesos.v1.Value.Ranges`. */
export interface Ranges { range?: Range[] }
/** `mesos.v1.Value.Set`. */
export interface ValueSet { item?: string[] }
/** `mesos.v1.Value.Text`. */
export interface Text { value: string }

/** `mesos.v1.Resource.AllocationInfo`: the role a resource is allocated to (MULTI_ROLE, §4.3). */
export interface AllocationInfo { role?: string }

/** `mesos.v1.Resource.ReservationInfo.Type`. */
export type ReservationType = 'UNKNOWN' | 'STATIC' | 'DYNAMIC';
/** `mesos.v1.Resource.ReservationInfo` (§4.2). */
export interface ReservationInfo {
  principal?: string;
  labels?: Labels;
  role?: string;
  type?: ReservationType;
}

/** `mesos.v1.Resource.DiskInfo.Source.Type`. */
export type DiskSourceType = 'UNKNOWN' | 'PATH' | 'MOUNT' | 'BLOCK' | 'RAW';
/** `mesos.v1.Resource.DiskInfo.Source` (§4.1). */
export interface DiskSource {
  type: DiskSourceType;
  path?: { root?: string };
  mount?: { root?: string };
  id?: string;
  metadata?: Labels;
  profile?: string;
  vendor?: string;
}
/** `mesos.v1.Resource.DiskInfo.Persistence`. */
export interface DiskPersistence { id: string; principal?: string }
/** `mesos.v1.Resource.DiskInfo`. */
export interface DiskInfo {
  persistence?: DiskPersistence;
  volume?: Volume;
  source?: DiskSource;
}

/**
 * `mesos.v1.Resource` (§4.1). Echo offered resources by copying them and shrinking quantities
 * only (§4.3); never add `role: "*"` next to a non-empty `reservations` (§4.2).
 */
export interface Resource {
  name: string;
  type: ValueType;
  scalar?: Scalar;
  ranges?: Ranges;
  set?: ValueSet;
  /** Deprecated pre-refinement reservation role (§4.2). */
  role?: string;
  disk?: DiskInfo;
  /** Pre-refinement dynamic reservation marker (§4.2). */
  reservation?: ReservationInfo;
  /** Presence = revocable. */
  revocable?: Record<string, never>;
  /** Presence = shared. */
  shared?: Record<string, never>;
  allocationInfo?: AllocationInfo;
  providerId?: ResourceProviderID;
  /** Post-refinement reservation stack, last = current (§4.2). */
  reservations?: ReservationInfo[];
}

/** `mesos.v1.Attribute` (§4.4); note `text` is field 5 and `set` 6 here. */
export interface Attribute {
  name: string;
  type: ValueType;
  scalar?: Scalar;
  ranges?: Ranges;
  text?: Text;
  set?: ValueSet;
}

/** `mesos.v1.Unavailability`: a maintenance window; no `duration` = forever. */
export interface Unavailability { start: TimeInfo; duration?: DurationInfo }

/** `mesos.v1.Offer` (§3.2). */
export interface Offer {
  id: OfferID;
  frameworkId: FrameworkID;
  agentId: AgentID;
  hostname: string;
  resources?: Resource[];
  executorIds?: ExecutorID[];
  attributes?: Attribute[];
  url?: URL;
  unavailability?: Unavailability;
  allocationInfo?: AllocationInfo;
  domain?: DomainInfo;
}

// ---------------------------------------------------------------------------------------------
// Tasks, executors, containers (§5)

/** `mesos.v1.Environment.Variable.Type`. */
export type EnvironmentVariableType = 'UNKNOWN' | 'VALUE' | 'SECRET';
/** `mesos.v1.Secret.Type`. */
export type SecretType = 'UNKNOWN' | 'REFERENCE' | 'VALUE';
/** `mesos.v1.Secret`. */
export interface Secret {
  type?: SecretType;
  reference?: { name: string; key?: string };
  value?: { data: Uint8Array };
}
/** `mesos.v1.Environment.Variable`. */
export interface EnvironmentVariable {
  name: string;
  value?: string;
  type?: EnvironmentVariableType;
  secret?: Secret;
}
/** `mesos.v1.Environment`. */
export interface Environment { variables?: EnvironmentVariable[] }

/** `mesos.v1.CommandInfo.URI`: fetched into the sandbox; `extract` defaults to true. */
export interface CommandURI {
  value: string;
  executable?: boolean;
  extract?: boolean;
  cache?: boolean;
  outputFile?: string;
}

/**
 * `mesos.v1.CommandInfo` (§5.2). `shell` defaults to true (`/bin/sh -c value`); with
 * `shell: false`, `value` is the executable and `arguments` the full argv including argv[0].
 */
export interface CommandInfo {
  uris?: CommandURI[];
  environment?: Environment;
  value?: string;
  user?: string;
  shell?: boolean;
  arguments?: string[];
}

/** `mesos.v1.HealthCheck.Type`; always set it (§5.2). */
export type HealthCheckType = 'UNKNOWN' | 'COMMAND' | 'HTTP' | 'TCP';
/** `mesos.v1.NetworkInfo.Protocol`; absent = IPv4. */
export type NetworkProtocol = 'IPv4' | 'IPv6';
/** `mesos.v1.HealthCheck.HTTPCheckInfo`: a port inside the task's network namespace. */
export interface HTTPCheckInfo {
  port: number;
  path?: string;
  scheme?: string;
  statuses?: number[];
  protocol?: NetworkProtocol;
}
/** `mesos.v1.HealthCheck.TCPCheckInfo`. */
export interface TCPCheckInfo { port: number; protocol?: NetworkProtocol }

/**
 * `mesos.v1.HealthCheck` (§5.2, §7.5). Defaults when unset: delay 15 s, interval 10 s, timeout
 * 20 s, consecutive failures 3, grace 10 s. `consecutiveFailures: 0` kills on the first failure.
 */
export interface HealthCheck {
  http?: HTTPCheckInfo;
  delaySeconds?: number;
  intervalSeconds?: number;
  timeoutSeconds?: number;
  consecutiveFailures?: number;
  gracePeriodSeconds?: number;
  command?: CommandInfo;
  type?: HealthCheckType;
  tcp?: TCPCheckInfo;
}

/**
 * `mesos.v1.CheckInfo` (§5.5): a generalized check the built-in executors run and report in
 * `TaskStatus.check_status`, never acting upon it. Set `type` and the one matching sub-message.
 * Mesos's defaults: delay 15 s, interval 10 s, timeout 20 s (pacer always sends all three).
 */
export interface CheckInfo {
  type?: HealthCheckType;
  command?: { command: CommandInfo };
  http?: { port: number; path?: string };
  delaySeconds?: number;
  intervalSeconds?: number;
  timeoutSeconds?: number;
  tcp?: { port: number };
}

/**
 * `mesos.v1.CheckStatusInfo` (§5.5): the latest result of a task's check; a present but empty
 * sub-message means no result yet (or the check timed out or could not run).
 */
export interface CheckStatusInfo {
  type?: HealthCheckType;
  command?: { exitCode?: number };
  http?: { statusCode?: number };
  tcp?: { succeeded?: boolean };
}

/** `mesos.v1.DiscoveryInfo.Visibility`. */
export type DiscoveryVisibility = 'FRAMEWORK' | 'CLUSTER' | 'EXTERNAL';
/** `mesos.v1.Port`. */
export interface DiscoveryPort {
  number: number;
  name?: string;
  protocol?: string;
  visibility?: DiscoveryVisibility;
  labels?: Labels;
}
/** `mesos.v1.DiscoveryInfo`: opaque to Mesos, read by service discovery (§5.2). */
export interface DiscoveryInfo {
  visibility: DiscoveryVisibility;
  name?: string;
  environment?: string;
  location?: string;
  version?: string;
  ports?: { ports?: DiscoveryPort[] };
  labels?: Labels;
}

/** `mesos.v1.NetworkInfo.IPAddress`; the JSON writer always prints `protocol` (README surprise 1). */
export interface IPAddress { protocol?: NetworkProtocol; ipAddress?: string }
/** `mesos.v1.NetworkInfo.PortMapping`. */
export interface NetworkPortMapping { hostPort: number; containerPort: number; protocol?: string }
/** `mesos.v1.NetworkInfo`: requested networks, and in `ContainerStatus` the container's IPs. */
export interface NetworkInfo {
  groups?: string[];
  labels?: Labels;
  ipAddresses?: IPAddress[];
  name?: string;
  portMappings?: NetworkPortMapping[];
}

/** `mesos.v1.Image.Type`. */
export type ImageType = 'APPC' | 'DOCKER';
/** `mesos.v1.Image` (UCR); `cached` defaults to true (false = always pull). */
export interface Image {
  type: ImageType;
  docker?: { name: string };
  cached?: boolean;
}

/** `mesos.v1.Volume.Mode`. */
export type VolumeMode = 'RW' | 'RO';
/** `mesos.v1.Volume.Source.Type`. */
export type VolumeSourceType =
  | 'UNKNOWN'
  | 'DOCKER_VOLUME'
  | 'SANDBOX_PATH'
  | 'SECRET'
  | 'HOST_PATH'
  | 'CSI_VOLUME';
/** `mesos.v1.Volume.Source.SandboxPath.Type`. */
export type SandboxPathType = 'UNKNOWN' | 'SELF' | 'PARENT';
/** `mesos.v1.Volume.Source` (subset: sandbox and host paths). */
export interface VolumeSource {
  type?: VolumeSourceType;
  sandboxPath?: { type?: SandboxPathType; path: string };
  hostPath?: { path: string };
}
/** `mesos.v1.Volume`; pods share ephemeral volumes with SANDBOX_PATH / PARENT (§5.3). */
export interface Volume {
  containerPath: string;
  hostPath?: string;
  mode: VolumeMode;
  image?: Image;
  source?: VolumeSource;
}

/** `mesos.v1.ContainerInfo.DockerInfo.Network`. */
export type DockerNetwork = 'HOST' | 'BRIDGE' | 'NONE' | 'USER';
/** `mesos.v1.ContainerInfo.DockerInfo.PortMapping`. */
export interface DockerPortMapping { hostPort: number; containerPort: number; protocol?: string }
/** `mesos.v1.ContainerInfo.DockerInfo` (docker containerizer). */
export interface DockerInfo {
  image: string;
  network?: DockerNetwork;
  portMappings?: DockerPortMapping[];
  privileged?: boolean;
  parameters?: Parameter[];
  forcePullImage?: boolean;
}

/** `mesos.v1.ContainerInfo.Type`. */
export type ContainerType = 'DOCKER' | 'MESOS';
/** `mesos.v1.ContainerInfo` (subset; `type: MESOS` without image = plain process, §5.2). */
export interface ContainerInfo {
  type: ContainerType;
  volumes?: Volume[];
  docker?: DockerInfo;
  hostname?: string;
  mesos?: { image?: Image };
  networkInfos?: NetworkInfo[];
}

/** `mesos.v1.ExecutorInfo.Type`: DEFAULT for task groups (pods), CUSTOM otherwise (§5.3). */
export type ExecutorType = 'UNKNOWN' | 'DEFAULT' | 'CUSTOM';
/**
 * `mesos.v1.ExecutorInfo` (§5.3). For LAUNCH_GROUP, `frameworkId` must be set by the scheduler
 * and `resources` must include cpus ≥ 0.01, mem ≥ 32 and a disk resource.
 */
export interface ExecutorInfo {
  executorId: ExecutorID;
  data?: Uint8Array;
  resources?: Resource[];
  command?: CommandInfo;
  frameworkId?: FrameworkID;
  name?: string;
  container?: ContainerInfo;
  discovery?: DiscoveryInfo;
  shutdownGracePeriod?: DurationInfo;
  labels?: Labels;
  type?: ExecutorType;
}

/** `mesos.v1.TaskInfo` (§5.1): exactly one of `executor` / `command` for LAUNCH. */
export interface TaskInfo {
  name: string;
  taskId: TaskID;
  agentId: AgentID;
  resources?: Resource[];
  executor?: ExecutorInfo;
  data?: Uint8Array;
  command?: CommandInfo;
  healthCheck?: HealthCheck;
  container?: ContainerInfo;
  labels?: Labels;
  discovery?: DiscoveryInfo;
  killPolicy?: KillPolicy;
  check?: CheckInfo;
  maxCompletionTime?: DurationInfo;
}

/** `mesos.v1.TaskGroupInfo`: delivered atomically to one DEFAULT executor (§5.3). */
export interface TaskGroupInfo { tasks?: TaskInfo[] }

// ---------------------------------------------------------------------------------------------
// Offer operations (§2.3)

/** `mesos.v1.Offer.Operation.Type`. */
export type OfferOperationType =
  | 'UNKNOWN'
  | 'LAUNCH'
  | 'RESERVE'
  | 'UNRESERVE'
  | 'CREATE'
  | 'DESTROY'
  | 'LAUNCH_GROUP'
  | 'GROW_VOLUME'
  | 'SHRINK_VOLUME'
  | 'CREATE_DISK'
  | 'DESTROY_DISK';

/** `mesos.v1.Offer.Operation`; applied in order within one ACCEPT (§2.3). */
export interface OfferOperation {
  type?: OfferOperationType;
  launch?: { taskInfos?: TaskInfo[] };
  reserve?: { resources?: Resource[]; source?: Resource[] };
  unreserve?: { resources?: Resource[] };
  create?: { volumes?: Resource[] };
  destroy?: { volumes?: Resource[] };
  launchGroup?: { executor: ExecutorInfo; taskGroup: TaskGroupInfo };
  /** Requests operation feedback; never on LAUNCH / LAUNCH_GROUP (§2.3). */
  id?: OperationID;
}

// ---------------------------------------------------------------------------------------------
// Task status (§3.5, §6)

/**
 * `mesos.v1.TaskState` (§6.1). TASK_STARTING is 0: check presence, not truthiness. The core
 * models exactly the Mesos set, so this is the core's type (model-schema.test.ts checks it
 * against the proto enum).
 */
export type { TaskState };

/**
 * A value of a required enum field that this subset does not declare (a newer Mesos added it):
 * `UNRECOGNIZED:` and the value as the wire had it — its number in protobuf, its name in JSON.
 * Only fields listed in codec/field-plan.ts carry it; the encoder refuses it.
 */
export type Unrecognized = `UNRECOGNIZED:${string}`;

/** `mesos.v1.TaskStatus.Source` (§6.2). */
export type TaskStatusSource = 'SOURCE_MASTER' | 'SOURCE_AGENT' | 'SOURCE_EXECUTOR';

/** `mesos.v1.TaskStatus.Reason` (§6.3, all values). */
export type TaskStatusReason =
  | 'REASON_COMMAND_EXECUTOR_FAILED'
  | 'REASON_CONTAINER_LAUNCH_FAILED'
  | 'REASON_CONTAINER_LIMITATION'
  | 'REASON_CONTAINER_LIMITATION_DISK'
  | 'REASON_CONTAINER_LIMITATION_MEMORY'
  | 'REASON_CONTAINER_PREEMPTED'
  | 'REASON_CONTAINER_UPDATE_FAILED'
  | 'REASON_MAX_COMPLETION_TIME_REACHED'
  | 'REASON_EXECUTOR_REGISTRATION_TIMEOUT'
  | 'REASON_EXECUTOR_REREGISTRATION_TIMEOUT'
  | 'REASON_EXECUTOR_TERMINATED'
  | 'REASON_EXECUTOR_UNREGISTERED'
  | 'REASON_FRAMEWORK_REMOVED'
  | 'REASON_GC_ERROR'
  | 'REASON_INVALID_FRAMEWORKID'
  | 'REASON_INVALID_OFFERS'
  | 'REASON_IO_SWITCHBOARD_EXITED'
  | 'REASON_MASTER_DISCONNECTED'
  | 'REASON_RECONCILIATION'
  | 'REASON_RESOURCES_UNKNOWN'
  | 'REASON_AGENT_DISCONNECTED'
  | 'REASON_AGENT_REMOVED'
  | 'REASON_AGENT_REMOVED_BY_OPERATOR'
  | 'REASON_AGENT_REREGISTERED'
  | 'REASON_AGENT_RESTARTED'
  | 'REASON_AGENT_UNKNOWN'
  | 'REASON_AGENT_DRAINING'
  | 'REASON_TASK_CHECK_STATUS_UPDATED'
  | 'REASON_TASK_HEALTH_CHECK_STATUS_UPDATED'
  | 'REASON_TASK_GROUP_INVALID'
  | 'REASON_TASK_GROUP_UNAUTHORIZED'
  | 'REASON_TASK_INVALID'
  | 'REASON_TASK_KILLED_DURING_LAUNCH'
  | 'REASON_TASK_UNAUTHORIZED'
  | 'REASON_TASK_UNKNOWN';

/** `mesos.v1.ContainerStatus`: `networkInfos[].ipAddresses` hold the container's IPs. */
export interface ContainerStatus {
  networkInfos?: NetworkInfo[];
  executorPid?: number;
  containerId?: ContainerID;
}

/** `mesos.v1.TaskResourceLimitation`: which limit a REASON_CONTAINER_LIMITATION* task hit. */
export interface TaskResourceLimitation { resources?: Resource[] }

/**
 * `mesos.v1.TaskStatus` (§3.5). `uuid` present ⇒ the update must be acknowledged with exactly
 * these bytes; absent ⇒ never acknowledge (§7.1). `timestamp` is in seconds, `unreachableTime`
 * in nanoseconds.
 */
export interface TaskStatus {
  taskId: TaskID;
  /** An `Unrecognized` state is one a newer Mesos added (the driver acknowledges such an update and keeps it from the core: mesos-cluster.ts `onUnknownState`). */
  state: TaskState | Unrecognized;
  data?: Uint8Array;
  message?: string;
  agentId?: AgentID;
  timestamp?: number;
  executorId?: ExecutorID;
  healthy?: boolean;
  source?: TaskStatusSource;
  reason?: TaskStatusReason;
  uuid?: Uint8Array;
  labels?: Labels;
  containerStatus?: ContainerStatus;
  unreachableTime?: TimeInfo;
  checkStatus?: CheckStatusInfo;
  limitation?: TaskResourceLimitation;
}

// ---------------------------------------------------------------------------------------------
// Calls (§2)

/** `mesos.v1.scheduler.Call.Type` (§2.0). */
export type CallType =
  | 'UNKNOWN'
  | 'SUBSCRIBE'
  | 'TEARDOWN'
  | 'ACCEPT'
  | 'DECLINE'
  | 'REVIVE'
  | 'KILL'
  | 'SHUTDOWN'
  | 'ACKNOWLEDGE'
  | 'RECONCILE'
  | 'MESSAGE'
  | 'REQUEST'
  | 'SUPPRESS'
  | 'ACCEPT_INVERSE_OFFERS'
  | 'DECLINE_INVERSE_OFFERS'
  | 'ACKNOWLEDGE_OPERATION_STATUS'
  | 'RECONCILE_OPERATIONS'
  | 'UPDATE_FRAMEWORK';

/** `Call.Subscribe` (§2.1): restate `suppressedRoles` on every subscription. */
export interface CallSubscribe { frameworkInfo: FrameworkInfo; suppressedRoles?: string[] }
/** `Call.Accept` (§2.3). */
export interface CallAccept { offerIds?: OfferID[]; operations?: OfferOperation[]; filters?: Filters }
/** `Call.Decline` (§2.4). */
export interface CallDecline { offerIds?: OfferID[]; filters?: Filters }
/** `Call.Revive` / `Call.Suppress` (§2.6, §2.7): no roles = every subscribed role. */
export interface CallRoles { roles?: string[] }
/** `Call.Kill` (§2.8): `killPolicy` overrides the task's policy for this kill. */
export interface CallKill { taskId: TaskID; agentId?: AgentID; killPolicy?: KillPolicy }
/** `Call.Shutdown` (§2.9). */
export interface CallShutdown { executorId: ExecutorID; agentId: AgentID }
/** `Call.Acknowledge` (§2.10): copied from the received `TaskStatus`. */
export interface CallAcknowledge { agentId: AgentID; taskId: TaskID; uuid: Uint8Array }
/** `Call.Reconcile.Task`: always pass `agentId` (§7.2). */
export interface CallReconcileTask { taskId: TaskID; agentId?: AgentID }
/** `Call.Reconcile` (§2.12): no tasks = implicit reconciliation. */
export interface CallReconcile { tasks?: CallReconcileTask[] }
/** `Call.UpdateFramework` (§2.13): a full replacement of the FrameworkInfo. */
export interface CallUpdateFramework { frameworkInfo: FrameworkInfo; suppressedRoles?: string[] }

/**
 * `mesos.v1.scheduler.Call` (§2.0): the body of every request to `/api/v1/scheduler`.
 * `frameworkId` is required on every call except the first SUBSCRIBE; on a resubscription it must
 * equal `subscribe.frameworkInfo.id` (§1.8).
 */
export interface Call {
  frameworkId?: FrameworkID;
  type: CallType;
  subscribe?: CallSubscribe;
  accept?: CallAccept;
  decline?: CallDecline;
  kill?: CallKill;
  shutdown?: CallShutdown;
  acknowledge?: CallAcknowledge;
  reconcile?: CallReconcile;
  revive?: CallRoles;
  suppress?: CallRoles;
  updateFramework?: CallUpdateFramework;
}

// ---------------------------------------------------------------------------------------------
// Events (§3)

/** `mesos.v1.scheduler.Event.Type` (§3); log and ignore types you do not handle. */
export type EventType =
  | 'UNKNOWN'
  | 'SUBSCRIBED'
  | 'OFFERS'
  | 'RESCIND'
  | 'UPDATE'
  | 'MESSAGE'
  | 'FAILURE'
  | 'ERROR'
  | 'HEARTBEAT'
  | 'INVERSE_OFFERS'
  | 'RESCIND_INVERSE_OFFER'
  | 'UPDATE_OPERATION_STATUS';

/** `Event.Subscribed` (§3.1): persist `frameworkId` before anything else. */
export interface EventSubscribed {
  frameworkId: FrameworkID;
  heartbeatIntervalSeconds?: number;
  masterInfo?: MasterInfo;
}
/** `Event.Offers` (§3.2). */
export interface EventOffers { offers?: Offer[] }
/** `Event.Rescind` (§3.4). */
export interface EventRescind { offerId: OfferID }
/** `Event.Update` (§3.5). */
export interface EventUpdate { status: TaskStatus }
/** `Event.Message` (§3.7): executor → scheduler, unreliable. */
export interface EventMessage { agentId: AgentID; executorId: ExecutorID; data: Uint8Array }
/**
 * `Event.Failure` (§3.8): only `agentId` = agent removed/unreachable; with `executorId` = an
 * executor ended, `status` being the raw POSIX wait status.
 */
export interface EventFailure { agentId?: AgentID; executorId?: ExecutorID; status?: number }
/** `Event.Error` (§3.9): the master closes the stream afterwards. */
export interface EventError { message: string }

/** `mesos.v1.scheduler.Event` (§3): one RecordIO record of the SUBSCRIBE stream. */
export interface Event {
  type: EventType;
  subscribed?: EventSubscribed;
  offers?: EventOffers;
  rescind?: EventRescind;
  update?: EventUpdate;
  message?: EventMessage;
  failure?: EventFailure;
  error?: EventError;
}
