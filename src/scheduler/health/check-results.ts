import type { InstanceContext } from '../instances/instance-context';
import { isoTime } from '../kernel/iso-time';
import type { HealthCheckSpec } from '../model/health-check';
import type { Instance } from '../model/instance';
import type { RunSpec } from '../model/run-spec';
import type { CheckState } from './health-tracker';
import { refreshInstanceHealth } from './instance-health';

/**
 * What one health result does to a check's state, for scheduler-run probes and agents' verdicts
 * alike (Marathon's `Health.update` and `HealthCheckActor.handleHealthResult`,
 * `core/health/Health.scala`, `core/health/impl/HealthCheckActor.scala`).
 *
 * A pass resets the consecutive failures and sets `firstSuccess` once and `lastSuccess`. With
 * `publish` false (Marathon's `publishEvent`, for results restored after a restart) no event is
 * published.
 */
export function recordPass(ctx: InstanceContext, spec: RunSpec, inst: Instance, state: CheckState, publish = true): void {
  const nowMs = ctx.clock.nowMs();
  state.consecutiveFailures = 0;
  state.everHealthy = true;
  state.firstSuccessMs ??= nowMs;
  state.lastSuccessMs = nowMs;
  setAlive(ctx, spec, inst, state, true, publish);
}

/**
 * A failure, unless it falls in the grace period (no success yet and less than `gracePeriodMs`
 * since the instance started running): then it is ignored and false returned. A counted failure
 * publishes `failed_health_check_event` with the check's definition, counts, and records when and
 * why. The caller decides about kills.
 */
export function recordFailure(
  ctx: InstanceContext, spec: RunSpec, inst: Instance, state: CheckState, check: HealthCheckSpec, cause: string, publish = true,
): boolean {
  const nowMs = ctx.clock.nowMs();
  const startedAtMs = inst.startedAtMs ?? nowMs;
  if (!state.everHealthy && nowMs < startedAtMs + check.gracePeriodMs) return false;
  state.consecutiveFailures++;
  state.lastFailureMs = nowMs;
  state.lastFailureCause = cause;
  if (publish) {
    ctx.effects.event({
      // Spec 6 names the field taskId; we put the task id in it (Marathon's code puts the instance id).
      eventType: 'failed_health_check_event', timestamp: isoTime(nowMs), appId: inst.runSpecId,
      taskId: inst.tasks[0]?.taskId ?? inst.instanceId, healthCheck: check,
    });
  }
  setAlive(ctx, spec, inst, state, false, publish);
  return true;
}

/**
 * Records the check's verdict, publishes `health_status_changed_event` when the instance's
 * liveness changed, then refreshes the instance's health.
 *
 * The event follows Marathon, not the tri-state kept here: Marathon's `Health.alive` is false until
 * a first success (`core/health/Health.scala`), and `HealthCheckActor.updateInstanceHealth`
 * publishes only when `alive` differs before and after the result. So the first counted failure
 * of an instance that was never healthy (no result yet → failing) publishes nothing; its first
 * pass publishes `alive: true`, and a failure after a pass `alive: false`. The state itself still
 * tells "no result yet" (undefined) from "failing" (false), for `healthCheckResults` and the
 * instance's health (instance-health.ts).
 */
function setAlive(ctx: InstanceContext, spec: RunSpec, inst: Instance, state: CheckState, alive: boolean, publish: boolean): void {
  if (state.alive === alive) return;
  const wasAlive = state.alive === true;
  state.alive = alive;
  if (!publish) return;
  if (wasAlive !== alive) {
    ctx.effects.event({
      eventType: 'health_status_changed_event', timestamp: isoTime(ctx.clock.nowMs()), appId: inst.runSpecId,
      instanceId: inst.instanceId, version: inst.runSpecVersion, alive,
    });
  }
  refreshInstanceHealth(ctx, spec, inst);
}
