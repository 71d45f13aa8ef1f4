import type { RunSpec } from '../model/run-spec';
import type { NewGroupEnforceRole } from './change-options';
import type { Group } from './group';
import { isTopLevel, segments, topLevelOf } from './path-id';
import { findGroup } from './tree-query';
import type { ValidationDetail } from './validation-detail';

/*
 * Role rules of spec section 2.7 and Marathon 1.11's `util/RoleSettings.scala`:
 *
 * - the group role of a run spec is the name of its top-level group; run specs directly in the
 *   root have none and may use only the default role (`--mesos_role`, default `*`);
 * - without enforcement a run spec may use the default role or its group role, and defaults to
 *   the default role; with `enforceRole` on its top-level group only the group role, which is
 *   then also the default;
 * - a top-level group that does not exist yet (it is being created with the run spec) enforces
 *   when `--new_group_enforce_role top` is set;
 * - the role an existing run spec already has stays acceptable (fact 111), except in the root.
 */

/** Settings that change which roles are allowed, besides the default role. */
export interface RoleOptions {
  /** `--new_group_enforce_role`: decides enforcement when the top-level group does not exist yet. Default `off`. */
  readonly newGroupEnforceRole?: NewGroupEnforceRole;
  /** The role the run spec has now (when it exists): stays acceptable until changed (fact 111). */
  readonly previousRole?: string;
}

/** Options of {@link validateRole} besides the previous version. */
export interface RoleValidationOptions {
  /** `--new_group_enforce_role` (default `off`). */
  readonly newGroupEnforceRole?: NewGroupEnforceRole;
  /** `?force=true`: allow a role change of a resident run spec (fact 114). */
  readonly force?: boolean;
}

/** The group role: the top-level group's name (`/dev/api` → `dev`); undefined for run specs directly in the root. */
export function groupRoleOf(runSpecId: string): string | undefined {
  const parts = segments(runSpecId);
  return parts.length >= 2 ? parts[0] : undefined;
}

/**
 * True when the top-level group of `runSpecId` enforces its role: its `enforceRole`, or, when that
 * group does not exist yet, `newGroupEnforceRole === 'top'`. False for run specs in the root.
 */
export function enforcesRole(root: Group, runSpecId: string, newGroupEnforceRole: NewGroupEnforceRole = 'off'): boolean {
  if (groupRoleOf(runSpecId) === undefined) return false;
  const top = findGroup(root, topLevelOf(runSpecId) as string);
  return top === undefined ? newGroupEnforceRole === 'top' : top.enforceRole;
}

/**
 * The roles `runSpecId` may use, in Marathon's order and without duplicates (it prints them in
 * this order in its message): root level `[default]`; enforced `[group, previous?]`; otherwise
 * `[default, group, previous?]`.
 */
export function allowedRoles(root: Group, runSpecId: string, defaultRole: string, options: RoleOptions = {}): string[] {
  return rolesAllowed(runSpecId, defaultRole, enforcesRole(root, runSpecId, options.newGroupEnforceRole), options.previousRole);
}

/**
 * The one rule behind {@link allowedRoles}, given whether the top-level group enforces its role:
 * the converter (src/marathon/convert/role-rules.ts) uses it with what its context says.
 */
export function rolesAllowed(runSpecId: string, defaultRole: string, enforced: boolean, previousRole?: string): string[] {
  const groupRole = groupRoleOf(runSpecId);
  if (groupRole === undefined) return [defaultRole];
  const roles = enforced ? [groupRole] : [defaultRole, groupRole];
  if (previousRole !== undefined) roles.push(previousRole);
  return [...new Set(roles)];
}

/** The role a new run spec gets when it names none: the group role when enforced, else the default role (facts 110–112). */
export function defaultRoleFor(root: Group, runSpecId: string, defaultRole: string, newGroupEnforceRole: NewGroupEnforceRole = 'off'): string {
  return defaultRoleWhen(runSpecId, defaultRole, enforcesRole(root, runSpecId, newGroupEnforceRole));
}

/**
 * {@link defaultRoleFor} given whether the top-level group enforces its role. The previous role
 * plays no part: a full replacement without `role` is normalized like a new definition.
 */
export function defaultRoleWhen(runSpecId: string, defaultRole: string, enforced: boolean): string {
  const groupRole = groupRoleOf(runSpecId);
  return groupRole !== undefined && enforced ? groupRole : defaultRole;
}

/** What converting run spec `runSpecId` needs to know of the roles around it (`ConvertContext`). */
export interface RoleContext {
  /** The group role, when the top-level group enforces it. */
  readonly enforcedGroupRole?: string;
  /** The role of the run spec stored under this id now: stays acceptable until changed (fact 111). */
  readonly previousRole?: string;
}

/**
 * The role facts of a run spec about to be written into `root`: its group role when its top-level
 * group enforces it ({@link enforcesRole}, or `enforces(topLevelId)` when the same request changes
 * `enforceRole`), and the role of `previous`, the run spec stored under its id now. The API hands
 * them to the converter, so that every write path derives them by this one rule.
 */
