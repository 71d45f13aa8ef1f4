import { unhealthyKillDeferralEndedEvent } from '../events/unhealthy-kill-events';
import type { HealthCheckSpec } from '../model/health-check';
import type { Instance } from '../model/instance';
import type { Clock } from '../ports/clock';
import type { InstanceEffects, TimerHandle } from '../instances/instance-effects';
import type { ReadinessCheckResult } from '../model/readiness-check';

/**
 * Result history of one health check of one instance (Marathon's per-instance `Health`), for
 * scheduler-run checks (probed through the Prober) and agent-run ones (the agent's verdicts from
 * status updates) alike: what `healthCheckResults` renders and `health_status_changed_event`
 * reports.
 */
export interface CheckState {
  /** The check, as the run spec had it when the instance started running. */
  readonly check: HealthCheckSpec;
  /** Pods: the container whose task runs the check (its verdicts arrive in that task's updates). */
  readonly containerName?: string;
  consecutiveFailures: number;
  /** undefined until the first counted result. */
  alive?: boolean;
  everHealthy: boolean;
  /** When the check first passed for this incarnation (Marathon's `firstSuccess`). */
  firstSuccessMs?: number;
  lastSuccessMs?: number;
  lastFailureMs?: number;
  lastFailureCause?: string;
  /** The next probe's timer (scheduler-run checks). */
  timer?: TimerHandle;
}

/** Readiness of one instance: its last result, and the probe timer while it is not ready. */
export interface ReadinessState {
  result: ReadinessCheckResult;
  timer?: TimerHandle;
}

/** A probe in flight. */
export interface PendingProbe {
  readonly instanceId: string;
  readonly incarnation: number;
  readonly checkIndex: number;
}

/** An unhealthy kill the floor holds back (unhealthy-kill.ts). */
export interface DeferredKill {
  /** Why the instance is to be killed: the last failed check, as the kill will report it. */
  reason: string;
  /** When the kill was first due. */
  readonly sinceMs: number;
  /** Whether `pacer_unhealthy_kill_deferred_event` was sent (a kill that goes ahead at once never was). */
  announced: boolean;
}

/**
 * The one owner of health check results: per running instance, one CheckState per check (an
 * app's `healthChecks`, a pod's container checks), and the probes in flight. The logic lives in
 * scheduler-health.ts (probes), agent-health.ts (agents' verdicts), check-results.ts (what a
 * result does) and unhealthy-kill.ts (kills and the floor); this holds data only.
 */
export class HealthTracker {
  /** Per running instance, aligned with `checksOf(spec)` (health-checks-of.ts). */
  readonly checks = new Map<string, CheckState[]>();
  readonly pending = new Map<number, PendingProbe>();
  /** Readiness checking per instance (apps with a readiness check; readiness/readiness-checks.ts). */
  readonly readiness = new Map<string, ReadinessState>();
  /** Readiness probes in flight (their ids come from the same counter as health probes). */
  readonly pendingReadiness = new Map<number, { readonly instanceId: string; readonly incarnation: number }>();
  nextProbeId = 1;
  /** Per app, the unhealthy kills its floor holds back, by instance id (unhealthy-kill.ts). */
  readonly deferredKills = new Map<string, Map<string, DeferredKill>>();
  /**
   * Per app, what its last settlement of due kills saw (unhealthy-kill.ts `settleDueKills`): the
   * run spec's `floorVersion` after it and the floor. While both stay, every kill it left held stays held.
   */
  readonly settledKills = new Map<string, { readonly floorVersion: number; readonly floor: number }>();

  /** The app has no due kill left: its entries go (what its last settlement saw too: nothing it held is left). */
  forgetDueKills(appId: string): void {
    this.deferredKills.delete(appId);
    this.settledKills.delete(appId);
  }
  /**
   * Stops checking an instance (its incarnation ended, or it is forgotten): cancels its probe
   * timers and forgets its results and a kill the floor held
   * back (announced as ended, `gone`).
   */
  forget(ctx: { readonly effects: InstanceEffects; readonly clock: Clock }, inst: Instance): void {
    const deferred = this.deferredKills.get(inst.runSpecId);
    const kill = deferred?.get(inst.instanceId);
    if (deferred !== undefined && kill !== undefined) {
      deferred.delete(inst.instanceId);
      if (deferred.size === 0) this.forgetDueKills(inst.runSpecId);
      if (kill.announced) ctx.effects.event(unhealthyKillDeferralEndedEvent(inst, 'gone', ctx.clock.nowMs()));
    }
    const readiness = this.readiness.get(inst.instanceId);
    if (readiness !== undefined) {
      ctx.effects.clearTimer(readiness.timer);
      this.readiness.delete(inst.instanceId);
    }
    const states = this.checks.get(inst.instanceId);
    if (states === undefined) return;
    for (const s of states) ctx.effects.clearTimer(s?.timer);
    this.checks.delete(inst.instanceId);
  }
}
