import { javaDouble } from '../kernel/java-double';
import type { RunSpec, UpgradePolicy } from '../model/run-spec';
import type { ValidationDetail } from './validation-detail';

/** The label that marks an app as single-instance (Marathon's `Apps.LabelSingleInstanceApp`). */
export const SINGLE_INSTANCE_LABEL = 'MARATHON_SINGLE_INSTANCE_APP';

/** The only upgrade strategy a single-instance app may have: stop the old instance, then start the new one. */
export const SINGLE_INSTANCE_UPGRADE: UpgradePolicy = { minimumHealthCapacity: 0, maximumOverCapacity: 0 };

/** Marathon's message for a single-instance app with more than one instance. */
export const SINGLE_INSTANCE_MESSAGE = 'Single instance app may only have one instance';

/** True for an app labelled `MARATHON_SINGLE_INSTANCE_APP: "true"` (exactly that text, as in Marathon). */
export function isSingleInstance(labels: Readonly<Record<string, string>>): boolean {
  return labels[SINGLE_INSTANCE_LABEL] === 'true';
}

/**
 * Marathon's single-instance rules (`api/v2/validation/SchedulingValidation.scala`
 * `complyWithSingleInstanceLabelRules` / `validForSingleInstanceApps`, and the same rules on
 * `state/AppDefinition.scala`, which every root change is validated with): a labelled app has at
 * most one instance (`/`), and its upgrade strategy is `{minimumHealthCapacity 0,
 * maximumOverCapacity 0}` (each other value reported at its field, `got 1.0, expected 0.0`), so an
 * upgrade stops the old instance before the new one starts and two never run at once. Checked by
 * the deployment manager on every run spec a root change touches — creates, updates, scales and
 * group writes alike. Pods have no such label.
 */
export function singleInstanceViolations(spec: RunSpec): ValidationDetail[] {
  if (spec.kind !== 'app' || !isSingleInstance(spec.labels)) return [];
  const out: ValidationDetail[] = [];
  if (spec.instances > 1) out.push({ path: '/', errors: [SINGLE_INSTANCE_MESSAGE] });
  for (const field of ['minimumHealthCapacity', 'maximumOverCapacity'] as const) {
    const got = spec.upgrade[field];
    if (got !== 0) out.push({ path: `/upgradeStrategy/${field}`, errors: [`got ${javaDouble(got)}, expected 0.0`] });
  }
  return out;
}
