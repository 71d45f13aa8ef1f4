import type { Constraint } from './constraint';
import type { HealthCheckSpec } from './health-check';
import type { ReadinessCheckSpec } from './readiness-check';
import type { PersistentVolumeSpec } from './reservation';
import type { ScalarResources } from './resources';

export type KillSelection = 'YOUNGEST_FIRST' | 'OLDEST_FIRST';

/** Launch backoff: first delay, growth factor, ceiling (apps: backoffSeconds/backoffFactor/maxLaunchDelaySeconds). */
export interface BackoffPolicy {
  readonly initialMs: number;
  readonly factor: number;
  readonly maxMs: number;
}

export interface UpgradePolicy {
  readonly minimumHealthCapacity: number;
  readonly maximumOverCapacity: number;
}

/** `disabled` never replaces or expunges unreachable instances (resident run specs). */
export type UnreachablePolicy =
  | { readonly kind: 'enabled'; readonly inactiveAfterMs: number; readonly expungeAfterMs: number }
  | { readonly kind: 'disabled' };

export interface VersionInfo {
  readonly lastScalingAt: string;
  readonly lastConfigChangeAt: string;
}

/** Fields every run spec has; all already normalized (defaults filled, units converted). */
export interface RunSpecCommon {
  readonly id: string;
  readonly version: string;
  readonly versionInfo: VersionInfo;
  readonly instances: number;
  readonly role: string;
  /** Empty: the default behaviour (any role usable by the run spec). */
  readonly acceptedResourceRoles: readonly string[];
  readonly constraints: readonly Constraint[];
  readonly backoff: BackoffPolicy;
  readonly upgrade: UpgradePolicy;
  readonly unreachable: UnreachablePolicy;
  readonly killSelection: KillSelection;
  readonly labels: Readonly<Record<string, string>>;
  /** Has persistent volumes (a resident service). */
  readonly resident: boolean;
  /** The persistent volumes of a resident run spec (empty or absent otherwise). */
  readonly persistentVolumes?: readonly PersistentVolumeSpec[];
  /**
   * The Marathon wire definition with every default filled in (what the API echoes and what
   * `api_post_event.appDefinition` carries). The core never reads it for scheduling.
   */
  readonly definition: Readonly<Record<string, unknown>>;
}

export interface AppSpec extends RunSpecCommon {
  readonly kind: 'app';
  readonly resources: ScalarResources;
  /** One entry per port the task needs on the host: 0 = any free port, N = exactly N. */
  readonly hostPorts: readonly number[];
  readonly requirePorts: boolean;
  readonly healthChecks: readonly HealthCheckSpec[];
  /** At most one (fact 31); absent means none. */
  readonly readinessChecks?: readonly ReadinessCheckSpec[];
  readonly killGracePeriodMs: number;
  readonly cmd?: string;
  readonly args?: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

export interface PodEndpoint {
  readonly name: string;
  /** undefined: no host port; 0: any free port; N: exactly N. */
  readonly hostPort?: number;
  readonly containerPort?: number;
  readonly protocol: readonly string[];
}

export interface PodContainer {
  readonly name: string;
  readonly resources: ScalarResources;
  readonly endpoints: readonly PodEndpoint[];
  readonly healthCheck?: HealthCheckSpec;
  readonly command?: string;
  readonly env: Readonly<Record<string, string>>;
  /** Container-specific grace period (`lifecycle.killGracePeriodSeconds`), if any. */
  readonly killGracePeriodMs?: number;
}

export interface PodSpec extends RunSpecCommon {
  readonly kind: 'pod';
  readonly containers: readonly PodContainer[];
  readonly executorResources: ScalarResources;
  readonly networkMode: 'host' | 'container';
}

/** An app or a pod. */
export type RunSpec = AppSpec | PodSpec;
