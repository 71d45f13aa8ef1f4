/**
 * One task's probe run again and again on the local cluster, one run at a time, as a Mesos
 * executor's checkers run theirs: the first run {@link start}'s delay from now, each next one the
 * delay `after` returns once a run ended (undefined: no more runs). {@link stop} clears the timer
 * and aborts a run in flight, whose result is then dropped. The timing shared by the agent-run
 * health checker (health-checker.ts) and the generalized check's runner (check-runner.ts), which
 * differ only in what they make of a result.
 */
export class RepeatingProbe<R> {
  private timer: NodeJS.Timeout | undefined;
  private readonly abort = new AbortController();
  private stopped = false;

  constructor(
    private readonly probe: (signal: AbortSignal) => Promise<R>,
    private readonly after: (result: R) => number | undefined,
  ) {}

  /** Schedule the first run `delayMs` from now. */
  start(delayMs: number): void {
    this.schedule(delayMs);
  }

  /** No more runs; a run in flight is abandoned. */
  stop(): void {
    this.stopped = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.abort.abort();
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.run(), Math.max(0, delayMs));
  }

  private async run(): Promise<void> {
    this.timer = undefined;
    const result = await this.probe(this.abort.signal);
    if (this.stopped) return;
    const nextMs = this.after(result);
    if (nextMs === undefined) this.stopped = true;
    else this.schedule(nextMs);
  }
}
