import type { InstanceTarget } from '../model/instance-target';
import type { Instance } from '../model/instance';
import type { TimerHandle } from '../instances/instance-effects';
import type { InstanceIndex } from './instance-index';
import type { InstanceQueue } from './instance-queue';
import type { RestartBounds } from '../instances/restart-bounds';
import type { RunSpec } from '../model/run-spec';
import type { LaunchRequest } from './launch-request';
import type { PlacementCounts } from '../constraints/placement-counts';
import type { RejectionStats } from './rejection-stats';
import type { TaskFailure } from '../model/task-failure';

/** Current launch delay of a run spec (Marathon's rate limiter entry). */
export interface BackoffState {
  delayMs: number;
  deadlineMs: number;
  /** `versionInfo.lastConfigChangeAt` the delay belongs to: a new config version resets it. */
  configVersion: string;
  /** The `backoffExpired` timer. */
  timer?: TimerHandle;
}

/**
 * Everything the core tracks per run spec. `activeCount` counts instances that fill the target
 * (goal Running, not terminal, not UnreachableInactive); it is maintained incrementally by
 * instances/instance-lifecycle.ts so that convergence never rescans all instances.
 */
export interface RunSpecState {
  spec: RunSpec;
  request: LaunchRequest;
  /** Its instances by id, in creation order (the id index is built as look-ups need it). */
  readonly instances: InstanceIndex;
  /** Instances waiting for an offer, FIFO. */
  readonly scheduled: InstanceQueue;
  activeCount: number;
  /**
   * How many of its instances are Running (any goal, any version): a deployment action cannot be
   * done while fewer than its target run, so it is checked without reading every instance.
   */
  runningCount: number;
  /**
   * How many of its instances count towards its kill-storm floor now (instance-tracker.ts
   * `countsForFloor`), kept by the instance tracker at each write that can change it: a failed
   * health check of an app of 100,000 instances decided on a pass over them all (73 % of a
   * simulated storm's time), now on this number.
   */
  floorCounted: number;
  /**
   * Moves whenever one of its instances starts or stops counting for the floor or being killable
   * (instance-tracker.ts `floorFacts`): while it stays, the kills the floor held stay held, and
   * a new due kill is decided alone (health/unhealthy-kill.ts `settleDueKills`).
   */
  floorVersion: number;
  /**
   * New instances its convergence wants but has not created yet (more than one input may create,
   * SchedulerOptions.instancesPerInput): later inputs create them. Counted as waiting in the queue.
   */
  toCreate: number;
  /**
   * While it is deleted: instances its delete has still to kill (more than one input may kill,
   * SchedulerOptions.instancesPerInput), last to kill first; empty otherwise.
   */
  toKill: Instance[];
  counts: PlacementCounts;
  backoff?: BackoffState;
  deleting: boolean;
  /** Set while a RestartApplication replaces instances of older versions (rolling, bounded). */
  restart?: RestartBounds;
  readonly rejections: RejectionStats;
  /** How many of its instances run (or will run) under each role; roles with none are absent. */
  readonly instanceRoles: Map<string, number>;
  /** The newest task failure of its instances (`lastTaskFailure`); stored (store format 7), recovered on start. */
  lastTaskFailure?: TaskFailure;
  /**
   * Reservations of this run spec's resident instances that wait to be released (DESTROY +
   * UNRESERVE wait for an offer of them), by reservation id (the instance's id) to the
   * reservation's role: those of instances that are done (scaled down, deleted; still held, goal
   * not Running, until the release) and those of instances killed with wipe (forgotten at once,
   * as Marathon force-expunges them: commands/kill-instances.ts). While any exist the run spec
   * wants offers of their roles, and a delete does not finish. In memory only: a restart gets
   * back the retired instances' from the store, and releases a wiped one's as unknown when it is
   * first offered. Absent = none.
   */
  releasing?: Map<string, string>;
  /**
   * The instance target a placement last found right for `placedSpec` (its version, config
   * generation and, unless resident, role: instances/instance-tracker.ts `place`): an instance
   * placed with this very target under this very definition needs none of them compared (the
   * usual case: the instances of a scale-up share one target). Absent until a first placement.
   */
  placedTarget?: InstanceTarget;
  placedSpec?: RunSpec;
  /**
   * The epoch of `state.changed` in which its id was last put there (written only by
   * `SchedulerState.noteChanged`, which does not add it again within that epoch).
   */
  changedEpoch?: number;
}
