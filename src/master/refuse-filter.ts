/** Mesos caps `refuse_seconds` at 365 days (mesos-v1-scheduler-api.md §2.3). */
const MAX_REFUSE_MS = 365 * 24 * 3600 * 1000;
/**
 * The refuse filter of a DECLINE or ACCEPT without `filters` (and of a negative `refuse_seconds`):
 * Mesos's `Filters.refuse_seconds` default, 5 s (§2.3).
 */
export const DEFAULT_REFUSE_MS = 5000;

/**
 * How long a refuse filter of `refuseMs` keeps an agent out of offers, as a Mesos master reads
 * it (§2.3): 0 installs no filter, a negative value means the 5 s default, and the cap is 365
 * days. The master model's allocator (offer-desk.ts) is the one reader.
 */
export function refuseFilterMs(refuseMs: number): number {
  return refuseMs < 0 ? DEFAULT_REFUSE_MS : Math.min(refuseMs, MAX_REFUSE_MS);
}

/**
 * The `refuseMs` of a DECLINE or ACCEPT as it arrives on the wire: `Filters.refuse_seconds`, or
 * nothing — which a Mesos master reads as the 5 s default, not as "no filter" (§2.3). For a
 * master that reads the wire (the tests' fake Mesos master).
 */
export function refuseMsOfFilters(refuseSeconds: number | undefined): number {
  return refuseSeconds === undefined ? DEFAULT_REFUSE_MS : Math.round(refuseSeconds * 1000);
}
