import { ZkError } from './zk-error';

/**
 * A bound on one packet. ZooKeeper's own default `jute.maxbuffer` is 1 MiB of znode data; a
 * length prefix far beyond it is a corrupt stream (or not ZooKeeper at all), not a reason to
 * buffer without limit.
 */
export const DEFAULT_MAX_PACKET_BYTES = 16 * 1024 * 1024;

/**
 * Cuts a TCP byte stream into ZooKeeper packets (4-byte big-endian length, then that many bytes).
 * TCP chunk boundaries are unrelated to packets, so `push` returns the packets a chunk completes:
 * none, one or many, in order. A negative or oversized length throws ZkError `PROTOCOL`.
 */
export class PacketSplitter {
  private pending: Buffer = Buffer.alloc(0);

  constructor(private readonly maxPacketBytes: number = DEFAULT_MAX_PACKET_BYTES) {}

  /** Feeds a chunk; returns the complete packets' payloads (without their length prefix). */
  push(chunk: Buffer): Buffer[] {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const packets: Buffer[] = [];
    while (this.pending.length >= 4) {
      const length = this.pending.readInt32BE(0);
      if (length < 0 || length > this.maxPacketBytes) {
        throw new ZkError('PROTOCOL', `bad ZooKeeper packet length ${length}`);
      }
      if (this.pending.length < 4 + length) break;
      packets.push(Buffer.from(this.pending.subarray(4, 4 + length)));
      this.pending = this.pending.subarray(4 + length);
    }
    return packets;
  }
}
