import type { CoreContext } from '../core-context';
import type { Condition } from '../model/condition';
import { isSchedulerRun } from '../model/health-check';
import type { Instance } from '../model/instance';
import type { RunSpecState } from '../state/run-spec-state';
import { floorState, type FloorState } from './unhealthy-kill';

/** One unhealthy kill the floor holds back: the instance keeps running until the floor allows the kill. */
export interface DeferredKillStatus {
  readonly instanceId: string;
  readonly taskId: string;
  /** The failed check the kill is for, as the kill event will say it. */
  readonly reason: string;
  /** When the kill first fell due. */
  readonly sinceMs: number;
  readonly condition: Condition;
  readonly host: string;
}

/** An app's unhealthy-kill floor as an operator reads it (`heldUnhealthyKills` of `GET /v2/queue`, the UI's queue page). */
export interface UnhealthyKillStatus extends FloorState {
  readonly appId: string;
  /** It has scheduler-run checks that kill (HTTP/HTTPS/TCP with maxConsecutiveFailures > 0): the floor holds their kills back. */
  readonly schedulerKills: boolean;
  /** It has agent-run checks: the agent kills on its own, which the floor cannot hold back. */
  readonly agentKills: boolean;
  /** The kills held back now, in the order the floor will let them go (the order they fell due). */
  readonly deferred: readonly DeferredKillStatus[];
}

/** The floor of an app with health checks; undefined for pods and apps without checks (nothing to hold back). */
export function unhealthyKillStatus(ctx: CoreContext, rs: RunSpecState): UnhealthyKillStatus | undefined {
  const spec = rs.spec;
  if (spec.kind !== 'app' || spec.healthChecks.length === 0) return undefined;
  const due = ctx.health.deferredKills.get(spec.id);
  const ordered = [...(due?.entries() ?? [])].filter(([, k]) => k.announced).map(([id]) => rs.instances.get(id)).filter((i): i is Instance => i !== undefined);
  return {
    appId: spec.id,
    ...floorState(ctx, spec, rs.instances.values()),
    schedulerKills: spec.healthChecks.some((c) => isSchedulerRun(c.protocol) && c.maxConsecutiveFailures > 0),
    agentKills: spec.healthChecks.some((c) => !isSchedulerRun(c.protocol)),
    deferred: ordered.map((inst) => {
      const kill = due?.get(inst.instanceId);
      return {
        instanceId: inst.instanceId,
        taskId: inst.tasks[0]?.taskId ?? inst.instanceId,
        reason: kill?.reason ?? '',
        sinceMs: kill?.sinceMs ?? 0,
        condition: inst.condition,
        host: inst.agent?.hostname ?? '',
      };
    }),
  };
}
