import { ZkError } from './zk-error';

/**
 * Reads a jute byte string (see JuteWriter) front to back. Every read is bounds-checked: a short
 * or corrupt message throws ZkError `PROTOCOL` instead of yielding garbage, and a declared length
 * larger than the rest of the message is refused before anything is allocated.
 */
export class JuteReader {
  private offset = 0;

  constructor(private readonly data: Buffer) {}

  /** Bytes not yet read. */
  get remaining(): number {
    return this.data.length - this.offset;
  }

  /** A 32-bit signed big-endian integer. */
  int(): number {
    const value = this.data.readInt32BE(this.take(4));
    return value;
  }

  /** A 64-bit signed big-endian integer. */
  long(): bigint {
    return this.data.readBigInt64BE(this.take(8));
  }

  /** A one-byte boolean (any non-zero byte is true). */
  bool(): boolean {
    return this.data[this.take(1)] !== 0;
  }

  /** A length-prefixed UTF-8 string; null when the length is -1. */
  ustring(): string | null {
    const bytes = this.buffer();
    return bytes === null ? null : bytes.toString('utf8');
  }

  /** A length-prefixed byte string (a copy); null when the length is -1. */
  buffer(): Buffer | null {
    const length = this.int();
    if (length === -1) return null;
    if (length < 0) throw new ZkError('PROTOCOL', `negative length ${length} in a ZooKeeper message`);
    const start = this.take(length);
    return Buffer.from(this.data.subarray(start, start + length));
  }

  /** A vector of strings (jute `vector<ustring>`); null when the count is -1. */
  ustringVector(): string[] | null {
    const count = this.int();
    if (count === -1) return null;
    // Each element takes at least its 4-byte length, which bounds a corrupt count.
    if (count < 0 || count * 4 > this.remaining) throw new ZkError('PROTOCOL', `bad vector length ${count} in a ZooKeeper message`);
    const items: string[] = [];
    for (let i = 0; i < count; i += 1) items.push(this.ustring() ?? '');
    return items;
  }

  /** Returns the offset of the next `size` bytes and moves past them. */
  private take(size: number): number {
    if (size > this.remaining) {
      throw new ZkError('PROTOCOL', `truncated ZooKeeper message: needed ${size} bytes at offset ${this.offset}, have ${this.remaining}`);
    }
    const start = this.offset;
    this.offset += size;
    return start;
  }
}
