import type { InstanceContext } from '../instances/instance-context';
import { isSchedulerRun } from '../model/health-check';
import type { Instance, Task } from '../model/instance';
import type { RunSpec } from '../model/run-spec';
import { recordFailure, recordPass } from './check-results';
import type { CheckState } from './health-tracker';

/**
 * An agent's verdict on an agent-run check (MESOS_HTTP/HTTPS/TCP, COMMAND, a pod container's
 * check), as a status update's `healthy` brought it, goes into the same results and events as a
 * scheduler-run probe (Marathon's `MarathonHealthCheckManager.update` forwards it to the health
 * check actors of its Mesos checks: `core/health/impl/MarathonHealthCheckManager.scala`,
 * `HealthCheckActor.scala`): `healthy: true` is a pass, `false` a failure with an empty cause (as
 * Marathon records it), ignored while the instance is not running or within the grace period
 * before its first success. A counted failure publishes `failed_health_check_event`, a change of
 * liveness (a first success, or a failure after a success) `health_status_changed_event`.
 *
 * Forwarded for updates that changed the task's state or health only (Marathon ignores an update
 * that changes neither: `Task.update`, case 4), to every agent-run check of an app, or to the
 * check of the pod container whose task reported. The agent kills at its own count; the
 * scheduler never kills for agent-run checks.
 */
export function onAgentVerdict(ctx: InstanceContext, spec: RunSpec, inst: Instance, task: Task, healthy: boolean, publish = true): void {
  for (const state of agentStates(ctx, inst, task)) {
    if (healthy) recordPass(ctx, spec, inst, state, publish);
    else if (inst.condition === 'Running') recordFailure(ctx, spec, inst, state, state.check, '', publish);
  }
}

/**
 * After a restart: the verdicts the recovered tasks last reported become the results again,
 * without events (Marathon's `MarathonHealthCheckManager.add` seeds a Mesos check's actor from the
 * running tasks' statuses with `publishEvent = false`).
 */
export function seedAgentHealth(ctx: InstanceContext, spec: RunSpec, inst: Instance): void {
  for (const task of inst.tasks) {
    if (task.healthy !== undefined) onAgentVerdict(ctx, spec, inst, task, task.healthy, false);
  }
}

/** The result states an update of `task` speaks for: an app's agent-run checks, or its container's check. */
function agentStates(ctx: InstanceContext, inst: Instance, task: Task): CheckState[] {
  const states = ctx.health.checks.get(inst.instanceId) ?? [];
  return states.filter((s) => !isSchedulerRun(s.check.protocol) && (inst.kind !== 'pod' || s.containerName === task.containerName));
}
