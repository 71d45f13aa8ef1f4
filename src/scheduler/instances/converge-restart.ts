import type { InstanceContext } from './instance-context';
import { isTerminalCondition } from '../model/condition';
import type { Instance } from '../model/instance';
import type { RunSpecState } from '../state/run-spec-state';
import type { RestartBounds } from './restart-bounds';
import { createInstances } from './instance-lifecycle';
import { isActive } from './instance-tracker';
import { isReady } from '../readiness/readiness-checks';
import { selectVictims } from './select-victims';
import { killInstance } from '../kill/kill-instance';

/**
 * One round of a rolling replacement (RestartApplication): instances of the new version replace
 * those of older versions while
 * - healthy instances (old and new) never drop below `minHealthy` because of a kill we make, and
 * - instances that exist (not terminal, whatever their goal) never exceed `maxCapacity`.
 * Old instances that are not healthy go first (losing them costs no health); healthy old ones go
 * as new ones become healthy. New instances are launched as capacity allows. Idempotent: call it
 * after anything changed (a status, a health result, an expunge).
 */
export function convergeRestart(ctx: InstanceContext, rs: RunSpecState): void {
  const bounds = rs.restart;
  if (bounds === undefined) return;
  const generation = rs.spec.versionInfo.lastConfigChangeAt;
  const c = census(rs, generation);
  if (rs.spec.resident) {
    replaceInPlace(ctx, rs, c, bounds);
    return;
  }
  let healthy = c.oldHealthy.length + c.newHealthy;
  let existing = c.existing;
  const victims = [
    ...selectVictims(c.oldUnhealthy, c.oldUnhealthy.length, rs.spec.killSelection),
    ...selectVictims(c.oldHealthy, c.oldHealthy.length, rs.spec.killSelection),
  ];
  let oldLeft = victims.length;
  for (const victim of victims) {
    const wasHealthy = c.oldHealthy.includes(victim);
    if (wasHealthy && healthy - 1 < bounds.minHealthy) break;
    killInstance(ctx, rs, victim, 'replaced', 'Decommissioned');
    if (wasHealthy) healthy--;
    oldLeft--;
    if (victim.condition === 'Scheduled' || isTerminalCondition(victim.condition) || !rs.instances.has(victim.instanceId)) existing--;
  }
  const wanted = rs.spec.instances - c.newActive;
  const room = bounds.maxCapacity - existing;
  const launch = Math.min(wanted, room);
  createInstances(ctx, rs, launch);
  if (oldLeft === 0 && c.newActive + Math.max(0, launch) > rs.spec.instances) trimNew(ctx, rs, generation);
}

/**
 * The rolling replacement of a resident run spec: its instances are bound to their reservations,
 * so each old instance is killed with goal Running and relaunched as the same instance under the
 * new config (Marathon relaunches resident instances on their reservations); it keeps its role,
 * so after a forced role change old instances stay on the old role (fact 114, spec section 3).
 * No instance is started next to the old ones; healthy instances never drop below `minHealthy`
 * because of a kill made here. Instances already being killed are left to finish.
 */
function replaceInPlace(ctx: InstanceContext, rs: RunSpecState, c: Census, bounds: RestartBounds): void {
  let healthy = c.oldHealthy.length + c.newHealthy;
  const victims = [
    ...selectVictims(c.oldUnhealthy, c.oldUnhealthy.length, rs.spec.killSelection),
    ...selectVictims(c.oldHealthy, c.oldHealthy.length, rs.spec.killSelection),
  ];
  for (const victim of victims) {
    const wasHealthy = c.oldHealthy.includes(victim);
    if (wasHealthy && healthy - 1 < bounds.minHealthy) break;
    killInstance(ctx, rs, victim, 'replaced', 'Running');
    if (wasHealthy) healthy--;
  }
  const missing = rs.spec.instances - rs.activeCount;
  createInstances(ctx, rs, missing);
  if (missing < 0) {
    const active = [...rs.instances.values()].filter(isActive);
    for (const victim of selectVictims(active, -missing, rs.spec.killSelection)) killInstance(ctx, rs, victim, 'scale-down', 'Decommissioned');
  }
}

/** True when the replacement is complete: no old instance left and all new ones healthy. */
export function restartDone(rs: RunSpecState): boolean {
  const c = census(rs, rs.spec.versionInfo.lastConfigChangeAt);
  return c.oldHealthy.length + c.oldUnhealthy.length === 0 && c.oldExisting === 0 && c.newActive === rs.spec.instances && c.newHealthy === rs.spec.instances;
}

interface Census {
  readonly oldHealthy: Instance[];
  readonly oldUnhealthy: Instance[];
  /** Old instances that still exist (being killed included). */
  readonly oldExisting: number;
  readonly newActive: number;
  readonly newHealthy: number;
  /** Every instance that is not terminal, old or new, whatever its goal. */
  readonly existing: number;
}

/**
 * Instances of the current config generation count as new (their `configVersion` is the spec's
 * `lastConfigChangeAt`): a later scale-only version does not make them old, and a rollback to an
 * earlier definition makes the instances of the canceled one old.
 */
function census(rs: RunSpecState, generation: string): Census {
  const oldHealthy: Instance[] = [];
  const oldUnhealthy: Instance[] = [];
  let oldExisting = 0;
  let newActive = 0;
  let newHealthy = 0;
  let existing = 0;
  for (const inst of rs.instances.values()) {
    if (!isTerminalCondition(inst.condition)) existing++;
    const isNew = inst.configVersion === generation;
    if (!isNew && !isTerminalCondition(inst.condition)) oldExisting++;
    // An old instance already being replaced in place (resident) is neither a victim nor healthy.
    if (!isActive(inst) || (!isNew && inst.killReason === 'replaced')) continue;
    if (isNew) {
      newActive++;
      if (isHealthy(rs, inst) && isReady(rs, inst)) newHealthy++;
    } else if (isHealthy(rs, inst)) oldHealthy.push(inst);
    else oldUnhealthy.push(inst);
  }
  return { oldHealthy, oldUnhealthy, oldExisting, newActive, newHealthy, existing };
}

/**
 * Healthy for a deployment: running, and passing its health checks when it has any
 * (Marathon waits for health, and for readiness where a readiness check exists).
 */
export function isHealthy(rs: RunSpecState, inst: Instance): boolean {
  if (inst.condition !== 'Running') return false;
  return !hasHealthChecks(rs) || inst.healthy === true;
}

function hasHealthChecks(rs: RunSpecState): boolean {
  const spec = rs.spec;
  return spec.kind === 'app' ? spec.healthChecks.length > 0 : spec.containers.some((c) => c.healthCheck !== undefined);
}

function trimNew(ctx: InstanceContext, rs: RunSpecState, generation: string): void {
  const fresh = [...rs.instances.values()].filter((i) => isActive(i) && i.configVersion === generation);
  const surplus = fresh.length - rs.spec.instances;
  for (const victim of selectVictims(fresh, surplus, rs.spec.killSelection)) killInstance(ctx, rs, victim, 'scale-down', 'Decommissioned');
}
