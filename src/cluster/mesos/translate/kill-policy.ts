import type { DurationInfo, KillPolicy } from '../codec/mesos-model';

/** Milliseconds as a Mesos `DurationInfo` (nanoseconds, §8.2); negative durations become 0. */
export function durationOf(ms: number): DurationInfo {
  return { nanoseconds: Math.max(0, Math.round(ms * 1_000_000)) };
}

/**
 * The task's `kill_policy`: the grace between SIGTERM and SIGKILL (spec 2.4
 * `taskKillGracePeriodSeconds`, pods `lifecycle.killGracePeriodSeconds`). Mesos would default to
 * 3 s without it (mesos-v1-scheduler-api.md §7.6); pacer always states it.
 */
export function killPolicyOf(gracePeriodMs: number): KillPolicy {
  return { gracePeriod: durationOf(gracePeriodMs) };
}
