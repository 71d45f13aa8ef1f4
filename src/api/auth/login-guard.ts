/** Failed logins one client source may make within a window before it is refused (`--http_auth_failures`). */
export const DEFAULT_LOGIN_FAILURES = 10;

/** The window failed logins are counted in, from a source's first failure (`--http_auth_failure_window`). */
export const DEFAULT_LOGIN_FAILURE_WINDOW_MS = 60_000;

/**
 * Client sources whose failures are remembered at once (docs/limits.md). An entry is a key of at
 * most 24 characters and two numbers, about 200 bytes with the map's own: 2 MB at the bound.
 */
export const MAX_LOGIN_GUARD_SOURCES = 10_000;

/** What {@link LoginGuard} needs. */
export interface LoginGuardOptions {
  /** Failed logins a source may make in one window; the next attempt in the window is refused. At least 1. */
  readonly failures: number;
  /** Length of a source's window, from its first failure in it. */
  readonly windowMs: number;
  /** A monotonic clock, ms (tests pass their own). */
  readonly nowMs: () => number;
  /** Sources kept at once (default {@link MAX_LOGIN_GUARD_SOURCES}). */
  readonly maxSources?: number;
  /**
   * Told once per window, when `source`'s failures reach `failures` (its next attempts are refused
   * for `leftMs`): the guard's log line. Not told again for the failures of requests that were
   * already being checked as it happened.
   */
  readonly onBlocked?: (source: string, leftMs: number) => void;
}

interface Window {
  readonly startMs: number;
  failures: number;
}

/**
 * Counts failed logins per client source (an IPv4 address, or an IPv6 address's /64: {@link loginSource})
 * in fixed windows that start at a source's first failure, so that a source that made
 * `failures` of them within `windowMs` is refused until its window ends ({@link retryAfterMs})
 * without its credentials being checked: no scrypt run, and no answer that tells a right guess
 * from a wrong one. Successes are never counted, nor are the refused attempts (a source that waits
 * for the end of its window gets `failures` attempts again).
 *
 * The table is bounded: entries are kept in the order their windows started (a `Map`'s insertion
 * order), so the first one ends first; expired ones are dropped from the front as new ones come,
 * and when `maxSources` live windows are kept the oldest is dropped (that source's count is
 * forgotten: a flood from more sources than that within one window is bounded by the scrypt gate,
 * `scrypt-gate.ts`, not here). Every call is O(1) (amortised: each entry is dropped once).
 *
 * When a source reaches the limit, `onBlocked` is told once for that window (the failures of
 * requests already under way as it happened push the count past the limit, not to it again): so
 * its log line comes at most once per source per window, and never more often than one per
 * `failures` failed logins.
 *
 * Counting per user name instead was not done: it would let anyone lock a named user (`admin`) out
 * from every address by failing on purpose.
 */
export class LoginGuard {
  private readonly windows = new Map<string, Window>();
  private readonly maxSources: number;

  constructor(private readonly options: LoginGuardOptions) {
    this.maxSources = options.maxSources ?? MAX_LOGIN_GUARD_SOURCES;
  }

  /** How long `source` is still refused, in ms (> 0); undefined when it may try. */
  retryAfterMs(source: string): number | undefined {
    const window = this.windows.get(source);
    if (window === undefined || window.failures < this.options.failures) return undefined;
    const leftMs = window.startMs + this.options.windowMs - this.options.nowMs();
    return leftMs > 0 ? leftMs : undefined;
  }

  /** Counts one failed login of `source`. */
  recordFailure(source: string): void {
    const nowMs = this.options.nowMs();
    const window = this.windows.get(source);
    if (window !== undefined && nowMs < window.startMs + this.options.windowMs) {
      window.failures++;
      this.blockedNow(source, window, nowMs);
      return;
    }
    // A new window: to the end of the order, after dropping the windows that ended.
    if (window !== undefined) this.windows.delete(source);
    this.dropEnded(nowMs);
    if (this.windows.size >= this.maxSources) this.dropFirst();
    const started = { startMs: nowMs, failures: 1 };
    this.windows.set(source, started);
    this.blockedNow(source, started, nowMs);
  }

  /** Sources kept now (tests, docs/limits.md's bound). */
  get size(): number {
    return this.windows.size;
  }

  /**
   * Tells `onBlocked` when this failure is the one that reached the limit (exactly once per window).
   * What is left is `windowMs` less the time elapsed, so a new window's is exactly `windowMs` on a
   * fractional clock (`performance.now`).
   */
  private blockedNow(source: string, window: Window, nowMs: number): void {
    if (window.failures === this.options.failures) this.options.onBlocked?.(source, this.options.windowMs - (nowMs - window.startMs));
  }

  private dropEnded(nowMs: number): void {
    for (const [source, window] of this.windows) {
      if (nowMs < window.startMs + this.options.windowMs) return;
      this.windows.delete(source);
    }
  }

  private dropFirst(): void {
    const first = this.windows.keys().next();
    if (first.done !== true) this.windows.delete(first.value);
  }
}

/**
 * The source a client's failures are counted under: its IPv4 address, or the first 64 bits of its
 * IPv6 address (a host is usually given a whole /64, so counting single IPv6 addresses would let
 * one host change address on every attempt). An IPv4-mapped IPv6 address (`::ffff:192.0.2.1`)
 * counts as its IPv4 address; a zone (`%eth0`) is ignored.
 */
export function loginSource(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped !== null) return mapped[1];
  if (!address.includes(':')) return address;
  const bare = address.split('%')[0].toLowerCase();
  const [head, tail] = bare.split('::') as [string, string | undefined];
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = tail === undefined ? headGroups : [...headGroups, ...new Array<string>(Math.max(0, 8 - headGroups.length - tailGroups.length)).fill('0'), ...tailGroups];
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}
