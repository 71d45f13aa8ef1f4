import type { InstanceContext } from './instance-context';
import type { RunSpecState } from '../state/run-spec-state';
import { createInstances } from './instance-lifecycle';
import { isActive } from './instance-tracker';
import { selectVictims } from './select-victims';
import { killInstance } from '../kill/kill-instance';
import { convergeRestart } from './converge-restart';

/**
 * Brings the number of active instances to the target: schedules new instances when short, kills
 * the surplus by kill selection when over (a returning unreachable instance, a scale-down, a
 * delete). O(1) when the count is right; scans the run spec's instances only to pick victims.
 */
export function converge(ctx: InstanceContext, rs: RunSpecState): void {
  if (rs.restart !== undefined && !rs.deleting) {
    convergeRestart(ctx, rs);
    return;
  }
  const target = rs.deleting ? 0 : rs.spec.instances;
  createInstances(ctx, rs, target - rs.activeCount);
  if (rs.activeCount <= target) return;
  const candidates = [...rs.instances.values()].filter(isActive);
  const reason = rs.deleting ? 'deleted' : 'scale-down';
  for (const victim of selectVictims(candidates, rs.activeCount - target, rs.spec.killSelection)) {
    killInstance(ctx, rs, victim, reason, 'Decommissioned');
  }
}
