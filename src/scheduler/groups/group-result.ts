import type { Group } from './group';

/** Why a change to the group tree was refused (an expected outcome, never an exception). */
export type GroupError =
  /** The group does not exist (`Group '/x' does not exist`). */
  | 'unknown-group'
  /** No app or pod has this id. */
  | 'unknown-run-spec'
  /** The id is already used by something of another kind (groups, apps and pods share one namespace). */
  | 'namespace-conflict'
  /** A change would create a parent group whose id ends in a reserved keyword (`reserved-new-group.ts`). */
  | 'reserved-group'
  /** `enforceRole` on a group that is not top-level (`Path needs to be top-level`). */
  | 'not-top-level'
  /** A group scale (`scaleBy`) would take an app past `MAX_INSTANCES` (docs/limits.md). */
  | 'too-many-instances'
  /** A revert names a root version that has no such group (`Group /g not available in version <v>`). */
  | 'unavailable-version';

/** A refused change: the reason and a Marathon-worded message. */
export interface GroupFailure {
  readonly ok: false;
  readonly error: GroupError;
  readonly message: string;
}

/** The outcome of a change: the new root, or why there is none. */
export type GroupResult = { readonly ok: true; readonly root: Group } | GroupFailure;

/** Builds a {@link GroupFailure}. */
export function groupFailure(error: GroupError, message: string): GroupFailure {
  return { ok: false, error, message };
}
