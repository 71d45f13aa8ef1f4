import type { InstanceContext } from '../instances/instance-context';
import type { Condition } from '../model/condition';
import type { Instance } from '../model/instance';
import type { RunSpecState } from '../state/run-spec-state';
import { floorState, type FloorState } from './unhealthy-kill';
import { isKillable } from '../instances/instance-tracker';

/** One unhealthy kill the floor holds back: the instance keeps running until the floor allows the kill. */
export interface HeldKillStatus {
  readonly instanceId: string;
  readonly taskId: string;
  /** The failed check the kill is for, as the kill event will say it. */
  readonly reason: string;
  /** When the kill first fell due. */
  readonly sinceMs: number;
  readonly condition: Condition;
  readonly host: string;
}

/** An app whose floor holds unhealthy kills back, as an operator reads it (`heldUnhealthyKills` of `GET /v2/queue`, the UI's queue page). */
export interface HeldKillsStatus extends FloorState {
  readonly appId: string;
  /** The kills held back now, in the order the floor will let them go (the order they fell due). */
  readonly held: readonly HeldKillStatus[];
}

/**
 * Every app whose floor holds kills back now, by id. Reads only the apps with held kills (the
 * health tracker's `deferredKills`), so it costs nothing while no storm is on.
 */
export function heldKillsStatus(ctx: InstanceContext): HeldKillsStatus[] {
  const out: HeldKillsStatus[] = [];
  for (const runSpecId of ctx.health.deferredKills.keys()) {
    const rs = ctx.state.runSpecs.get(runSpecId);
    const status = rs === undefined ? undefined : appHeldKills(ctx, rs);
    if (status !== undefined) out.push(status);
  }
  return out.sort((a, b) => (a.appId < b.appId ? -1 : a.appId > b.appId ? 1 : 0));
}

/**
 * The announced held kills of one app with its floor; undefined when none is held. An instance
 * another kill is stopping already (scale-down, a kill through the API) is left out: its held kill
 * ends as the instance does (outcome gone).
 */
function appHeldKills(ctx: InstanceContext, rs: RunSpecState): HeldKillsStatus | undefined {
  const due = ctx.health.deferredKills.get(rs.spec.id);
  const held: HeldKillStatus[] = [];
  for (const [instanceId, kill] of due ?? []) {
    const inst: Instance | undefined = rs.instances.get(instanceId);
    if (inst === undefined || !kill.announced || !isKillable(inst)) continue;
    held.push({
      instanceId, taskId: inst.tasks[0]?.taskId ?? instanceId, reason: kill.reason, sinceMs: kill.sinceMs,
      condition: inst.condition, host: inst.agent?.hostname ?? '',
    });
  }
  if (held.length === 0) return undefined;
  return { appId: rs.spec.id, ...floorState(ctx, rs), held };
}
