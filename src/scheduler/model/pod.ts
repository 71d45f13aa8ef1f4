import type { PodCheck } from './checks';
import type { MesosCommand } from './checks';
import type { Artifact } from './fetch';
import type { HealthCheckSpec } from './health-check';
import type { LinuxInfo } from './linux-info';
import type { Network } from './networks';
import type { ResourceLimits } from './resource-limits';
import type { ExactScalars, ScalarResources } from './resources';
import type { RunSpecCommon } from './run-spec-common';
import type { SecretEnv, Secrets } from './secrets';
import type { PodVolume, VolumeMount } from './volumes';

/** A port of a pod container (`endpoints[]`, Marathon's `network.raml` `Endpoint`). */
export interface PodEndpoint {
  readonly name: string;
  /** undefined: no host port; 0: any free port; N: exactly N (host networking defaults to 0). */
  readonly hostPort?: number;
  /** The port the process listens on (container networking); 0: the same as the host port. */
  readonly containerPort?: number;
  /** Lower case (`tcp`, `udp`, `http`); `["tcp"]` when none were given. */
  readonly protocol: readonly string[];
  readonly labels: Readonly<Record<string, string>>;
  /** The container networks of this endpoint (empty: all of the pod's). */
  readonly networkNames: readonly string[];
}

/** A pod container's image (`image`). */
export interface PodImage {
  readonly kind: 'DOCKER' | 'APPC';
  readonly id: string;
  /** Pull even when the agent has it (default false). */
  readonly forcePull: boolean;
  readonly pullConfig?: { readonly secret: string };
  readonly labels: Readonly<Record<string, string>>;
}

/** What a pod container runs (`exec`); without it, the image's entrypoint. */
export interface PodExec {
  readonly command: MesosCommand;
  readonly overrideEntrypoint?: boolean;
}

/** One container of a pod (Marathon's `podContainer.raml` `PodContainer`): one task per pod instance. */
export interface PodContainer {
  readonly name: string;
  readonly resources: ScalarResources;
  /** cpus, mem and disk as the client wrote them, when the milli-units round one ({@link ExactScalars}). */
  readonly exactResources?: ExactScalars;
  readonly resourceLimits?: ResourceLimits;
  readonly endpoints: readonly PodEndpoint[];
  readonly image?: PodImage;
  readonly exec?: PodExec;
  /** The container's own plain `environment` (the pod's is added at launch, the container's wins). */
  readonly env: Readonly<Record<string, string>>;
  readonly envSecrets: SecretEnv;
  /** The user the task runs as; absent: the pod's `user`. */
  readonly user?: string;
  readonly healthCheck?: HealthCheckSpec;
  readonly check?: PodCheck;
  readonly volumeMounts: readonly VolumeMount[];
  readonly artifacts: readonly Artifact[];
  readonly labels: Readonly<Record<string, string>>;
  /** `lifecycle.killGracePeriodSeconds`; absent: the core's default 3 s. */
  readonly killGracePeriodMs?: number;
  readonly tty?: boolean;
  readonly linuxInfo?: LinuxInfo;
}

/**
 * A pod: co-located containers launched together as one task group per instance (Marathon's
 * `pod.raml` `Pod`, every field pacer accepts), normalized by the converter like {@link AppSpec}.
 */
export interface PodSpec extends RunSpecCommon {
  readonly kind: 'pod';
  readonly containers: readonly PodContainer[];
  /** The default executor's own share per instance (0.1 cpus, 32 MiB, 10 MiB disk by default). */
  readonly executorResources: ScalarResources;
  /** `executorResources` as the client wrote them, when the milli-units round one ({@link ExactScalars}). */
  readonly exactExecutorResources?: ExactScalars;
  /** Never empty: `[{mode: host}]` when none were given. */
  readonly networks: readonly Network[];
  /** Derived from `networks`. */
  readonly networkMode: 'host' | 'container';
  readonly volumes: readonly PodVolume[];
  /** The user the containers run as, unless a container names its own. */
  readonly user?: string;
  /** Plain pod-level `environment`, inherited by every container. */
  readonly env: Readonly<Record<string, string>>;
  readonly envSecrets: SecretEnv;
  readonly secrets: Secrets;
  /** `scaling.maxInstances`, when given. */
  readonly maxInstances?: number;
  readonly linuxInfo?: LinuxInfo;
  readonly legacySharedCgroups?: boolean;
}
