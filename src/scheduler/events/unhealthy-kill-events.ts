import { isoTime } from '../kernel/iso-time';
import type {
  DeferralOutcome, UnhealthyInstanceKillEvent, UnhealthyKillDeferralEndedEvent, UnhealthyKillDeferredEvent, UnhealthyTaskKillEvent,
} from '../model/events';
import type { Instance } from '../model/instance';

/** How the floor stood when a kill was held back. */
export interface FloorCounts {
  readonly instances: number;
  readonly floor: number;
  readonly counted: number;
}

/**
 * `unhealthy_task_kill_event` and `unhealthy_instance_kill_event` of one kill for failing health
 * checks (spec section 6 lists both; Marathon 1.11 emits only the second).
 */
export function unhealthyKillEvents(instance: Instance, reason: string, nowMs: number): [UnhealthyTaskKillEvent, UnhealthyInstanceKillEvent] {
  const timestamp = isoTime(nowMs);
  const { instanceId: _instanceId, ...taskFields } = killFields(instance, reason);
  return [
    { eventType: 'unhealthy_task_kill_event', timestamp, ...taskFields },
    { eventType: 'unhealthy_instance_kill_event', timestamp, ...killFields(instance, reason) },
  ];
}

/** `pacer_unhealthy_kill_deferred_event`: the kill of `instance` for `reason` waits for the floor. */
export function unhealthyKillDeferredEvent(instance: Instance, reason: string, counts: FloorCounts, nowMs: number): UnhealthyKillDeferredEvent {
  return {
    eventType: 'pacer_unhealthy_kill_deferred_event',
    timestamp: isoTime(nowMs),
    ...killFields(instance, reason),
    instances: counts.instances,
    floor: counts.floor,
    counted: counts.counted,
  };
}

/** `pacer_unhealthy_kill_deferral_ended_event`: the held-back kill of `instance` ended with `outcome`. */
export function unhealthyKillDeferralEndedEvent(instance: Instance, outcome: DeferralOutcome, nowMs: number): UnhealthyKillDeferralEndedEvent {
  return { eventType: 'pacer_unhealthy_kill_deferral_ended_event', timestamp: isoTime(nowMs), ...instanceFields(instance), outcome };
}

/** Which instance an event is about: its app, its first task (or the instance id), the instance. */
function instanceFields(instance: Instance): { appId: string; taskId: string; instanceId: string } {
  return { appId: instance.runSpecId, taskId: instance.tasks[0]?.taskId ?? instance.instanceId, instanceId: instance.instanceId };
}

/** The fields every unhealthy-kill event of `instance` carries, in Marathon's order. */
function killFields(instance: Instance, reason: string) {
  return {
    ...instanceFields(instance),
    version: instance.runSpecVersion,
    reason,
    host: instance.agent?.hostname ?? '',
    slaveId: instance.agent?.agentId ?? '',
  };
}
