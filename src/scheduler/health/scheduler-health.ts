import type { CoreContext } from '../core-context';
import { isoTime } from '../kernel/iso-time';
import { isSchedulerRun, type HealthCheckSpec } from '../model/health-check';
import type { Instance } from '../model/instance';
import type { ProbeObservation } from '../ports/prober';
import type { RunSpecState } from '../state/run-spec-state';
import type { CheckState } from './health-tracker';
import { refreshInstanceHealth } from './instance-health';
import { judgeProbe } from './judge-probe';
import { killUnhealthy } from './unhealthy-kill';

/**
 * Scheduler-run health checks (HTTP, HTTPS, TCP) through the Prober port. Checking starts when an
 * instance first runs, probes every `intervalMs`, and stops when the instance stops running.
 * Failures are ignored during `gracePeriodMs` after start until the first success. With
 * `maxConsecutiveFailures` N > 0 the instance is killed at the N-th consecutive counted failure
 * (Marathon kills at `>=`; fact 121); N = 0 never kills (spec 2.5).
 */
export function startSchedulerChecks(ctx: CoreContext, rs: RunSpecState, inst: Instance): void {
  if (rs.spec.kind !== 'app' || ctx.health.checks.has(inst.instanceId)) return;
  const checks = rs.spec.healthChecks;
  if (!checks.some((c) => isSchedulerRun(c.protocol))) return;
  const nowMs = ctx.clock.nowMs();
  const states = checks.map((check, checkIndex): CheckState | undefined =>
    isSchedulerRun(check.protocol)
      ? { consecutiveFailures: 0, everHealthy: false, timerId: scheduleProbe(ctx, inst, checkIndex, nowMs) }
      : undefined);
  ctx.health.checks.set(inst.instanceId, states);
}

/**
 * Probe timer: arm the next one and, while the instance is Running, send one probe. The chain
 * keeps going while the instance is not Running (e.g. Unreachable) so that checking resumes when it
 * comes back; it ends when the instance ends (HealthTracker.forget cancels the timer).
 */
export function onProbeTimer(ctx: CoreContext, instanceId: string, incarnation: number, checkIndex: number): void {
  const found = lookup(ctx, instanceId, incarnation, checkIndex);
  if (found === undefined) return;
  const { inst, state, check } = found;
  const nowMs = ctx.clock.nowMs();
  state.timerId = scheduleProbe(ctx, inst, checkIndex, nowMs + check.intervalMs);
  if (inst.condition !== 'Running') return;
  const probeId = ctx.health.nextProbeId++;
  ctx.health.pending.set(probeId, { instanceId, incarnation, checkIndex });
  const task = inst.tasks[0];
  ctx.prober.probe({
    probeId, instanceId, taskId: task.taskId, checkIndex,
    protocol: check.protocol as 'HTTP' | 'HTTPS' | 'TCP',
    host: inst.agent?.hostname ?? '',
    port: check.port ?? task.hostPorts[check.portIndex ?? 0] ?? 0,
    path: check.path,
    timeoutMs: check.timeoutMs,
  });
}

/** A probe answered (or timed out): judge it and apply the result. */
export function onProbeResult(ctx: CoreContext, obs: ProbeObservation): void {
  const pending = ctx.health.pending.get(obs.probeId);
  if (pending === undefined) return;
  ctx.health.pending.delete(obs.probeId);
  const found = lookup(ctx, pending.instanceId, pending.incarnation, pending.checkIndex);
  if (found === undefined || found.inst.condition !== 'Running' || found.inst.killReason !== undefined) return;
  const verdict = judgeProbe(found.check, obs);
  if (verdict.kind === 'pass') onPass(ctx, found);
  else if (verdict.kind === 'fail') onFail(ctx, found, verdict.cause);
}

interface Found {
  readonly rs: RunSpecState;
  readonly inst: Instance;
  readonly state: CheckState;
  readonly check: HealthCheckSpec;
}

function onPass(ctx: CoreContext, f: Found): void {
  const nowMs = ctx.clock.nowMs();
  f.state.consecutiveFailures = 0;
  f.state.everHealthy = true;
  f.state.firstSuccessMs ??= nowMs;
  f.state.lastSuccessMs = nowMs;
  setAlive(ctx, f, true);
}

function onFail(ctx: CoreContext, f: Found, cause: string): void {
  const nowMs = ctx.clock.nowMs();
  const startedAtMs = f.inst.startedAtMs ?? nowMs;
  if (!f.state.everHealthy && nowMs < startedAtMs + f.check.gracePeriodMs) return;
  f.state.consecutiveFailures++;
  f.state.lastFailureMs = nowMs;
  f.state.lastFailureCause = cause;
  ctx.bus.emit({
    // Spec 6 names the field taskId; we put the task id in it (Marathon's code puts the instance id).
    eventType: 'failed_health_check_event', timestamp: isoTime(nowMs), appId: f.inst.runSpecId,
    taskId: f.inst.tasks[0]?.taskId ?? f.inst.instanceId, healthCheck: f.check.wire,
  });
  setAlive(ctx, f, false);
  const max = f.check.maxConsecutiveFailures;
  if (max > 0 && f.state.consecutiveFailures >= max) {
    killUnhealthy(ctx, f.rs, f.inst, `${f.check.protocol} health check failed ${f.state.consecutiveFailures} times consecutively (${cause})`, false);
  }
}

function setAlive(ctx: CoreContext, f: Found, alive: boolean): void {
  if (f.state.alive === alive) return;
  f.state.alive = alive;
  ctx.bus.emit({
    eventType: 'health_status_changed_event', timestamp: isoTime(ctx.clock.nowMs()), appId: f.inst.runSpecId,
    instanceId: f.inst.instanceId, version: f.inst.runSpecVersion, alive,
  });
  refreshInstanceHealth(ctx, f.rs.spec, f.inst);
}

function lookup(ctx: CoreContext, instanceId: string, incarnation: number, checkIndex: number): Found | undefined {
  const inst = ctx.state.instance(instanceId);
  if (inst === undefined || inst.incarnation !== incarnation) return undefined;
  const rs = ctx.state.runSpecs.get(inst.runSpecId);
  const state = ctx.health.checks.get(instanceId)?.[checkIndex];
  if (rs === undefined || rs.spec.kind !== 'app' || state === undefined) return undefined;
  const check = rs.spec.healthChecks[checkIndex];
  return check === undefined ? undefined : { rs, inst, state, check };
}

function scheduleProbe(ctx: CoreContext, inst: Instance, checkIndex: number, dueMs: number): number {
  return ctx.timers.schedule(dueMs, {
    type: 'timer', timer: { kind: 'healthProbe', instanceId: inst.instanceId, incarnation: inst.incarnation, checkIndex },
  });
}
