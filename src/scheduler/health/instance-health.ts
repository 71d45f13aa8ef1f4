import type { InstanceContext } from '../instances/instance-context';
import { instanceHealthChangedEvent } from '../events/instance-events';
import { isSchedulerRun } from '../model/health-check';
import type { Instance } from '../model/instance';
import type { RunSpec } from '../model/run-spec';
import { onInstanceHealthy } from './unhealthy-kill';
import { setHealthy } from '../instances/instance-tracker';

/**
 * Recomputes an instance's health from its scheduler-run check results and the agent-run health
 * its tasks reported, and emits `instance_health_changed_event` when it changed. Healthy means
 * every check passes; any failing check makes it unhealthy; otherwise unknown. Instances without
 * checks stay unknown (null on the wire). Turning healthy also counts for the app's unhealthy-kill
 * floor ({@link onInstanceHealthy}).
 */
export function refreshInstanceHealth(ctx: InstanceContext, spec: RunSpec, inst: Instance): void {
  const next = combine(schedulerRunHealth(ctx, inst), agentRunHealth(spec, inst));
  if (next === inst.healthy) return;
  // Stored with the instance: a restart (a failover) recovers the verdict instead of forgetting it,
  // so a resumed rolling restart does not take healthy old instances for unhealthy ones.
  setHealthy(ctx, inst, next);
  ctx.effects.event(instanceHealthChangedEvent(inst, ctx.clock.nowMs()));
  const rs = next === true ? ctx.state.runSpecs.get(inst.runSpecId) : undefined;
  if (rs !== undefined) onInstanceHealthy(ctx, rs, inst);
}

function schedulerRunHealth(ctx: InstanceContext, inst: Instance): boolean | undefined | null {
  let checked = 0;
  let all = true;
  for (const s of ctx.health.checks.get(inst.instanceId) ?? []) {
    // Agent-run checks count through their tasks' `healthy` (agentRunHealth).
    if (!isSchedulerRun(s.check.protocol)) continue;
    checked++;
    if (s.alive === false) return false;
    if (s.alive !== true) all = false;
  }
  if (checked === 0) return null;
  return all ? true : undefined;
}

function agentRunHealth(spec: RunSpec, inst: Instance): boolean | undefined | null {
  let checked = 0;
  let all = true;
  for (const task of inst.tasks) {
    if (!hasAgentCheck(spec, task.containerName)) continue;
    checked++;
    if (task.healthy === false) return false;
    if (task.healthy !== true) all = false;
  }
  if (checked === 0) return null;
  return all ? true : undefined;
}

/** null = no checks of that kind; combines the two kinds. */
function combine(a: boolean | undefined | null, b: boolean | undefined | null): boolean | undefined {
  if (a === false || b === false) return false;
  if (a === null && b === null) return undefined;
  if (a === undefined || b === undefined) return undefined;
  return true;
}

/** Whether the task (app task, or the pod container's task) carries an agent-run check. */
export function hasAgentCheck(spec: RunSpec, containerName: string | undefined): boolean {
  if (spec.kind === 'app') return spec.healthChecks.some((c) => !isSchedulerRun(c.protocol));
  return spec.containers.some((c) => c.name === containerName && c.healthCheck !== undefined);
}
