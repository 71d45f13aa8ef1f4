/**
 * The answer bodies pacer keeps of the master's non-streaming answers (a call's answer, a refused
 * SUBSCRIBE): Mesos writes them as short plain text (§1.6; a 202 has none), read only for logs and
 * for the few messages pacer recognises. At most this many bytes are kept (2,000 characters of
 * up to 4 UTF-8 bytes each); the rest is read and dropped, so a master, or anything answering in
 * its place, that sends a body of gigabytes costs pacer no memory (docs/limits.md).
 */
export const MAX_ANSWER_BODY_BYTES = 8000;

/** The characters of a kept body handed on (the longest message pacer logs). */
export const MAX_ANSWER_BODY_CHARS = 2000;

/**
 * Collects a response body up to {@link MAX_ANSWER_BODY_BYTES} (or `maxBytes`): {@link push} each
 * chunk, then {@link text}. Chunks past the bound are counted, not kept.
 */
export class BoundedText {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private seen = 0;

  constructor(private readonly maxBytes: number = MAX_ANSWER_BODY_BYTES) {}

  /** Keeps what of `chunk` fits under the bound. */
  push(chunk: Buffer): void {
    this.seen += chunk.byteLength;
    const room = this.maxBytes - this.kept;
    if (room <= 0) return;
    const part = chunk.byteLength <= room ? chunk : chunk.subarray(0, room);
    this.chunks.push(part);
    this.kept += part.byteLength;
  }

  /** Bytes kept so far (at most the bound). */
  get keptBytes(): number {
    return this.kept;
  }

  /** Bytes of the whole body read so far, kept or not. */
  get seenBytes(): number {
    return this.seen;
  }

  /**
   * The kept bytes as UTF-8 text, at most {@link MAX_ANSWER_BODY_CHARS} characters (a character
   * cut at the byte bound becomes U+FFFD, as any malformed UTF-8 does).
   */
  text(): string {
    return Buffer.concat(this.chunks, this.kept).toString('utf8').slice(0, MAX_ANSWER_BODY_CHARS);
  }
}
