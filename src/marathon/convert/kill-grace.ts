import type { PodContainer } from '../../scheduler/model/run-spec';

/** Grace between SIGTERM and SIGKILL when a definition sets none (spec 2.4, 8): 3 seconds. */
export const DEFAULT_KILL_GRACE_MS = 3000;

/**
 * The kill grace period of a pod instance: the longest of its containers' periods, a container
 * without `lifecycle.killGracePeriodSeconds` counting as the default 3 s. `PodSpec` has no field
 * for it yet, so callers outside the core compute it from the containers with this function.
 */
export function podKillGracePeriodMs(containers: readonly PodContainer[]): number {
  if (containers.length === 0) return DEFAULT_KILL_GRACE_MS;
  return Math.max(...containers.map((c) => c.killGracePeriodMs ?? DEFAULT_KILL_GRACE_MS));
}
