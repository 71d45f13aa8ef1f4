import type { Condition } from '../model/condition';
import type { Instance } from '../model/instance';
import type { KillSelection } from '../model/run-spec';

/**
 * Which instances a scale-down kills first: instances that cost nothing to stop go first (not yet
 * launched, unreachable, still starting), then running ones, unhealthy before healthy; within a
 * rank `killSelection` decides (YOUNGEST_FIRST: most recently started first). Ties: instance id.
 */
export function selectVictims(candidates: readonly Instance[], count: number, selection: KillSelection): Instance[] {
  if (count <= 0) return [];
  const sorted = [...candidates].sort((a, b) => compareVictims(a, b, selection));
  return sorted.slice(0, count);
}

function compareVictims(a: Instance, b: Instance, selection: KillSelection): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  const ta = startTime(a);
  const tb = startTime(b);
  if (ta !== tb) return selection === 'YOUNGEST_FIRST' ? tb - ta : ta - tb;
  return a.instanceId < b.instanceId ? -1 : a.instanceId > b.instanceId ? 1 : 0;
}

const RANK: Partial<Record<Condition, number>> = {
  Scheduled: 0,
  Unreachable: 1,
  Provisioned: 2,
  Staging: 2,
  Starting: 2,
  Killing: 3,
};

function rank(inst: Instance): number {
  const r = RANK[inst.condition];
  if (r !== undefined) return r;
  return inst.healthy === false ? 4 : 5;
}

function startTime(inst: Instance): number {
  return inst.startedAtMs ?? inst.tasks[0]?.launchedAtMs ?? inst.conditionSinceMs;
}
