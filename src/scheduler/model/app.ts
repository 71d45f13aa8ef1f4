import type { AppContainer } from './app-container';
import type { AppCheck } from './checks';
import type { Artifact } from './fetch';
import type { HealthCheckSpec } from './health-check';
import type { Network } from './networks';
import type { PortDefinition } from './ports';
import type { ReadinessCheckSpec } from './readiness-check';
import type { GivenExecutorResources, ResourceLimits } from './resource-limits';
import type { ExactScalars, ScalarResources } from './resources';
import type { RunSpecCommon } from './run-spec-common';
import type { SecretEnv, Secrets } from './secrets';

/** Deprecated and without effect (`residency`, Marathon's `AppResidency`): kept and echoed as given. */
export interface Residency {
  readonly relaunchEscalationTimeoutSeconds?: number;
  readonly taskLostBehavior?: 'WAIT_FOREVER' | 'RELAUNCH_AFTER_TIMEOUT';
}

/**
 * An app: one task per instance (Marathon's `app.raml` `App`, every field pacer accepts),
 * normalized by the converter (src/marathon/convert): defaults filled, deprecated fields read into
 * their successors (`ports` → `portDefinitions`, `uris` → `fetch`, `container.docker.network` →
 * `networks`, `container.docker.portMappings` → `container.portMappings`), units converted
 * (milli-units, milliseconds). What the core schedules with, what the launcher hands the drivers,
 * what the store keeps (as the Marathon JSON src/marathon/render writes from it) and what the API
 * renders.
 */
export interface AppSpec extends RunSpecCommon {
  readonly kind: 'app';

  /** The shell command (`/bin/sh -c`); exclusive with `args`. */
  readonly cmd?: string;
  /** An argv run without a shell (or the arguments of an image's entrypoint); never empty when present. */
  readonly args?: readonly string[];
  readonly container?: AppContainer;
  /** The user the task runs as on the agent; absent: the agent's default. */
  readonly user?: string;
  /** Plain environment variables of the task (`env` without the secret-backed ones). */
  readonly env: Readonly<Record<string, string>>;
  /** Environment variables backed by a secret (`env.X = {"secret": name}`). */
  readonly envSecrets: SecretEnv;
  readonly secrets: Secrets;
  /** Downloaded into the sandbox before the task starts (`fetch`, or the deprecated `uris`). */
  readonly fetch: readonly Artifact[];
  /** The executor (`""`: the default command executor; `//cmd`; a custom executor's path). */
  readonly executor: string;
  /** Allocate a TTY; absent when not given. */
  readonly tty?: boolean;

  /** cpus, mem, disk, gpus per instance. */
  readonly resources: ScalarResources;
  /** cpus, mem and disk as the client wrote them, when the milli-units round one ({@link ExactScalars}). */
  readonly exactResources?: ExactScalars;
  readonly resourceLimits?: ResourceLimits;
  readonly executorResources?: GivenExecutorResources;

  /** Never empty: `[{mode: host}]` when none were given. */
  readonly networks: readonly Network[];
  /** The app's ports under host networking (given, from `ports`, or one named `default`); empty otherwise. */
  readonly portDefinitions: readonly PortDefinition[];
  /** Host networking: the port definitions' ports are the host ports (forced false otherwise). */
  readonly requirePorts: boolean;
  /**
   * Derived from the ports above (the matcher's view): one entry per port each task needs on its
   * host, 0 = any free port, N = exactly N.
   */
  readonly hostPorts: readonly number[];

  readonly healthChecks: readonly HealthCheckSpec[];
  /** At most one (fact 31); absent means none. */
  readonly readinessChecks?: readonly ReadinessCheckSpec[];
  readonly check?: AppCheck;

  /** SIGTERM to SIGKILL (`taskKillGracePeriodSeconds`); absent when not given: the core's default 3 s. */
  readonly killGracePeriodMs?: number;
  /** Absolute ids of run specs or groups this app depends on (relative ids resolved by the API). */
  readonly dependencies: readonly string[];
  /** Given, or Marathon's default for an app with persistent volumes; absent otherwise. */
  readonly residency?: Residency;
}
