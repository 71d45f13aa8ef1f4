import type { DockerParameter } from './docker';
import type { Artifact } from './fetch';
import type { HealthCheckSpec } from './health-check';
import type { NetworkMode } from './networks';
import type { OfferedPool } from './offer';
import type { ScalarResources } from './resources';
import type { PersistentVolume, ReservationOperation } from './reservation';
import type { ReadMode } from './volumes';

/** What a task runs: a shell command, or an argv run without a shell. */
export type LaunchCommand = { readonly shell: string } | { readonly argv: readonly string[] };

/** The image a task runs in. */
export interface LaunchImage {
  readonly kind: 'DOCKER' | 'APPC';
  readonly id: string;
  /** Pull even when the agent has the image. */
  readonly forcePull: boolean;
}

/** The Docker containerizer's settings: an app task whose container is `type: DOCKER` with an image. */
export interface LaunchDocker {
  readonly privileged: boolean;
  readonly parameters: readonly DockerParameter[];
}

/**
 * A volume a task mounts: a path of the agent (`host`), or a directory of the executor's sandbox
 * shared by a pod's containers (`sandbox`: a pod's ephemeral volume, or a host volume with a
 * relative path).
 */
export type LaunchVolume =
  | { readonly kind: 'host'; readonly containerPath: string; readonly hostPath: string; readonly mode: ReadMode }
  | { readonly kind: 'sandbox'; readonly containerPath: string; readonly path: string; readonly mode: ReadMode };

/** A port of a task for service discovery: its number on the task's address, name, protocols and labels. */
export interface LaunchPort {
  readonly number: number;
  readonly name?: string;
  /** Lower case, one per discovery entry (`udp,tcp` is two). */
  readonly protocols: readonly string[];
  readonly labels: Readonly<Record<string, string>>;
}

/** A host port forwarded to a container port (container and bridge networking). */
export interface LaunchPortMapping {
  readonly hostPort: number;
  /** Never 0: a port mapping's `containerPort` 0 means the host port. */
  readonly containerPort: number;
  readonly protocol?: string;
}

/** How an app task, or a pod instance as a whole, is networked, with the ports bound to the offer's host ports. */
export interface LaunchNetworking {
  readonly mode: NetworkMode;
  /** The container networks joined (`container` mode): names and labels. */
  readonly networks: readonly { readonly name?: string; readonly labels: Readonly<Record<string, string>> }[];
  /** Host ports forwarded into the container (container and bridge networking). */
  readonly portMappings: readonly LaunchPortMapping[];
}

/** An environment variable of a task whose value is a secret (`{"secret": "<name>"}`). */
export interface LaunchSecretEnv {
  /** The variable's name. */
  readonly variable: string;
  /** The name in the run spec's `secrets`. */
  readonly secret: string;
  /** That secret's `source` (the secret store's path), when the run spec declares it. */
  readonly source?: string;
}

/**
 * One task to launch, resolved by the core's launcher (launcher/task-launch.ts) from the run spec
 * and the offer: everything a driver needs to start it, and nothing to look up. Drivers never see
 * the run spec.
 */
