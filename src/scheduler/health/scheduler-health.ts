import { healthCheckPort } from '../model/health-check-port';
import type { InstanceContext } from '../instances/instance-context';
import type { TimerHandle } from '../instances/instance-effects';
import { isSchedulerRun, type HealthCheckSpec } from '../model/health-check';
import type { Instance } from '../model/instance';
import type { ProbeObservation } from '../ports/prober';
import type { RunSpecState } from '../state/run-spec-state';
import { recordFailure, recordPass } from './check-results';
import { checksOf } from './health-checks-of';
import type { CheckState } from './health-tracker';
import { judgeProbe } from './judge-probe';
import { requestUnhealthyKill } from './unhealthy-kill';

/**
 * Starts result keeping for an instance that now runs: one CheckState per check of its run spec
 * ({@link checksOf}). Scheduler-run checks (HTTP, HTTPS, TCP) are probed through the Prober port
 * every `intervalMs` from now on; agent-run ones (MESOS_*, COMMAND, pod checks) wait for the
 * agent's verdicts (agent-health.ts). Checking stops when the instance stops running.
 * Scheduler-run failures are ignored during `gracePeriodMs` after start until the first success.
 * With `maxConsecutiveFailures` N > 0 the instance's kill is due at the N-th consecutive counted
 * failure (Marathon kills at `>=`; fact 121) and at every failure after it, and goes ahead within
 * the app's floor (unhealthy-kill.ts); N = 0 never kills (spec 2.5).
 */
export function startHealthChecks(ctx: InstanceContext, rs: RunSpecState, inst: Instance): void {
  if (ctx.health.checks.has(inst.instanceId)) return;
  const checks = checksOf(rs.spec);
  if (checks.length === 0) return;
  const nowMs = ctx.clock.nowMs();
  const states = checks.map(({ check, containerName }, checkIndex): CheckState => ({
    check, ...(containerName === undefined ? {} : { containerName }), consecutiveFailures: 0, everHealthy: false,
    ...(isSchedulerRun(check.protocol) ? { timer: scheduleProbe(ctx, inst, checkIndex, nowMs) } : {}),
  }));
  ctx.health.checks.set(inst.instanceId, states);
}

/**
 * Probe timer: arm the next one and, while the instance is Running, send one probe. The chain
 * keeps going while the instance is not Running (e.g. Unreachable) so that checking resumes when it
 * comes back; it ends when the instance ends (HealthTracker.forget cancels the timer).
 */
export function onProbeTimer(ctx: InstanceContext, instanceId: string, incarnation: number, checkIndex: number): void {
  const found = lookup(ctx, instanceId, incarnation, checkIndex);
  if (found === undefined) return;
  const { rs, inst, state, check } = found;
  const nowMs = ctx.clock.nowMs();
  state.timer = scheduleProbe(ctx, inst, checkIndex, nowMs + check.intervalMs);
  if (inst.condition !== 'Running') return;
  const probeId = ctx.health.nextProbeId++;
  ctx.health.pending.set(probeId, { instanceId, incarnation, checkIndex });
  const task = inst.tasks[0];
  ctx.effects.probe({
    probeId, instanceId, taskId: task.taskId, checkIndex,
    protocol: check.protocol as 'HTTP' | 'HTTPS' | 'TCP',
    host: inst.agent?.hostname ?? '',
    port: (rs.spec.kind === 'app' ? healthCheckPort(rs.spec, check, task.hostPorts) : undefined) ?? 0,
    path: check.path,
    timeoutMs: check.timeoutMs,
  });
}

/** A probe answered (or timed out): judge it and apply the result. */
export function onProbeResult(ctx: InstanceContext, obs: ProbeObservation): void {
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

function onPass(ctx: InstanceContext, f: Found): void {
  recordPass(ctx, f.rs.spec, f.inst, f.state);
}

function onFail(ctx: InstanceContext, f: Found, cause: string): void {
  if (!recordFailure(ctx, f.rs.spec, f.inst, f.state, f.check, cause)) return;
  const max = f.check.maxConsecutiveFailures;
  if (max > 0 && f.state.consecutiveFailures >= max) {
    requestUnhealthyKill(ctx, f.rs, f.inst, `${f.check.protocol} health check failed ${f.state.consecutiveFailures} times consecutively (${cause})`);
  }
}

function lookup(ctx: InstanceContext, instanceId: string, incarnation: number, checkIndex: number): Found | undefined {
  const inst = ctx.state.instance(instanceId);
  if (inst === undefined || inst.incarnation !== incarnation) return undefined;
  const rs = ctx.state.runSpecs.get(inst.runSpecId);
  const state = ctx.health.checks.get(instanceId)?.[checkIndex];
  if (rs === undefined || rs.spec.kind !== 'app' || state === undefined) return undefined;
  const check = rs.spec.healthChecks[checkIndex];
  return check === undefined || !isSchedulerRun(check.protocol) ? undefined : { rs, inst, state, check };
}

function scheduleProbe(ctx: InstanceContext, inst: Instance, checkIndex: number, dueMs: number): TimerHandle {
  return ctx.effects.setTimer(dueMs, {
    type: 'timer', timer: { kind: 'healthProbe', instanceId: inst.instanceId, incarnation: inst.incarnation, checkIndex },
  });
}
