import { int64ToBigInt, type Int64 } from '../codec/int64';

const NS_PER_MS = 1_000_000n;

/**
 * Nanoseconds of a Mesos `TimeInfo` or `DurationInfo` (int64, exact: codec/int64.ts) as whole
 * milliseconds, by exact integer division rounded toward −∞ (floor), as Marathon's
 * `Timestamp.toTimestamp` and `toDuration` truncate. Mesos times and durations are positive, where
 * floor and truncation toward 0 agree; floor is chosen so that a time before the epoch still never
 * reads as later than it was. No double is involved: at ≈1.8e18 ns a double holds only every 256th
 * nanosecond, and a time on a millisecond boundary read through one could come back as the
 * millisecond before.
 */
export function nanosToMs(nanoseconds: Int64): number {
  const ns = int64ToBigInt(nanoseconds);
  const quotient = ns / NS_PER_MS;
  return Number(ns < 0n && quotient * NS_PER_MS !== ns ? quotient - 1n : quotient);
}
