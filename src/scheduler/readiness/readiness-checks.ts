import type { InstanceContext } from '../instances/instance-context';
import type { TimerHandle } from '../instances/instance-effects';
import type { Instance } from '../model/instance';
import type { ReadinessCheckResult, ReadinessCheckSpec } from '../model/readiness-check';
import type { ProbeObservation } from '../ports/prober';
import type { RunSpecState } from '../state/run-spec-state';
import { markReady } from '../instances/instance-tracker';

/**
 * App readiness checks (Marathon's ReadinessBehavior): once an instance of an app with a readiness
 * check is Running, the scheduler probes `protocol://host:port/path` every `intervalMs` until an
 * answer's status is in `httpStatusCodesForReady`; then the instance is ready and probing stops.
 * Deployments count a new instance only when it is running, healthy and ready (fact 119), so a
 * rolling restart never kills an old instance for a new one that is not ready yet.
 *
 * Results are kept per instance until it ends (`/v2/deployments` `readinessCheckResults`,
 * `embed=app.readiness`). Pods have no readiness checks (spec rule 6).
 */
export function startReadiness(ctx: InstanceContext, rs: RunSpecState, inst: Instance): void {
  const check = readinessCheckOf(rs);
  if (check === undefined || inst.ready === true || ctx.health.readiness.has(inst.instanceId)) return;
  const task = inst.tasks[0];
  if (task === undefined) return;
  ctx.health.readiness.set(inst.instanceId, {
    result: { name: check.name, taskId: task.taskId, ready: false, lastResponse: null },
    timer: schedule(ctx, inst, ctx.clock.nowMs()),
  });
}

/** Probe timer: send one probe and arm the next. */
export function onReadinessTimer(ctx: InstanceContext, instanceId: string, incarnation: number): void {
  const inst = ctx.state.instance(instanceId);
  const state = ctx.health.readiness.get(instanceId);
  if (inst === undefined || state === undefined || inst.incarnation !== incarnation || inst.ready === true) return;
  const rs = ctx.state.runSpecs.get(inst.runSpecId);
  const check = rs === undefined ? undefined : readinessCheckOf(rs);
  if (check === undefined) return;
  state.timer = schedule(ctx, inst, ctx.clock.nowMs() + check.intervalMs);
  if (inst.condition !== 'Running') return;
  const probeId = ctx.health.nextProbeId++;
  ctx.health.pendingReadiness.set(probeId, { instanceId, incarnation });
  const task = inst.tasks[0];
  ctx.effects.probe({
    probeId, instanceId, taskId: task.taskId, checkIndex: 0, protocol: check.protocol,
    host: inst.agent?.hostname ?? '', port: task.hostPorts[check.portIndex] ?? 0, path: check.path,
    timeoutMs: check.timeoutMs, purpose: 'readiness',
  });
}

/** True when the observation answers a readiness probe (and was handled). */
export function onReadinessResult(ctx: InstanceContext, obs: ProbeObservation): boolean {
  const pending = ctx.health.pendingReadiness.get(obs.probeId);
  if (pending === undefined) return false;
  ctx.health.pendingReadiness.delete(obs.probeId);
  const inst = ctx.state.instance(pending.instanceId);
  const state = ctx.health.readiness.get(pending.instanceId);
  const rs = inst === undefined ? undefined : ctx.state.runSpecs.get(inst.runSpecId);
  const check = rs === undefined ? undefined : readinessCheckOf(rs);
  if (inst === undefined || state === undefined || check === undefined || inst.incarnation !== pending.incarnation) return true;
  const ready = obs.httpStatus !== undefined && check.httpStatusCodesForReady.includes(obs.httpStatus);
  state.result = { ...state.result, ready, lastResponse: lastResponse(check, obs) };
  if (!ready) return true;
  ctx.effects.clearTimer(state.timer);
  state.timer = undefined;
  markReady(ctx, inst);
  return true;
}

/** Readiness results of a run spec's instances, in creation order. */
export function readinessResults(ctx: InstanceContext, runSpecId: string): ReadinessCheckResult[] {
  const rs = ctx.state.runSpecs.get(runSpecId);
  if (rs === undefined) return [];
  const out: ReadinessCheckResult[] = [];
  for (const inst of rs.instances.values()) {
    const state = ctx.health.readiness.get(inst.instanceId);
    if (state !== undefined) out.push(state.result);
  }
  return out;
}

/** Ready for a deployment: no readiness check, or a passed one. */
export function isReady(rs: RunSpecState, inst: Instance): boolean {
  return readinessCheckOf(rs) === undefined || inst.ready === true;
}

function readinessCheckOf(rs: RunSpecState): ReadinessCheckSpec | undefined {
  return rs.spec.kind === 'app' ? rs.spec.readinessChecks?.[0] : undefined;
}

function lastResponse(check: ReadinessCheckSpec, obs: ProbeObservation): ReadinessCheckResult['lastResponse'] {
  if (!check.preserveLastResponse || obs.httpStatus === undefined) return null;
  return { status: obs.httpStatus, contentType: obs.contentType ?? '', body: obs.body ?? '' };
}

function schedule(ctx: InstanceContext, inst: Instance, dueMs: number): TimerHandle {
  return ctx.effects.setTimer(dueMs, { type: 'timer', timer: { kind: 'readinessProbe', instanceId: inst.instanceId, incarnation: inst.incarnation } });
}
