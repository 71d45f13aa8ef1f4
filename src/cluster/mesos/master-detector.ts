/**
 * Finds the leading Mesos master. The driver asks it for a base URL before every (re)subscription,
 * so a detector that follows leader elections (ZooKeeper) makes master failover transparent; a
 * static detector just returns the configured `--master` URL and lets 307 redirects do the rest.
 */
export interface MasterDetector {
  /** Base URL of the current leading master: `http(s)://host:port` (no trailing slash). */
  leader(): Promise<string /* http(s)://host:port */>;
  /**
   * Optional: `listener` hears of a new leading master as soon as the detector sees the election
   * (ZooKeeper watches), so the driver can move to it even while the old master's stream still
   * looks open (a partitioned old leader).
   */
  onChange?(listener: (leaderUrl: string) => void): void;
  /**
   * Optional: `listener` hears why a read the detector made on its own (a watch fired) found no
   * usable leader — the group empty, a MasterInfo that does not parse, ZooKeeper unreachable —
   * which no `leader()` call would otherwise report while the driver stays subscribed.
   */
  onTrouble?(listener: (message: string) => void): void;
  /** Releases sessions, watches and timers; `leader()` must not be called afterwards. */
  close(): void;
}
