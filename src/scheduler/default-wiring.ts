import type { CoreWiring } from './core-wiring';
import type { SchedulerOptions } from './scheduler-options';
import { computePlan } from './deployments/compute-plan';
import { dependencyCycle, effectiveDependencies } from './groups/dependencies';
import { emptyRoot, putRunSpec, removeRunSpec } from './groups/root-group';

/** The production wiring: the groups module's tree edits and dependency rules, Marathon's planner. */
export function defaultWiring(options: Partial<SchedulerOptions>): CoreWiring {
  const newGroupEnforceRole = options.newGroupEnforceRole ?? 'off';
  return {
    emptyRoot,
    planner: (original, target, id) => computePlan(original, target, { id, version: target.version, dependenciesOf: (runSpecId, root) => effectiveDependencies(root, runSpecId) }),
    groups: {
      putRunSpec: (root, spec, version) => putRunSpec(root, spec, { version, newGroupEnforceRole }),
      removeRunSpec: (root, runSpecId, version) => removeRunSpec(root, runSpecId, { version, newGroupEnforceRole }),
      dependencyCycle,
    },
  };
}
