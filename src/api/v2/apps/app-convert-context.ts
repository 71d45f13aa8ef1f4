import type { ApiDeps } from '../../api-deps';
import type { ConvertContext } from '../../../marathon/convert/convert-context';
import type { AppSpec } from '../../../scheduler/model/app';
import { roleContextOf } from '../../../scheduler/index';

/**
 * The conversion context of an app definition (spec 2.7, facts 109–112):
 *
 * - `defaultRole` is `--mesos_role`;
 * - the group role is enforced when the app's top-level group has `enforceRole`, or, for a
 *   top-level group this change creates, when `--new_group_enforce_role` is `top` (fact 112);
 * - an existing app keeps being accepted with the role it has (fact 111, Marathon's
 *   `RoleSettings.forService` adds the existing role to the valid ones): `previousRole`;
 * - `--enable_features`, which the app's GPUs, secrets and external volumes need (`feature-rules.ts`).
 */
export function appConvertContext(deps: ApiDeps, appId: string, versionIso: string, existing: AppSpec | undefined): ConvertContext {
  return {
    defaultRole: deps.config.defaultRole,
    versionIso,
    enabledFeatures: deps.config.features,
    ...(deps.config.defaultNetworkName !== undefined ? { defaultNetworkName: deps.config.defaultNetworkName } : {}),
    ...roleContextOf(deps.scheduler.root(), appId, existing, deps.config.newGroupEnforceRole),
  };
}
