import { EMPTY_ACCEPTED_ROLES_MESSAGE, roleNameProblem, defaultRoleWhen, residentStarRoleMessage, roleNotAllowedMessage, rolesAllowed } from '../../scheduler/index';
import type { ConvertContext } from './convert-context';
import { childPointer } from './json-pointer';
import type { WireObject } from './wire-object';

/** Where a run spec keeps its role fields, and what kind of run spec it is. */
export interface RoleFields {
  /** The object holding `role` (the definition itself). */
  readonly roleHolder: WireObject;
  /** The object holding `acceptedResourceRoles` (the app, or a pod's `scheduling.placement`). */
  readonly acceptedHolder: WireObject | undefined;
  /** The run spec id, when valid (without it only the default role is checked). */
  readonly id: string | undefined;
  readonly resident: boolean;
  /** `app` or `pod`, for messages. */
  readonly noun: 'app' | 'pod';
  /**
   * Pods echo an empty `acceptedResourceRoles` as the default; apps reject an empty list
   * (Marathon 1.11, facts 113).
   */
  readonly emptyAcceptedIsDefault: boolean;
}

/** The resolved roles of a run spec. */
export interface ResolvedRoles {
  readonly role: string;
  /** Empty: the default behaviour. */
  readonly acceptedResourceRoles: readonly string[];
  /** Whether the definition gave `acceptedResourceRoles` (else it stays absent in app definitions). */
  readonly acceptedGiven: boolean;
}

/**
 * Resolves and checks `role` and `acceptedResourceRoles` (spec 2.7, facts 109–114):
 *
 * - the role defaults to the enforced group role, else to the default role;
 * - allowed roles: the default role and the group role, or only the group role when the top-level
 *   group enforces it, plus the run spec's current role (`ctx.previousRole`, fact 111); run specs
 *   in the root group may use only the default role;
 * - `acceptedResourceRoles` must be a non-empty subset of `{*, role}`;
 * - resident run specs may not use `*` and must accept only `*` if they name accepted roles.
 */
export function resolveRoles(fields: RoleFields, ctx: ConvertContext): ResolvedRoles {
  const allowed = allowedRoles(fields.id, ctx);
  const given = fields.roleHolder.optionalString('role');
  const role = given ?? defaultRoleOf(fields.id, ctx);
  checkRole(fields, role, given !== undefined, allowed);
  const accepted = acceptedRolesFromWire(fields, role);
  return { role, acceptedResourceRoles: accepted ?? [], acceptedGiven: accepted !== undefined };
}

/**
 * The roles a run spec with this id may use, as the context says: the core's rule
 * (`rolesAllowed`, src/scheduler/groups/role-rules.ts) with the context's enforcement and previous
 * role; without a valid id only the default role.
 */
export function allowedRoles(id: string | undefined, ctx: ConvertContext): readonly string[] {
  if (id === undefined) return [ctx.defaultRole];
  return rolesAllowed(id, ctx.defaultRole, ctx.enforcedGroupRole !== undefined, ctx.previousRole);
}

/** The role of a definition that names none (the core's `defaultRoleWhen`, facts 110–112). */
export function defaultRoleOf(id: string | undefined, ctx: ConvertContext): string {
  return id === undefined ? ctx.defaultRole : defaultRoleWhen(id, ctx.defaultRole, ctx.enforcedGroupRole !== undefined);
}

/** Marathon's message for a role outside the allowed set (the core's). */
export { roleNotAllowedMessage };

function checkRole(fields: RoleFields, role: string, given: boolean, allowed: readonly string[]): void {
  const holder = fields.roleHolder;
  const nameProblem = given ? roleNameProblem(role) : undefined;
  if (nameProblem !== undefined) holder.fail('role', nameProblem);
  else if (fields.id !== undefined && !allowed.includes(role)) {
    holder.fail('role', roleNotAllowedMessage(role, allowed));
  }
  if (fields.resident && role === '*') {
    holder.fail('role', residentStarRoleMessage(fields.noun));
  }
}

function acceptedRolesFromWire(fields: RoleFields, role: string): readonly string[] | undefined {
  const holder = fields.acceptedHolder;
  const list = holder?.array('acceptedResourceRoles');
  if (holder === undefined || list === undefined) return undefined;
  const roles: string[] = [];
  list.forEach((item, i) => {
    if (typeof item !== 'string') holder.sink.add(childPointer(holder.pathOf('acceptedResourceRoles'), i), 'error.expected.jsstring');
    else roles.push(item);
  });
  if (roles.length !== list.length) return undefined;
  checkAcceptedRoles(fields, holder, roles, role);
  return roles;
}

function checkAcceptedRoles(fields: RoleFields, holder: WireObject, roles: readonly string[], role: string): void {
  const key = 'acceptedResourceRoles';
  if (roles.length === 0 && !fields.emptyAcceptedIsDefault) holder.fail(key, EMPTY_ACCEPTED_ROLES_MESSAGE);
  for (const r of roles) {
    const problem = roleNameProblem(r);
    if (problem !== undefined) holder.fail(key, problem);
  }
  if (roles.some((r) => r !== '*' && r !== role)) {
    holder.fail(key, role === '*' ? 'acceptedResourceRoles can only contain *'
      : `acceptedResourceRoles can only contain * and ${role}`);
  }
  if (fields.resident && roles.length > 0 && roles.some((r) => r !== '*')) {
    holder.fail(key, `A resident ${fields.noun} must have \`acceptedResourceRoles = ["*"]\`.`);
  }
}

/** Role-name rules are the core's (Marathon's `ResourceRole.validResourceRole` messages). */
export { roleNameProblem } from '../../scheduler/index';
