import { isoTime } from '../kernel/iso-time';
import type { InstanceChangedEvent, InstanceHealthChangedEvent, StatusUpdateEvent } from '../model/events';
import type { AgentInfo } from '../model/agent';
import type { Condition } from '../model/condition';
import type { Instance, Task } from '../model/instance';
import type { IpAddress } from '../model/ip-address';

const NO_IPS: readonly IpAddress[] = [];

/** `status_update_event` for a task whose state changed (fact 107: published right before the instance change). */
export function statusUpdateEvent(instance: Instance, task: Task, nowMs: number): StatusUpdateEvent {
  return {
    eventType: 'status_update_event',
    timestamp: isoTime(nowMs),
    slaveId: instance.agent?.agentId ?? '',
    taskId: task.taskId,
    taskStatus: task.state ?? 'TASK_STAGING',
    message: task.message ?? '',
    appId: instance.runSpecId,
    host: instance.agent?.hostname ?? '',
    ipAddresses: task.ipAddresses ?? NO_IPS,
    ports: task.hostPorts,
    version: instance.runSpecVersion,
  };
}

/** `instance_changed_event` for the instance's current condition. */
export function instanceChangedEvent(instance: Instance, nowMs: number): InstanceChangedEvent {
  return changedEvent(instance.instanceId, instance.condition, instance.runSpecId, instance.agent, instance.runSpecVersion, nowMs);
}

/**
 * `instance_changed_event` of an instance just created: Scheduled, not placed, at `runSpecVersion`,
 * as {@link instanceChangedEvent} of the instance as it was made; built from the facts of its
 * creation because the event may be built after the instance changed again (the new instances'
 * events are one effect per batch, built when the effects are carried out:
 * instances/instance-effects.ts, `newInstances`).
 */
export function scheduledInstanceEvent(instanceId: string, runSpecId: string, runSpecVersion: string, nowMs: number): InstanceChangedEvent {
  return changedEvent(instanceId, 'Scheduled', runSpecId, undefined, runSpecVersion, nowMs);
}

/** The one writer of `instance_changed_event`: its keys in Marathon's order. */
function changedEvent(
  instanceId: string, condition: Condition, runSpecId: string, agent: AgentInfo | undefined, runSpecVersion: string, nowMs: number,
): InstanceChangedEvent {
  return {
    eventType: 'instance_changed_event',
    timestamp: isoTime(nowMs),
    instanceId,
    condition,
    runSpecId,
    agentId: agent?.agentId ?? null,
    host: agent?.hostname ?? null,
    runSpecVersion,
  };
}

/** `instance_health_changed_event` for the instance's current health (null = unknown). */
export function instanceHealthChangedEvent(instance: Instance, nowMs: number): InstanceHealthChangedEvent {
  return {
    eventType: 'instance_health_changed_event',
    timestamp: isoTime(nowMs),
    instanceId: instance.instanceId,
    runSpecId: instance.runSpecId,
    runSpecVersion: instance.runSpecVersion,
    healthy: instance.healthy ?? null,
  };
}
