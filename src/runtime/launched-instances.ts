import type { Scheduler } from '../scheduler/index';

/**
 * How many of the core's instances were ever launched (or hold a reservation): those whose tasks
 * may run, or have run, under a framework id. The Mesos driver refuses to register a new
 * framework id while any exists (`MesosCluster.start`, Marathon 1.7's rule: their tasks would
 * be orphaned and launched again). Instances that never launched — an app created while the
 * master could not be reached, before the first subscription stored a framework id — have no
 * task anywhere, so they do not count: counting them made such a store refuse every later start
 * (found by an operator's trial, 2026-12-02).
 */
export function launchedInstanceCount(scheduler: Scheduler): number {
  let count = 0;
  for (const rs of scheduler.runSpecs()) {
    for (const inst of scheduler.instances(rs.id)) {
      if (inst.incarnation > 0 || inst.agent !== undefined || inst.reservation !== undefined) count++;
    }
  }
  return count;
}
