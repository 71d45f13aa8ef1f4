import { createHash, type Hash } from 'node:crypto';

/**
 * The canonical JSONL trace of a run: every input, timer firing, driver call and event, one JSON
 * object per line, in loop order. Its SHA-256 is the replay oracle: same scenario + same seed ⇒
 * the same hash. Lines are kept only when asked (writing a trace file); the hash always.
 */
export class Trace {
  private readonly hash: Hash = createHash('sha256');
  private readonly kept: string[] | undefined;
  lines = 0;

  /** `enabled` false: a run without a trace (benchmarks); appends are dropped, the digest is empty. */
  constructor(keepLines: boolean, readonly enabled = true) {
    this.kept = keepLines && enabled ? [] : undefined;
  }

  append(record: Readonly<Record<string, unknown>>): void {
    if (!this.enabled) return;
    const line = JSON.stringify(record);
    this.hash.update(line);
    this.hash.update('\n');
    this.lines++;
    this.kept?.push(line);
  }

  /** Hex SHA-256 of all lines so far (call once, at the end). */
  digest(): string {
    return this.hash.digest('hex');
  }

  /** The kept lines joined as a JSONL document (empty when lines were not kept). */
  text(): string {
    return this.kept === undefined ? '' : `${this.kept.join('\n')}\n`;
  }
}
