/**
 * Nanoseconds of a Mesos `TimeInfo` or `DurationInfo` (int64, read as a number) as whole
 * milliseconds, rounded down, as Marathon's `Timestamp.toTimestamp` and `toDuration` truncate.
 */
export function nanosToMs(nanoseconds: number): number {
  return Math.floor(nanoseconds / 1_000_000);
}
