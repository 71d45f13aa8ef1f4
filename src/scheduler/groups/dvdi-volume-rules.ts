import type { AppSpec } from '../model/app';
import type { Group } from './group';
import type { RunSpec } from '../model/run-spec';
import type { DvdiVolumeInfo } from '../model/volumes';
import { javaDouble } from '../kernel/java-double';
import { allRunSpecs } from './tree-query';
import type { ValidationDetail } from './validation-detail';

/** The provider whose volumes these rules are about (Marathon's `DVDIProvider.name`). */
const DVDI = 'dvdi';

/**
 * Marathon's message for an app with DVDI volumes and more than one instance. Marathon writes
 * `[$app.id]`, which Scala expands to the whole app definition followed by `.id`; pacer writes
 * the id, which is what the text means.
 */
export function dvdiInstancesMessage(appId: string): string {
  return `Number of instances is limited to 1 when declaring DVDI volumes in app [${appId}]`;
}

/**
 * Marathon's rules for an app's DVDI volumes (`provider: "dvdi"`) that hold for every root
 * change, as Marathon checks them on its model for each new root (`DVDIProviderValidations.app`
 * and `rootGroup`, `ExternalVolumes.validApp` / `validRootGroup` from `RootGroup.validRootGroup`):
 * creates, updates, scales and group writes alike (a scale is how a second instance would come).
 *
 * - at most one instance (at `/`): a DVDI volume is attached to one task at a time;
 * - no non-`shared` DVDI volume name twice in the app (at `/`);
 * - `upgradeStrategy.maximumOverCapacity` 0 (`UpgradeStrategy.validForResidentTasks`), so an
 *   upgrade stops the old task before the new one attaches the volume (a given strategy only: the
 *   converter's default for such an app is already `{0.5, 0}`);
 * - a non-`shared` DVDI volume name used by no other app of `root` (at `/container`).
 *
 * Pods have no external volumes. Checked only for the run specs a change touches, so a root an
 * older pacer stored with such an app still loads.
 */
export function dvdiVolumeViolations(root: Group, spec: RunSpec): ValidationDetail[] {
  if (spec.kind !== 'app') return [];
  const volumes = dvdiVolumes(spec);
  if (volumes.length === 0) return [];
  const out: ValidationDetail[] = [];
  const unshared = volumes.filter((v) => v.shared !== true).flatMap((v) => (v.name === undefined ? [] : [v.name]));
  const twice = [...new Set(unshared.filter((name, i) => unshared.indexOf(name) !== i))];
  const rootErrors = twice.map((name) => `Requested DVDI volume '${name}' is declared more than once within app ${spec.id}`);
  if (spec.instances > 1) rootErrors.push(dvdiInstancesMessage(spec.id));
  if (rootErrors.length > 0) out.push({ path: '/', errors: rootErrors });
  const over = spec.upgrade.maximumOverCapacity;
  if (over !== 0) out.push({ path: '/upgradeStrategy/maximumOverCapacity', errors: [`got ${javaDouble(over)}, expected 0.0`] });
  const conflicts = nameConflicts(root, spec, new Set(unshared));
  if (conflicts.length > 0) out.push({ path: '/container', errors: conflicts });
  return out;
}

/** The app's DVDI volumes. */
function dvdiVolumes(app: AppSpec): DvdiVolumeInfo[] {
  return (app.container?.volumes ?? []).flatMap((v) => (v.kind === 'external' && v.external.kind === 'dvdi' && v.external.provider === DVDI ? [v.external] : []));
}

/** Marathon's `ProviderValidationHelpers.validateUniqueVolumes` messages for `names` of `app` that other apps of `root` use too. */
function nameConflicts(root: Group, app: AppSpec, names: ReadonlySet<string>): string[] {
  if (names.size === 0) return [];
  const users = new Map<string, string[]>();
  for (const other of allRunSpecs(root)) {
    if (other.kind !== 'app' || other.id === app.id) continue;
    for (const v of dvdiVolumes(other)) {
      if (v.shared === true || v.name === undefined || !names.has(v.name)) continue;
      users.set(v.name, [...(users.get(v.name) ?? []), other.id]);
    }
  }
  return [...users].map(([name, ids]) => `Volume name '${name}' in ${app.id} conflicts with volume(s) of same name in app(s): ${ids.join(', ')}`);
}
