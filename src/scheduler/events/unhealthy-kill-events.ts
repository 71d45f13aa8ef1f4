import { isoTime } from '../kernel/iso-time';
import type { DeferralOutcome, UnhealthyKillDeferralEndedEvent, UnhealthyKillDeferredEvent } from '../model/events';
import type { Instance } from '../model/instance';

/** How the floor stood when a kill was held back. */
export interface FloorCounts {
  readonly instances: number;
  readonly floor: number;
  readonly counted: number;
}

/** `pacer_unhealthy_kill_deferred_event`: the kill of `instance` for `reason` waits for the floor. */
export function unhealthyKillDeferredEvent(instance: Instance, reason: string, counts: FloorCounts, nowMs: number): UnhealthyKillDeferredEvent {
  return {
    eventType: 'pacer_unhealthy_kill_deferred_event',
    timestamp: isoTime(nowMs),
    appId: instance.runSpecId,
    taskId: instance.tasks[0]?.taskId ?? instance.instanceId,
    instanceId: instance.instanceId,
    version: instance.runSpecVersion,
    reason,
    host: instance.agent?.hostname ?? '',
    slaveId: instance.agent?.agentId ?? '',
    instances: counts.instances,
    floor: counts.floor,
    counted: counts.counted,
  };
}

/** `pacer_unhealthy_kill_deferral_ended_event`: the held-back kill of `instance` ended with `outcome`. */
export function unhealthyKillDeferralEndedEvent(instance: Instance, outcome: DeferralOutcome, nowMs: number): UnhealthyKillDeferralEndedEvent {
  return {
    eventType: 'pacer_unhealthy_kill_deferral_ended_event',
    timestamp: isoTime(nowMs),
    appId: instance.runSpecId,
    taskId: instance.tasks[0]?.taskId ?? instance.instanceId,
    instanceId: instance.instanceId,
    outcome,
  };
}
