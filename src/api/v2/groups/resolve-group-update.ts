import { ErrorSink } from '../../../marathon/convert/error-sink';
import { invalidJson, objectNotValid } from '../../errors';
import { elementPath, type GroupUpdateBody } from '../../schemas/group-update';
import { type NewGroupEnforceRole, isTopLevel, notChildMessage, parentOf, resolvePathId, validatePathId, findGroup, enforceRoleProblem, type GroupUpdate } from '../../../scheduler/index';
import type { AppSpec } from '../../../scheduler/model/app';
import { ONLY_OPTION_MESSAGE } from './only-option';
import { convertGroupApp, type GroupAppContext, type GroupErrorSinks } from './convert-group-app';


/** What resolving a structural update needs besides the body. */
export type ResolveContext = Omit<GroupAppContext, 'enforces'> & { readonly newGroupEnforceRole: NewGroupEnforceRole };

/**
 * Validates a structural `GroupUpdate` body for group `groupId` (absolute) and converts it into
 * the core's {@link GroupUpdate} (absolute ids, apps as the model; the core stamps versions), or
 * throws: shape problems of nested apps → 422 "Invalid JSON"; everything else → 422 "Object is
 * not valid" with every problem found (facts 3, 4, 66, 73):
 *
 * - a nested group's id resolves against its parent and must name a direct child
 *   (`Identifier is not child of '<parent>'` at `/groups(i)/id`), and be a valid path id;
 * - `enforceRole: true` only on top-level groups; `enforceRole` of an existing top-level group
 *   may not change in a request that also lists apps (fact 73);
 * - apps: see {@link convertGroupApp}; dependencies resolve against their group.
 *
 * `enforceRole` left out keeps an existing group's value (a new top-level group gets
 * `--new_group_enforce_role`). Marathon resets it to that default on every update, which turns a
 * harmless re-PUT of an enforcing group with apps into the fact-73 rejection; keeping the value is
 * what users expect of a field they did not send (marathon-reference.md: "group endpoints are
 * destructive").
 */
export function resolveGroupUpdate(body: GroupUpdateBody, groupId: string, ctx: ResolveContext): GroupUpdate {
  const given = new Map<string, boolean>();
  collectEnforceRoles(body, groupId, given);
  const enforces = (topLevelId: string): boolean =>
    given.get(topLevelId) ?? findGroup(ctx.root, topLevelId)?.enforceRole ?? ctx.newGroupEnforceRole === 'top';
  const walk: Walk = { app: { ...ctx, enforces }, sinks: { shape: new ErrorSink(), semantic: new ErrorSink() }, servicesModified: modifiesServices(body) };
  const resolved = resolveNode(body, groupId, '', walk);
  if (walk.sinks.shape.failed) throw invalidJson(walk.sinks.shape.details());
  if (walk.sinks.semantic.failed) throw objectNotValid(walk.sinks.semantic.details());
  return resolved;
}

interface Walk {
  readonly app: GroupAppContext;
  readonly sinks: GroupErrorSinks;
  readonly servicesModified: boolean;
}

function resolveNode(body: GroupUpdateBody, groupId: string, path: string, walk: Walk): GroupUpdate {
  checkEnforceRole(body, groupId, path, walk);
  if (path !== '') checkNestedOnlyOption(body, path, walk.sinks.semantic);
  const out: { -readonly [K in keyof GroupUpdate]: GroupUpdate[K] } = { id: groupId };
  if (body.enforceRole !== undefined && isTopLevel(groupId)) out.enforceRole = body.enforceRole;
  if (body.dependencies !== undefined) out.dependencies = resolveDependencies(body.dependencies, groupId, path, walk.sinks.semantic);
  if (body.apps !== undefined) {
    out.apps = body.apps
      .map((app, i) => convertGroupApp(app, groupId, elementPath(path, 'apps', i), walk.app, walk.sinks))
      .filter((a): a is AppSpec => a !== undefined);
  }
  if (body.groups !== undefined) {
    out.groups = body.groups.map((child, i) => {
      const childPath = elementPath(path, 'groups', i);
      const childId = resolvePathId(child.id ?? '', groupId);
      checkChildId(child.id ?? '', childId, groupId, `${childPath}/id`, walk.sinks.semantic);
      return resolveNode(child, childId, childPath, walk);
    });
  }
  return out;
}

/** The core's rule for `enforceRole` in a group update (fact 73), reported at the body's path. */
function checkEnforceRole(body: GroupUpdateBody, groupId: string, path: string, walk: Walk): void {
  if (body.enforceRole === undefined) return;
  const problem = enforceRoleProblem(walk.app.root, groupId, body.enforceRole, walk.servicesModified);
  if (problem !== undefined) walk.sinks.semantic.add(`${path}/enforceRole`, problem);
}

/** A nested group always names itself, so its `version`/`scaleBy` always come with another field. */
function checkNestedOnlyOption(body: GroupUpdateBody, path: string, sink: ErrorSink): void {
  for (const field of ['version', 'scaleBy'] as const) {
    if (body[field] !== undefined) sink.add(`${path}/${field}`, ONLY_OPTION_MESSAGE);
  }
}

function checkChildId(given: string, childId: string, parentId: string, at: string, sink: ErrorSink): void {
  for (const message of validatePathId(given)) sink.add(at, message);
  // The resolved id too: a relative id adds its parent's length and depth (docs/limits.md).
  for (const message of validatePathId(childId)) sink.add(at, message);
  if (childId !== '/' && parentOf(childId) !== parentId) sink.add(at, notChildMessage(parentId));
}

function resolveDependencies(dependencies: readonly string[], groupId: string, path: string, sink: ErrorSink): string[] {
  dependencies.forEach((d, i) => {
    for (const message of validatePathId(d)) sink.add(elementPath(path, 'dependencies', i), message);
  });
  return dependencies.map((d) => resolvePathId(d, groupId));
}

/** The `enforceRole` values the body gives to top-level groups, by absolute id. */
function collectEnforceRoles(body: GroupUpdateBody, groupId: string, out: Map<string, boolean>): void {
  if (body.enforceRole !== undefined && isTopLevel(groupId)) out.set(groupId, body.enforceRole);
  for (const child of body.groups ?? []) collectEnforceRoles(child, resolvePathId(child.id ?? '', groupId), out);
}

/** Marathon's `updateModifiesServices`: the body lists apps somewhere. */
export function modifiesServices(body: GroupUpdateBody): boolean {
  return body.apps !== undefined || (body.groups ?? []).some(modifiesServices);
}
