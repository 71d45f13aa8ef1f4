import type { Constraint } from './constraint';

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

/**
 * Fields every run spec has; all already normalized (defaults filled, units converted). The run
 * spec model (run-spec.ts, this file, app.ts, pod.ts and the types they use) is the one model of an app or a
 * pod: the converter (src/marathon/convert) builds it from Marathon's JSON, the renderer
 * (src/marathon/render) writes Marathon's JSON from it, and everything else reads it.
 * docs/architecture.md says how to add a field.
 */
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
  /** Derived: has persistent volumes (a resident service). */
  readonly resident: boolean;
}
