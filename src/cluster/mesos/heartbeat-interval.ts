/**
 * The shortest heartbeat interval taken from SUBSCRIBED: a master that claims less is held to
 * this (the watchdog then allows `heartbeatFailureThreshold` × 10 ms), so that the watchdog is a
 * timer of some milliseconds rather than one that fires at once.
 */
export const MIN_HEARTBEAT_INTERVAL_SECONDS = 0.01;

/**
 * The longest heartbeat interval taken from SUBSCRIBED (one hour; current masters say 15 s,
 * mesos-v1-scheduler-api.md §1.7): a master that claims more is held to this, so the watchdog
 * stays a timer Node can arm (beyond 2^31 − 1 ms `setTimeout` fires at once) and a dead stream is
 * noticed within `heartbeatFailureThreshold` hours, not never.
 */
export const MAX_HEARTBEAT_INTERVAL_SECONDS = 3600;

/** The interval the heartbeat watchdog uses, and what the master said when it was not taken as is. */
export interface HeartbeatInterval {
  readonly seconds: number;
  /** The master's value when it was out of range (so replaced), for the warning; absent when taken as is or not given. */
  readonly refused?: number;
}

/**
 * The heartbeat interval of a SUBSCRIBED event (`heartbeat_interval_seconds`, a protobuf double the
 * master fills in): none given → `fallbackSeconds`; zero, negative or not a number (what a master
 * that writes an unset double as 0 would send) → `fallbackSeconds` too, since no heartbeat rate
 * can be read from it; otherwise held within {@link MIN_HEARTBEAT_INTERVAL_SECONDS} –
 * {@link MAX_HEARTBEAT_INTERVAL_SECONDS} (Infinity included). Any of these taken as is made the
 * watchdog fire at once after every SUBSCRIBED: resubscribing for ever, never usable.
 */
export function heartbeatInterval(given: number | undefined, fallbackSeconds: number): HeartbeatInterval {
  if (given === undefined) return { seconds: fallbackSeconds };
  if (Number.isNaN(given) || given <= 0) return { seconds: fallbackSeconds, refused: given };
  if (given < MIN_HEARTBEAT_INTERVAL_SECONDS) return { seconds: MIN_HEARTBEAT_INTERVAL_SECONDS, refused: given };
  if (given > MAX_HEARTBEAT_INTERVAL_SECONDS) return { seconds: MAX_HEARTBEAT_INTERVAL_SECONDS, refused: given };
  return { seconds: given };
}