export function roleContextOf(
  root: Group, runSpecId: string, previous: RunSpec | undefined, newGroupEnforceRole: NewGroupEnforceRole,
  enforces?: (topLevelId: string) => boolean,
): RoleContext {
  const groupRole = groupRoleOf(runSpecId);
  const enforced = groupRole !== undefined
    && (enforces === undefined ? enforcesRole(root, runSpecId, newGroupEnforceRole) : enforces(topLevelOf(runSpecId) as string));
  return {
    ...(enforced ? { enforcedGroupRole: groupRole } : {}),
    ...(previous !== undefined ? { previousRole: previous.role } : {}),
  };
}

/** Marathon's message for `enforceRole` on a group that is not top-level (`PATCH /v2/groups/a/b`, fact 72). */
export const NOT_TOP_LEVEL_MESSAGE = 'Path needs to be top-level';

/** Marathon's message for `enforceRole: true` on a nested group of a group update (fact 73). */
export function enforceRoleNotTopLevelMessage(groupId: string): string {
  return `enforceRole can only be set for top-level groups, and ${groupId} is not top-level`;
}

/** Marathon's message for a change of `enforceRole` in a group update that also lists apps (fact 73). */
export const ENFORCE_ROLE_WITH_SERVICES_MESSAGE =
  'enforceRole cannot be modified in a request that adds, removes or modifies services; please make these changes in separate requests.';

/**
 * Why a group update may not give group `groupId` this `enforceRole` (fact 73), or undefined:
 * `true` only on top-level groups (`false` below is ignored, as Marathon ignores it); an existing
 * top-level group's value may not change in a request that also adds, removes or changes services
 * (`servicesModified`: the update lists apps somewhere). `root` is the tree before the change.
 */
export function enforceRoleProblem(root: Group, groupId: string, enforceRole: boolean, servicesModified: boolean): string | undefined {
  if (!isTopLevel(groupId)) return enforceRole ? enforceRoleNotTopLevelMessage(groupId) : undefined;
  const existing = findGroup(root, groupId);
  return servicesModified && existing !== undefined && existing.enforceRole !== enforceRole ? ENFORCE_ROLE_WITH_SERVICES_MESSAGE : undefined;
}

/** Marathon's message for a role outside the allowed set (facts 109–111). */
export function roleNotAllowedMessage(role: string, allowed: readonly string[]): string {
  return `got ${role}, expected one of: [${allowed.join(', ')}]`;
}

/** Marathon's message for a resident run spec with the role `*` (fact 114). */
export function residentStarRoleMessage(kind: RunSpec['kind']): string {
  return `Resident ${kind}s cannot have the role *`;
}

/** Marathon's message for a role change of a resident run spec without `?force=true` (`RoleSettings.residentRoleChangeWarningMessage`). */
export function residentRoleChangeMessage(previousRole: string, newRole: string): string {
  return 'It is not possible to change the role for existing reservations. If you proceed with this change, all existing '
    + `instances will continue to run under the previous role, ${previousRole}. Only new instances will be `
    + `allocated with the new role, ${newRole}. In order to continue, retry your request with ?force=true`;
}

/**
 * Checks `spec.role` against `root` (the tree before the change) and returns the `/role` detail of
 * a validation failure, or undefined (Marathon's `validWithRoleEnforcement`, all `/role` errors in
 * one entry):
 *
 * 1. the role must be one of {@link allowedRoles} (with `previous.role` kept acceptable);
 * 2. a resident run spec may not use `*`;
 * 3. a resident run spec may not change its role without `force`.
 *
 * `previous` is the version stored now (undefined for a new run spec).
 */
export function validateRole(
  root: Group, spec: RunSpec, defaultRole: string, previous?: RunSpec, options: RoleValidationOptions = {},
): ValidationDetail | undefined {
  const errors: string[] = [];
  const allowed = allowedRoles(root, spec.id, defaultRole, {
    ...(options.newGroupEnforceRole !== undefined ? { newGroupEnforceRole: options.newGroupEnforceRole } : {}),
    ...(previous !== undefined ? { previousRole: previous.role } : {}),
  });
  if (!allowed.includes(spec.role)) errors.push(roleNotAllowedMessage(spec.role, allowed));
  errors.push(...residentRoleErrors(spec, previous, options.force === true));
  return errors.length === 0 ? undefined : { path: '/role', errors };
}

/**
 * The resident-only role errors of fact 114: the role `*`, and a role change without `force`
 * (then existing reservations would stay with the old role). Empty for non-resident run specs.
 */
export function residentRoleErrors(spec: RunSpec, previous: RunSpec | undefined, force: boolean): string[] {
  if (!spec.resident) return [];
  const errors: string[] = [];
  if (spec.role === '*') errors.push(residentStarRoleMessage(spec.kind));
  if (previous !== undefined && previous.role !== spec.role && !force) errors.push(residentRoleChangeMessage(previous.role, spec.role));
  return errors;
}
