/** Client addresses named in `warn` lines per window when they reach the failed-login limit (docs/limits.md). */
export const MAX_NAMED_BLOCKED_SOURCES = 20;

/** What {@link BlockedLog} needs. */
export interface BlockedLogOptions {
  /** The guard's limit and window, for the lines' text and the naming window. */
  readonly failures: number;
  readonly windowMs: number;
  /** The guard's monotonic clock, ms. */
  readonly nowMs: () => number;
  /** Writes one `warn` line. */
  readonly warn: (line: string) => void;
  /** Addresses named per window (default {@link MAX_NAMED_BLOCKED_SOURCES}). */
  readonly maxNamed?: number;
}

/**
 * The `warn` lines of client addresses that reach the failed-login limit (login-guard.ts tells
 * each address once per its window), bounded across addresses: within one window of
 * `windowMs` from its first line, the first `maxNamed` addresses are named; the next one gets a
 * line saying that further addresses are only counted until the window ends, and the first line
 * after it says how many were counted. Without this bound, failed Bearer tokens (no scrypt run)
 * from many IPv6 /64s (one /48 holds 65,536 of them) would write a line per /64 at the network's
 * speed. Uses no timer: the count is reported by the next line, whenever that comes.
 */
export class BlockedLog {
  private windowStartMs = Number.NEGATIVE_INFINITY;
  private named = 0;
  private unnamed = 0;
  private readonly maxNamed: number;

  constructor(private readonly options: BlockedLogOptions) {
    this.maxNamed = options.maxNamed ?? MAX_NAMED_BLOCKED_SOURCES;
  }

  /** `source` reached the limit; it is refused for the next `leftMs`. */
  blocked(source: string, leftMs: number): void {
    const { failures, windowMs, nowMs, warn } = this.options;
    const now = nowMs();
    if (now >= this.windowStartMs + windowMs) {
      if (this.unnamed > 0) warn(`${this.unnamed} more client addresses reached ${failures} failed logins in the previous ${windowMs / 1000} s window, not named`);
      this.windowStartMs = now;
      this.named = 0;
      this.unnamed = 0;
    }
    if (this.named < this.maxNamed) {
      this.named++;
      warn(`client address ${source} reached ${failures} failed logins within ${windowMs / 1000} s: its requests with credentials are answered 429 for the next ${Math.ceil(leftMs / 1000)} s`);
      return;
    }
    if (this.unnamed++ === 0) {
      const leftS = Math.ceil((this.windowStartMs + windowMs - now) / 1000);
      warn(`${this.maxNamed} client addresses reached ${failures} failed logins within ${windowMs / 1000} s: further ones are refused as well but not named for the next ${leftS} s; their number follows`);
    }
  }
}
