/** scrypt verifications run at once by default (`--http_auth_scrypt_runs`). */
export const DEFAULT_SCRYPT_RUNS = 1;

/** Verifications that may wait for a run; one more is refused at once (docs/limits.md). */
export const MAX_SCRYPT_WAITING = 32;

/**
 * Bounds the scrypt runs of password checks: at most `runs` at once, at most `maxWaiting` queued
 * behind them, and beyond that {@link run} answers `'busy'` at once (the API's 503) instead of
 * queueing.
 *
 * Why: a scrypt run takes about 0.1 s of a core and runs on libuv's thread pool (4 threads by
 * default), which file system calls, `dns.lookup` and zlib share. Without a bound, a flood of
 * logins from many sources (each within its own failure budget, `login-guard.ts`) queued thousands
 * of runs there: every other caller's first login waited behind all of them, other pool work did
 * too, and every core was busy with them. One run at a time by default takes at most one core
 * (about 10 first logins a second at `npm run passwd`'s cost, which is enough: a verified password
 * is remembered and checked without scrypt), and a login waits at most `maxWaiting / runs` runs.
 */
export class ScryptGate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private startedRuns = 0;

  constructor(
    private readonly runs: number = DEFAULT_SCRYPT_RUNS,
    private readonly maxWaiting: number = MAX_SCRYPT_WAITING,
  ) {}

  /** Runs `work` when a run is free (in order of arrival); `'busy'` when `maxWaiting` wait already. */
  async run<T>(work: () => Promise<T>): Promise<T | 'busy'> {
    if (this.running >= this.runs) {
      if (this.waiting.length >= this.maxWaiting) return 'busy';
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    this.startedRuns++;
    try {
      return await work();
    } finally {
      // The run passes to the next waiting verification, or is freed.
      const next = this.waiting.shift();
      if (next === undefined) this.running--;
      else next();
    }
  }

  /** Runs started since the gate was made (tests and diagnostics). */
  get started(): number {
    return this.startedRuns;
  }

  /** Runs going on now, and verifications waiting for one. */
  get load(): { readonly running: number; readonly waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }
}
