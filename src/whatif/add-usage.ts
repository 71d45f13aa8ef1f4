import { unionRanges } from '../master/port-ranges';
import type { InstanceFields, Task } from '../scheduler/model/instance';
import type { OfferedPool } from '../scheduler/model/offer';
import { usedPool } from '../../sim/whatif/adopted-tasks';

/**
 * `pools` with what `inst`'s tasks hold added to the pool they were (most likely) taken from: a
 * resident instance's recorded allocation, else its tasks' resources and host ports in its role's
 * reserved pool when the agent has one, else in the unreserved pool (the live core keeps no
 * allocation for other instances). A what-if fork builds an agent's capacity this way from what
 * its last offer left out (src/whatif/take-fork.ts, last-offers.ts). Returns new pools; `pools`
 * is not changed. It reads only the instance's allocation, role and tasks.
 */
function addUsage(pools: readonly OfferedPool[], inst: Pick<InstanceFields, 'allocation' | 'role' | 'tasks'>): OfferedPool[] {
  const uses = inst.allocation ?? [usedPool(inst, pools.some((p) => p.reservedFor === inst.role && p.reservationId === undefined) ? inst.role : undefined)];
  const out = pools.map((p) => ({ ...p }));
  for (const u of uses) {
    const i = out.findIndex((p) => p.reservedFor === u.reservedFor && p.reservationId === u.reservationId);
    if (i < 0) {
      out.push({ ...u });
      continue;
    }
    const p = out[i];
    out[i] = {
      ...p, cpusMilli: p.cpusMilli + u.cpusMilli, memMilli: p.memMilli + u.memMilli, diskMilli: p.diskMilli + u.diskMilli,
      gpus: p.gpus + u.gpus, ports: unionRanges(p.ports, u.ports),
    };
  }
  return out;
}

/**
 * As {@link addUsage}, for `tasks`, some of `inst`'s (a pod's task that ended, or those still
 * running): a resident instance's recorded allocation is the whole instance's, so it is used only
 * when `tasks` are all of them, else the tasks' own resources are.
 */
// The copy names the fields addUsage reads: a live Instance's role is a getter, which a spread (`{ ...inst }`) would not copy.
export function addTasksUsage(pools: readonly OfferedPool[], inst: InstanceFields, tasks: readonly Task[]): OfferedPool[] {
  return addUsage(pools, tasks.length === inst.tasks.length ? inst : { allocation: undefined, role: inst.role, tasks: [...tasks] });
}
