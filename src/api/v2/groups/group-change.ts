import type { ApiDeps } from '../../api-deps';
import { objectNotValid } from '../../errors';
import { GROUP_UPDATE_FIELDS, type GroupUpdateBody } from '../../schemas/group-update';
import { canonicalVersion } from '../../version-text';
import type { RootChange } from '../../../scheduler/model/inputs';
import { isoTime } from '../../../scheduler/index';
import { ONLY_OPTION_MESSAGE } from './only-option';
import { resolveGroupUpdate } from './resolve-group-update';

/** What reading a group change needs besides the body. */
export interface GroupChangeInput {
  readonly deps: ApiDeps;
  /** The group the body applies to (absolute). */
  readonly groupId: string;
  readonly force: boolean;
}

/**
 * The change a `GroupUpdate` body asks for (Marathon's GroupApiService.updateGroup, fact 71), for
 * the core to make: `{"version": v}` reverts the group to a stored version, `{"scaleBy": f}` scales
 * its apps, anything else is a structural update, whose apps are converted here. Either special
 * field must come alone (422 `not allowed in conjunction with other properties.` at its path).
 * Throws the catalogue's errors for what the body itself gets wrong; the core refuses the rest
 * (unknown group, clashing ids, a dependency cycle, fact 74).
 */
export function groupChangeOf(body: GroupUpdateBody, input: GroupChangeInput): RootChange {
  checkOnlyOption(body);
  if (body.version !== undefined) {
    // readGroupUpdate accepted only parsable dates.
    return { kind: 'revertGroup', groupId: input.groupId, version: canonicalVersion(body.version) as string };
  }
  if (body.scaleBy !== undefined) return { kind: 'scaleGroup', groupId: input.groupId, factor: body.scaleBy };
  const update = resolveGroupUpdate(body, input.groupId, {
    deps: input.deps,
    root: input.deps.scheduler.root(),
    // The converter fills in a version; the core stamps the real one.
    versionIso: isoTime(input.deps.clock.nowMs()),
    force: input.force,
    newGroupEnforceRole: input.deps.config.newGroupEnforceRole,
  });
  return { kind: 'updateGroup', update };
}

function checkOnlyOption(body: GroupUpdateBody): void {
  const defined = GROUP_UPDATE_FIELDS.filter((f) => body[f] !== undefined).length;
  const errors = (['version', 'scaleBy'] as const)
    .filter((f) => body[f] !== undefined && defined > 1)
    .map((f) => ({ path: `/${f}`, errors: [ONLY_OPTION_MESSAGE] }));
  if (errors.length > 0) throw objectNotValid(errors);
}
