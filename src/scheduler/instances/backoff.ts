import type { RunSpecState } from '../state/run-spec-state';
import type { InstanceContext } from './instance-context';

/**
 * Launch backoff (Marathon's rate limiter): the first failure delays launches by
 * `backoff.initialMs`; each further failure multiplies the delay by `factor`, capped at `maxMs`.
 * The delay belongs to one config version: a new `lastConfigChangeAt` starts from scratch.
 */
export function recordLaunchFailure(ctx: InstanceContext, rs: RunSpecState): void {
  const nowMs = ctx.clock.nowMs();
  const policy = rs.spec.backoff;
  const configVersion = rs.spec.versionInfo.lastConfigChangeAt;
  const current = rs.backoff !== undefined && rs.backoff.configVersion === configVersion ? rs.backoff : undefined;
  const delayMs = current === undefined ? policy.initialMs : Math.min(Math.round(current.delayMs * policy.factor), policy.maxMs);
  ctx.effects.clearTimer(current?.timer);
  const deadlineMs = nowMs + delayMs;
  const timer = ctx.effects.setTimer(deadlineMs, { type: 'timer', timer: { kind: 'backoffExpired', runSpecId: rs.spec.id } });
  rs.backoff = { delayMs, deadlineMs, configVersion, timer };
  ctx.state.demandDirty.add(rs);
}

/** Forget the delay (DELETE /v2/queue/{id}/delay, or a new config version). */
export function resetBackoff(ctx: InstanceContext, rs: RunSpecState): void {
  ctx.effects.clearTimer(rs.backoff?.timer);
  rs.backoff = undefined;
  ctx.state.demandDirty.add(rs);
}

/** True while launches of this run spec must wait. A delay of an older config version does not count. */
export function inBackoff(rs: RunSpecState, nowMs: number): boolean {
  const b = rs.backoff;
  return b !== undefined && b.deadlineMs > nowMs && b.configVersion === rs.spec.versionInfo.lastConfigChangeAt;
}