export interface TaskLaunch {
  readonly taskId: string;
  readonly instanceId: string;
  readonly runSpecId: string;
  readonly runSpecVersion: string;
  /** Pod container name; undefined for apps. */
  readonly containerName?: string;
  readonly agentId: string;
  readonly hostname: string;
  readonly role: string;
  readonly resources: ScalarResources;
  readonly hostPorts: readonly number[];
  /** What to run; undefined: nothing given (an image's entrypoint runs). */
  readonly command?: LaunchCommand;
  /**
   * The task's environment as the scheduler gives it: Marathon's task variables (`HOST`, ports,
   * ids, resources, labels) with the definition's own plain variables over them.
   */
  readonly env: Readonly<Record<string, string>>;
  /**
   * Variables whose value is a secret, never resolved by pacer (which has no secret store and never
   * sees values): the secret's name and its declared `source`.
   */
  readonly secretEnv: readonly LaunchSecretEnv[];
  /** Names of the secrets the task mounts as files (secret volumes of an app's container or of a pod). */
  readonly secretVolumes: readonly string[];
  /** The user to run as; undefined: the agent's default. */
  readonly user?: string;
  /** Downloaded into the sandbox first. */
  readonly fetch: readonly Artifact[];
  readonly image?: LaunchImage;
  /** Set when the task asks for the Docker containerizer. */
  readonly docker?: LaunchDocker;
  readonly volumes: readonly LaunchVolume[];
  /** Apps: the task's networking (a pod's is its launch group's). */
  readonly networking?: LaunchNetworking;
  /** The task's ports for service discovery. */
  readonly ports: readonly LaunchPort[];
  /** The app's labels, or the pod container's. */
  readonly labels: Readonly<Record<string, string>>;
  /** Agent-run health check with its port resolved, when the task has one. */
  readonly healthCheck?: ResolvedAgentCheck;
  /** The app's or pod container's `check` (a Mesos check, reported and never acted upon), resolved; none without one. */
  readonly check?: LaunchCheck;
  readonly killGracePeriodMs: number;
  /** The persistent volumes of a resident instance (on its reservation), mounted at their `containerPath`. */
  readonly persistentVolumes?: readonly PersistentVolume[];
}

export interface ResolvedAgentCheck {
  readonly check: HealthCheckSpec;
  /** Resolved host port, for HTTP/TCP kinds. */
  readonly port?: number;
  /**
   * On container networking, the port of the addressed port mapping or endpoint inside the
   * container, when it names one (0: the same as the host port); undefined otherwise.
   */
  readonly containerPort?: number;
}

/**
 * A task's Mesos check (Marathon's `check` of an app or of a pod container) resolved by the core's
 * launcher (launcher/launch-check.ts): what to run and when, with every time in milliseconds
 * (Marathon's defaults filled in: first `delayMs` after the task runs, then every `intervalMs`,
 * each run given `timeoutMs`). HTTP and TCP checks carry the port resolved as for an agent-run
 * health check ({@link ResolvedAgentCheck}): `port` the host port (the port itself, without one),
 * and on container networking `containerPort`, the port inside the container (0: the host port).
 */
export type LaunchCheck = LaunchCheckTiming & (
  | { readonly kind: 'http'; readonly port: number; readonly containerPort?: number; readonly path?: string }
  | { readonly kind: 'tcp'; readonly port: number; readonly containerPort?: number }
  | { readonly kind: 'command'; readonly command: LaunchCommand }
);

/** When a {@link LaunchCheck} runs. */
export interface LaunchCheckTiming {
  readonly delayMs: number;
  readonly intervalMs: number;
  /** 0: no limit (as Mesos's `timeout_seconds` 0). */
  readonly timeoutMs: number;
}

/**
 * Operations of one ACCEPT call: a single task (apps) or a task group on one executor (pods,
 * launched atomically on one agent). The core's app launches resolve `task` when it is first read
 * (a getter, launcher/task-launch.ts: a cluster that never reads it costs no environment): read
 * `task`, or serialize the operation with JSON; an object spread of the operation drops it.
 */
export type LaunchOperation =
  | { readonly kind: 'launch'; readonly task: TaskLaunch; readonly allocation: readonly OfferedPool[] }
  | {
      readonly kind: 'launchGroup';
      readonly executorId: string;
      readonly executorResources: ScalarResources;
      /** The pod's labels (the executor's). */
      readonly labels: Readonly<Record<string, string>>;
      /** The pod's networking, shared by its tasks. */
      readonly networking: LaunchNetworking;
      readonly tasks: readonly TaskLaunch[];
      readonly allocation: readonly OfferedPool[];
    };

/**
 * Any operation of one ACCEPT: a launch, or one of the reservation operations of a resident
 * instance (RESERVE, CREATE before its first launch; DESTROY, UNRESERVE when it is forgotten).
 */
export type OfferOperation = LaunchOperation | ReservationOperation;
