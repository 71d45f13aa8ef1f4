import type { Scheduler } from '../../src/scheduler/scheduler';
import { encode } from '../../src/store/sqlite/codec';

/**
 * Everything a refused request must leave alone, as one comparable string: the root group (with
 * its version), the run specs being run with their instances, the running deployments with their
 * current step, and the stored root versions. Encoded with the store's codec, which keeps Map
 * order and refuses what it cannot represent.
 */
export function stateSnapshot(scheduler: Scheduler): string {
  return encode({
    root: scheduler.root(),
    rootVersions: scheduler.rootVersions(),
    runSpecs: scheduler.runSpecs().map((spec) => ({ spec, instances: scheduler.instances(spec.id) })),
    deployments: scheduler.deployments().map((d) => ({ id: d.deployment.plan.id, step: d.deployment.stepIndex })),
  });
}
