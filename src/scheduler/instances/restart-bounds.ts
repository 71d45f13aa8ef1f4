import type { UpgradePolicy } from '../model/run-spec';

/** Bounds of a rolling replacement (Marathon's restart strategy). */
export interface RestartBounds {
  /** Instances that must stay healthy throughout: ceil(instances × minimumHealthCapacity). */
  readonly minHealthy: number;
  /** Instances that may exist at once, old and new: floor(instances × (1 + maximumOverCapacity)). */
  readonly maxCapacity: number;
}

/**
 * How many of `instances` must stay healthy under `minimumHealthCapacity`: ceil(instances ×
 * capacity), Marathon's rounding (TaskReplaceActor.scala, `minHealthy`). The one place pacer
 * rounds the capacity: rolling restarts and the unhealthy-kill floor (health/unhealthy-kill-floor.ts).
 */
export function minimumHealthyCount(instances: number, minimumHealthCapacity: number): number {
  return Math.ceil(instances * minimumHealthCapacity);
}

/**
 * Bounds for replacing `instances` instances under `policy`. With {1, 0} no instance could ever be
 * replaced, so one temporary extra instance is allowed (non-resident run specs; fact 119); a resident
 * run spec instead may dip one below (its reservations cannot double).
 */
export function restartBounds(instances: number, policy: UpgradePolicy, resident: boolean): RestartBounds {
  let minHealthy = minimumHealthyCount(instances, policy.minimumHealthCapacity);
  let maxCapacity = Math.floor(instances * (1 + policy.maximumOverCapacity));
  if (minHealthy >= maxCapacity && instances > 0) {
    if (resident) minHealthy = Math.max(0, maxCapacity - 1);
    else maxCapacity = minHealthy + 1;
  }
  return { minHealthy, maxCapacity };
}
