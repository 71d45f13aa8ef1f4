import type { SimAgentSpec } from '../cluster/sim-agent-spec';
import type { HealthModel, SimTimings, TaskModel } from '../cluster/sim-models';
import type { Expectation } from './expectation';

/** Run options of a scenario, defaults filled in. */
export interface ScenarioOptions {
  /** Marathon `--enable_features task_killing` (TASK_KILLING state). Default false. */
  readonly taskKilling: boolean;
  /** The scheduler's default role. Default `"*"`. */
  readonly defaultRole: string;
  /** Marathon `--max_instances_per_offer`; absent: the scheduler's default. */
  readonly maxInstancesPerOffer?: number;
  /** pacer's `--unhealthy_kill_floor` (0–1); absent: each app's `upgradeStrategy.minimumHealthCapacity`. */
  readonly unhealthyKillFloor?: number;
  /** Simulated master and agent timings; DEFAULT_SIM_TIMINGS where the file gives none. */
  readonly timings: SimTimings;
}

/** Invariants the runner checks beyond those it always checks. */
export interface ScenarioInvariants {
  /** Instance counts must converge within this long after the last disturbance. */
  readonly convergeWithinMs?: number;
  /** Rolling replacements stay within their upgrade strategy: healthy ≥ minimum, total ≤ maximum. */
  readonly upgradeBounds?: boolean;
}

/** What one timeline step does. `runSpecId` values are absolute (`web` in the file becomes `/web`). */
export type Action =
  | {
    readonly type: 'app' | 'pod';
    /** The Marathon definition exactly as written (the converter validates it). */
    readonly definition: Readonly<Record<string, unknown>>;
    /** JSON pointer of the definition in the file (`/timeline/3/app`), for converter errors. */
    readonly pointer: string;
    /** The definition's `id`, made absolute. */
    readonly runSpecId: string;
    /** Override the lock of a running deployment (`?force=true`). */
    readonly force: boolean;
  }
  | { readonly type: 'scale'; readonly runSpecId: string; readonly instances: number; readonly force: boolean }
  | { readonly type: 'delete'; readonly runSpecId: string; readonly force: boolean }
  | { readonly type: 'resetDelay'; readonly runSpecId: string }
  /** Several apps and pods in one change of the root group (one deployment, dependency ordered). */
  | { readonly type: 'deploy'; readonly definitions: readonly DefinitionRef[]; readonly force: boolean }
  /** DELETE /v2/deployments/{id} of the deployment that holds this run spec. */
  | { readonly type: 'cancelDeployment'; readonly runSpecId: string; readonly force: boolean }
  | {
    readonly type: 'kill';
    readonly runSpecId: string;
    /** `count` instances chosen by the runner deterministically, or all of them on one agent. */
    readonly target: { readonly kind: 'count'; readonly count: number } | { readonly kind: 'agent'; readonly agentId: string };
    /** Scale the run spec down by the killed instances (`scale=true`). */
    readonly scale: boolean;
    /** Wipe the instances' reservations (`wipe=true`). */
    readonly wipe: boolean;
  }
  | { readonly type: 'partition' | 'killAgent'; readonly agentId: string }
  /**
   * `dead`: the agent was killed while partitioned (by the killAgent step at this JSON pointer):
   * the heal can do nothing, and the run's summary says so at the step.
   */
  | { readonly type: 'heal'; readonly agentId: string; readonly dead?: { readonly killedBy: string } }
  | { readonly type: 'addAgents'; readonly agents: readonly SimAgentSpec[] }
  /**
   * The leading scheduler dies; a standby takes over `downtimeMs` later with a core rebuilt from
   * the store (the runner's `schedulerFailover`).
   */
  | { readonly type: 'schedulerFailover'; readonly downtimeMs: number }
  | { readonly type: 'health'; readonly runSpecId: string; readonly model: HealthModel }
  | { readonly type: 'taskModel'; readonly runSpecId: string; readonly model: TaskModel }
  | { readonly type: 'expect'; readonly expectation: Expectation }
  | { readonly type: 'note'; readonly text: string };

const ACTION_KEYS: Readonly<Record<Action['type'], true>> = {
  app: true, pod: true, scale: true, delete: true, kill: true, partition: true, heal: true, killAgent: true,
  addAgents: true, health: true, taskModel: true, resetDelay: true, deploy: true, cancelDeployment: true, schedulerFailover: true,
  expect: true, note: true,
};

/** A scheduler failover's default downtime: Marathon's default ZooKeeper session timeout (10 s) before a standby takes over. */
export const DEFAULT_FAILOVER_DOWNTIME_MS = 10_000;

/**
 * Steps that need a leading scheduler — commands and expectations (which read its state) — and so
 * cannot run while a `schedulerFailover` leaves none. The others happen to the cluster and can.
 */
export const NEEDS_SCHEDULER: ReadonlySet<Action['type']> = new Set<Action['type']>([
  'app', 'pod', 'scale', 'delete', 'resetDelay', 'deploy', 'cancelDeployment', 'kill', 'expect', 'schedulerFailover',
]);

/** One app or pod definition of a `deploy` step. */
export interface DefinitionRef {
  readonly kind: 'app' | 'pod';
  readonly definition: Readonly<Record<string, unknown>>;
  readonly pointer: string;
  readonly runSpecId: string;
}

/** The action keys a timeline step may carry (each is the `type` of its {@link Action}), in documented order. */
export const ACTION_TYPES = Object.keys(ACTION_KEYS) as readonly Action['type'][];

/** One step of the timeline. */
export interface TimelineStep {
  /** Virtual ms since the start of the run; non-decreasing along the timeline. */
  readonly atMs: number;
  /** 1-based line of the step in the file. */
  readonly line?: number;
  /** JSON pointer of the step in the file (`/timeline/3`). */
  readonly pointer: string;
  readonly action: Action;
}

/** A scenario file, validated and typed: what the runner executes. */
export interface Scenario {
  readonly name: string;
  readonly description?: string;
  readonly seed: number;
  /** How long the run lasts, in virtual ms. */
  readonly durationMs: number;
  readonly options: ScenarioOptions;
  readonly invariants: ScenarioInvariants;
  /** The initial agents, expanded from the groups in file order. */
  readonly agents: readonly SimAgentSpec[];
  readonly timeline: readonly TimelineStep[];
}
