import { UNHEALTHY_KILL_FLOOR_LABEL, isoTime, type HeldKillsStatus } from '../../scheduler/index';

/**
 * One entry of `heldUnhealthyKills`, pacer's addition to `GET /v2/queue` (issue 18, kill-storm
 * protection): an app whose unhealthy kills wait because they would take it below its floor.
 * The list sits beside Marathon's `queue`, not inside its entries: a Marathon client reads only
 * `queue`, and marathon-python builds each queue item from all its keys, so an unknown key there
 * would make it fail (`MarathonQueueItem(**attributes)`).
 */
export function heldUnhealthyKillsJson(status: HeldKillsStatus): Record<string, unknown> {
  return {
    appId: status.appId,
    instances: status.instances,
    floor: status.floor,
    counted: status.counted,
    floorCapacity: status.capacity,
    floorSource: status.source,
    message: heldKillsMessage(status),
    kills: status.held.map((k) => ({
      instanceId: k.instanceId, taskId: k.taskId, reason: k.reason, since: isoTime(k.sinceMs), host: k.host,
    })),
  };
}

/** Why the kills wait, in one sentence an operator can act on. */
export function heldKillsMessage(status: HeldKillsStatus): string {
  const n = status.held.length;
  const source = status.source === 'label' ? `label ${UNHEALTHY_KILL_FLOOR_LABEL} ${status.capacity}`
    : status.source === 'flag' ? `--unhealthy_kill_floor ${status.capacity}`
      : `upgradeStrategy.minimumHealthCapacity ${status.capacity}`;
  return `${n} unhealthy kill${n === 1 ? '' : 's'} held: killing would leave fewer than ${status.floor} of ${status.instances} `
    + `instances that have been healthy running (${status.counted} now; kill-storm floor from ${source})`;
}
