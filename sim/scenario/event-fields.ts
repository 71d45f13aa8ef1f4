import type { EventType } from '../../src/scheduler/model/events';

/**
 * The fields of each event type (Marathon's wire names, see src/scheduler/model/events.ts), so that
 * `where` filters in expectations can refuse a misspelt field instead of silently matching nothing.
 * Its keys are the event types an expectation may name, in this order.
 */
export const EVENT_FIELDS: Readonly<Record<EventType, readonly string[]>> = {
  status_update_event: ['eventType', 'timestamp', 'slaveId', 'taskId', 'taskStatus', 'message', 'appId', 'host', 'ipAddresses', 'ports', 'version'],
  instance_changed_event: ['eventType', 'timestamp', 'instanceId', 'condition', 'runSpecId', 'agentId', 'host', 'runSpecVersion'],
  instance_health_changed_event: ['eventType', 'timestamp', 'instanceId', 'runSpecId', 'runSpecVersion', 'healthy'],
  health_status_changed_event: ['eventType', 'timestamp', 'appId', 'instanceId', 'version', 'alive'],
  failed_health_check_event: ['eventType', 'timestamp', 'appId', 'taskId', 'healthCheck'],
  add_health_check_event: ['eventType', 'timestamp', 'appId', 'version', 'healthCheck'],
  remove_health_check_event: ['eventType', 'timestamp', 'appId', 'healthCheck'],
  unhealthy_task_kill_event: ['eventType', 'timestamp', 'appId', 'taskId', 'version', 'reason', 'host', 'slaveId'],
  unhealthy_instance_kill_event: ['eventType', 'timestamp', 'appId', 'taskId', 'instanceId', 'version', 'reason', 'host', 'slaveId'],
  pacer_unhealthy_kill_deferred_event: [
    'eventType', 'timestamp', 'appId', 'taskId', 'instanceId', 'version', 'reason', 'host', 'slaveId', 'instances', 'floor', 'counted',
  ],
  pacer_unhealthy_kill_deferral_ended_event: ['eventType', 'timestamp', 'appId', 'taskId', 'instanceId', 'outcome'],
  unknown_instance_terminated_event: ['eventType', 'timestamp', 'instanceId', 'runSpecId', 'condition'],
  app_terminated_event: ['eventType', 'timestamp', 'appId'],
  deployment_info: ['eventType', 'timestamp', 'plan', 'currentStep'],
  deployment_step_success: ['eventType', 'timestamp', 'plan', 'currentStep'],
  deployment_step_failure: ['eventType', 'timestamp', 'plan', 'currentStep'],
  deployment_success: ['eventType', 'timestamp', 'id', 'plan'],
  deployment_failed: ['eventType', 'timestamp', 'id', 'plan', 'reason'],
  group_change_success: ['eventType', 'timestamp', 'groupId', 'version'],
  group_change_failed: ['eventType', 'timestamp', 'groupId', 'version', 'reason'],
};
