import type { CoreWiring } from './core-wiring';
import type { SchedulerOptions } from './scheduler-options';
import { computePlan } from './deployments/compute-plan';
import { dependencyCycle, effectiveDependencies } from './groups/dependencies';
import { emptyRoot, withRunSpec, withoutRunSpec } from './groups/root-group';

/** The production wiring: the groups module's tree edits and dependency rules, Marathon's planner. */
export function defaultWiring(options: Partial<SchedulerOptions>): CoreWiring {
  const newGroupEnforceRole = options.newGroupEnforceRole ?? 'off';
  return {
    emptyRoot,
    planner: (original, target, id) => computePlan(original, target, { id, version: target.version, dependenciesOf: (runSpecId, root) => effectiveDependencies(root, runSpecId) }),
    groups: {
      withRunSpec: (root, spec, version) => withRunSpec(root, spec, { version, newGroupEnforceRole }),
      withoutRunSpec: (root, runSpecId, version) => withoutRunSpec(root, runSpecId, { version, newGroupEnforceRole }),
      dependencyCycle,
    },
  };
}
