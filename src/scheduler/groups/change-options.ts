/** `--new_group_enforce_role`: `top` gives new top-level groups `enforceRole: true` (Marathon default `off`). */
export type NewGroupEnforceRole = 'off' | 'top';

/** What a change to the group tree needs besides the change itself. */
export interface ChangeOptions {
  /** ISO 8601 timestamp of the new root version (stamped on the root and every group below it). */
  readonly version: string;
  /** `enforceRole` of top-level groups this change creates implicitly (spec 2.7 rule 5, fact 112). */
  readonly newGroupEnforceRole: NewGroupEnforceRole;
}

/** A removal needs only the new version; `newGroupEnforceRole` is accepted and unused (no group is created). */
export type RemoveOptions = Pick<ChangeOptions, 'version'> & Partial<Pick<ChangeOptions, 'newGroupEnforceRole'>>;
