/**
 * Builds a jute (ZooKeeper's record serialization) byte string: big-endian fixed-width integers,
 * one-byte booleans, and length-prefixed strings, buffers and vectors where length -1 means null.
 * Only the primitives the master detector's messages need.
 */
export class JuteWriter {
  private readonly parts: Buffer[] = [];

  /** A 32-bit signed big-endian integer (jute `int`). */
  int(value: number): this {
    const part = Buffer.alloc(4);
    part.writeInt32BE(value);
    return this.push(part);
  }

  /** A 64-bit signed big-endian integer (jute `long`: zxids, session ids). */
  long(value: bigint): this {
    const part = Buffer.alloc(8);
    part.writeBigInt64BE(value);
    return this.push(part);
  }

  /** A jute `boolean`: one byte, 1 or 0. */
  bool(value: boolean): this {
    return this.push(Buffer.from([value ? 1 : 0]));
  }

  /** A jute `ustring`: int byte length then UTF-8 bytes; null is length -1. */
  ustring(value: string | null): this {
    return value === null ? this.int(-1) : this.buffer(Buffer.from(value, 'utf8'));
  }

  /** A jute `buffer`: int byte length then the bytes; null is length -1. */
  buffer(value: Uint8Array | null): this {
    if (value === null) return this.int(-1);
    this.int(value.length);
    return this.push(Buffer.from(value));
  }

  /** The bytes written so far. */
  bytes(): Buffer {
    return Buffer.concat(this.parts);
  }

  private push(part: Buffer): this {
    this.parts.push(part);
    return this;
  }
}
