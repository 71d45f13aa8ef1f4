import { MesosCodecError } from '../codec/mesos-codec-error';

/**
 * Default bound on one record's size. Large clusters send big OFFERS events, but a length prefix
 * beyond this is taken as a corrupt stream rather than a reason to buffer without limit.
 */
export const DEFAULT_MAX_RECORD_BYTES = 64 * 1024 * 1024;

/** A record size is an ASCII decimal uint64: at most 20 digits (spec §1.4). */
const MAX_LENGTH_DIGITS = 20;
const LINE_FEED = 0x0a;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;

/**
 * Incremental RecordIO decoder for the SUBSCRIBE response body (spec §1.4):
 * `records = *(record-size LF record-data)`, the size being the payload's length in bytes, with
 * no separator after the payload. HTTP chunk boundaries are unrelated to records, so `push` takes
 * chunks of any size and returns the records they complete, in order: none, one or many.
 *
 * Zero-length records are skipped (stout tolerates them; the master never sends them). A length
 * prefix that is not decimal digits, is empty, or exceeds `maxRecordBytes` throws a
 * MesosCodecError; the error is sticky (every later `push` throws it too), because the stream
 * can no longer be framed — close it and resubscribe.
 */
export class RecordIoParser {
  private lengthDigits = '';
  private record: Uint8Array | undefined;
  private filledBytes = 0;
  private failure: MesosCodecError | undefined;

  /** @param maxRecordBytes the largest record accepted (default DEFAULT_MAX_RECORD_BYTES) */
  constructor(private readonly maxRecordBytes: number = DEFAULT_MAX_RECORD_BYTES) {}

  /** Feeds the next chunk of the body; returns every record it completes (fresh copies). */
  push(chunk: Uint8Array): Uint8Array[] {
    if (this.failure !== undefined) throw this.failure;
    const records: Uint8Array[] = [];
    let offset = 0;
    while (offset < chunk.length) {
      offset = this.record === undefined ? this.readLength(chunk, offset) : this.fillRecord(chunk, offset, records);
    }
    return records;
  }

  /** Whether part of a record (or of its length prefix) is buffered. */
  get midRecord(): boolean {
    return this.record !== undefined || this.lengthDigits !== '';
  }

  /**
   * Declares the end of the body. Throws MesosCodecError when it ended inside a record (a
   * truncated stream), or when the stream had already failed.
   */
  finish(): void {
    if (this.failure !== undefined) throw this.failure;
    if (this.record !== undefined) {
      this.fail(`stream ended inside a record (${this.filledBytes} of ${this.record.length} bytes)`);
    }
    if (this.lengthDigits !== '') this.fail('stream ended inside a length prefix');
  }

  private readLength(chunk: Uint8Array, start: number): number {
    for (let offset = start; offset < chunk.length; offset += 1) {
      const byte = chunk[offset] as number;
      if (byte === LINE_FEED) {
        this.startRecord();
        return offset + 1;
      }
      if (byte < DIGIT_0 || byte > DIGIT_9) this.fail(`invalid byte 0x${byte.toString(16).padStart(2, '0')} in a length prefix`);
      this.lengthDigits += String.fromCharCode(byte);
      if (this.lengthDigits.length > MAX_LENGTH_DIGITS || Number(this.lengthDigits) > this.maxRecordBytes) {
        this.fail(`record length ${this.lengthDigits}… exceeds the limit of ${this.maxRecordBytes} bytes`);
      }
    }
    return chunk.length;
  }

  private startRecord(): void {
    if (this.lengthDigits === '') this.fail('empty length prefix');
    const length = Number(this.lengthDigits);
    this.lengthDigits = '';
    if (length === 0) return;
    this.record = new Uint8Array(length);
    this.filledBytes = 0;
  }

  private fillRecord(chunk: Uint8Array, offset: number, records: Uint8Array[]): number {
    const record = this.record as Uint8Array;
    const take = Math.min(record.length - this.filledBytes, chunk.length - offset);
    record.set(chunk.subarray(offset, offset + take), this.filledBytes);
    this.filledBytes += take;
    if (this.filledBytes === record.length) {
      records.push(record);
      this.record = undefined;
    }
    return offset + take;
  }

  private fail(reason: string): never {
    this.failure = new MesosCodecError(`malformed RecordIO stream: ${reason}`);
    throw this.failure;
  }
}
