import type { HeldUnhealthyKills } from '../api/wire';
import { plural } from './waiting-text';

/**
 * The headline of an app's held unhealthy kills on the queue page: how many wait and what the
 * floor keeps, e.g. `9 unhealthy kills held: 9 of 10 instances kept running (floor 9)`.
 */
export function heldKillsHeadline(h: HeldUnhealthyKills): string {
  return `${plural(h.kills.length, 'unhealthy kill')} held: ${h.counted} of ${h.instances} instances kept running (floor ${h.floor})`;
}

/** Where the floor comes from, as the operator would change it. */
export function floorSourceText(h: HeldUnhealthyKills): string {
  switch (h.floorSource) {
    case 'label': return `label PACER_UNHEALTHY_KILL_FLOOR = ${h.floorCapacity}`;
    case 'flag': return `--unhealthy_kill_floor ${h.floorCapacity}`;
    default: return `upgradeStrategy.minimumHealthCapacity ${h.floorCapacity} (set the label PACER_UNHEALTHY_KILL_FLOOR to change it)`;
  }
}
