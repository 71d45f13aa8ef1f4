/**
 * When to sweep a map whose entries go stale (entries of instances or run specs gone): once it
 * holds as many entries as the threshold, which each sweep sets to twice what it kept, never below
 * `minEntries`. A map swept so holds at most max(`minEntries`, 2 × what the last sweep kept)
 * entries, and each sweep, which visits every entry, is paid for by at least half as many
 * insertions since the one before. The one rule behind the core's task owners
 * (state/task-owners.ts) and the simulator's oracles and recorder, which a run served for days
 * (`--cluster sim`) would otherwise grow without end.
 */
export class SweepThreshold {
  private at: number;

  constructor(private readonly minEntries: number) {
    this.at = minEntries;
  }

  /** Whether a map of `size` entries is to be swept now. */
  due(size: number): boolean {
    return size >= this.at;
  }

  /** A sweep left `kept` entries: the next is due at twice that (at least `minEntries`). */
  swept(kept: number): void {
    this.at = Math.max(this.minEntries, 2 * kept);
  }
}
