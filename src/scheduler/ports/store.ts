import type { Deployment } from '../model/deployment';
import type { Group } from '../groups/group';
import type { Instance, InstanceFields } from '../model/instance';
import type { RunSpec } from '../model/run-spec';
import type { TaskFailure } from '../model/task-failure';

/**
 * Durable state port. Writes are synchronous (the embedded store, better-sqlite3, is synchronous):
 * when a call returns, the record is durable, which is how instances are persisted before an offer
 * is accepted. This departs from the architecture page's "store writes complete later as an input":
 * a synchronous embedded store makes that ordering trivially true and keeps the core simple.
 *
 * What is kept (issue 5, durable state): the root group as of the last accepted change, the run
 * specs the core is currently running (during a deployment these differ from the root: a run spec
 * being stopped is still run), every stored version of every run spec (bounded by the core), running
 * deployments, instances, the framework id, and each run spec's last task failure (store format 7).
 * Objects are passed live; the store must copy or
 * encode them before returning (the core mutates instances in place later).
 */
export interface Store {
  /** The root group as of the last accepted change. */
  saveRoot(root: Group): void;
  /** A run spec the core runs (created, updated, or scaled). */
  saveRunSpec(spec: RunSpec): void;
  /** The run spec is no longer run (its instances are gone). Its versions stay. */
  deleteRunSpec(runSpecId: string): void;
  /** One stored version of a run spec (`/v2/apps/{id}/versions`); keyed by id and `version`. */
  saveRunSpecVersion(spec: RunSpec): void;
  /** The version fell out of the bounded history. */
  deleteRunSpecVersion(runSpecId: string, version: string): void;
  /** One stored version of the root group (`/v2/groups/versions`, version revert). */
  saveRootVersion(root: Group): void;
  /** The root version fell out of the bounded history. */
  deleteRootVersion(version: string): void;
  /** A running deployment (saved when it starts and whenever its step advances). */
  saveDeployment(deployment: Deployment): void;
  /** The deployment finished, failed, or was cancelled. */
  deleteDeployment(deploymentId: string): void;
  saveInstances(instances: readonly Instance[]): void;
  deleteInstance(instanceId: string): void;
  saveFrameworkId(frameworkId: string): void;
  /**
   * A run spec's last task failure (`lastTaskFailure`; Marathon's TaskFailureRepository keeps it
   * per app), keyed by its `appId`: it replaces the one stored before. The core writes at most one
   * per run spec per input, and only one within TASK_FAILURE_BOUNDS.
   */
  saveTaskFailure(failure: TaskFailure): void;
  /** The run spec was deleted (Marathon deletes it on `app_terminated_event`); nothing stored is ignored. */
  deleteTaskFailure(runSpecId: string): void;
  /**
   * Moves a record the core cannot load out of the way (issue 11: no stored record may stop
   * pacer from starting): it is no longer loaded, but kept with `reason` for an operator to look
   * at; never deleted silently. A record that is not there (already moved) is ignored.
   */
  setAside(record: SetAsideRecord): void;
  /**
   * Everything stored; called once at start-up. Throws a clear Error on a corrupt or newer store
   * file; a record that does not decode is set aside (and reported in `setAside`), not thrown.
   */
  load(): StoredState;
}

/** The kinds of records the store keeps, as {@link StoredState} names them. */
export type StoredRecordKind = 'root' | 'runSpec' | 'runSpecVersion' | 'rootVersion' | 'deployment' | 'instance' | 'frameworkId' | 'taskFailure';

/**
 * A stored record that could not be loaded and was set aside, and why. `key` is what the record is
 * stored under: the run spec, deployment or instance id; the run spec id of a run spec version
 * (with `version`); the version of a root version; `/` for the root and the framework id; the
 * run spec id of a task failure.
 */
export interface SetAsideRecord {
  readonly kind: StoredRecordKind;
  readonly key: string;
  readonly version?: string;
  readonly reason: string;
}

/** What {@link Store.load} returns. Arrays are in a deterministic order (ids ascending). */
export interface StoredState {
  readonly root?: Group;
  readonly runSpecs: readonly RunSpec[];
  /** Every stored version of every run spec, oldest first per run spec. */
  readonly versions: readonly RunSpec[];
  /** Stored versions of the root group, oldest first. */
  readonly rootVersions: readonly Group[];
  readonly deployments: readonly Deployment[];
  /**
   * The stored instances as plain records: a store decodes them as such (and the in-memory stores
   * hand back the live `Instance`s they were given); recovery makes an `Instance` of each record it
   * adopts (recover-state.ts).
   */
  readonly instances: readonly InstanceFields[];
  readonly frameworkId?: string;
  /** The last task failure of run specs, by run spec id ascending (absent when none: store format 7). */
  readonly taskFailures?: readonly TaskFailure[];
  /** Records the store could not decode; already set aside by the store (empty when absent). */
  readonly setAside?: readonly SetAsideRecord[];
}
