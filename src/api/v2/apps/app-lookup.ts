import type { ApiDeps } from '../../api-deps';
import type { AppSpec } from '../../../scheduler/model/app';
import { type Group, allRunSpecs, findGroup, findRunSpec, dotSegmentProblems, resolvePathId } from '../../../scheduler/index';
import { objectNotValid } from '../../errors';
import { marathonPath } from '../../../marathon/schemas/app-error-path';

/**
 * The canonical absolute id of an id taken from a URL or a body (`prod//web/` → `/prod/web`,
 * fact 21). An absolute id with `.` or `..` segments is refused (422 at `<pointerPrefix>/id`, as
 * Marathon's `childOf` rule does) rather than silently resolved (`/a/../b` is not `/b`).
 */
export function canonicalAppId(raw: string, pointerPrefix = ''): string {
  const problems = dotSegmentProblems(raw);
  if (problems.length > 0) throw objectNotValid([{ path: marathonPath(`${pointerPrefix}/id`), errors: problems }]);
  return resolvePathId(raw);
}

/** The app with this canonical id as of the last accepted change; undefined for pods and unknown ids. */
export function findApp(deps: ApiDeps, appId: string): AppSpec | undefined {
  const spec = findRunSpec(deps.scheduler.root(), appId);
  return spec?.kind === 'app' ? spec : undefined;
}

/** The group with this canonical id, or undefined. */
export function findAppGroup(deps: ApiDeps, groupId: string): Group | undefined {
  return findGroup(deps.scheduler.root(), groupId);
}

/** Every app of `group` and its subgroups, in path order. */
export function appsBelow(group: Group): AppSpec[] {
  return allRunSpecs(group).filter((spec): spec is AppSpec => spec.kind === 'app');
}
