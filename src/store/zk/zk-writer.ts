import type { SetAsideRecord, StoredRecordKind } from '../../scheduler/ports/store';
import { ZK_CODES, type ZkOp, type ZkSession } from '../../cluster/mesos/zk/zk-session';
import { ZkError } from '../../cluster/mesos/zk/zk-error';
import type { RecordKey } from '../records/record-codec';
import { chunksOf, encodePayload, type ZkLayout } from './zk-layout';
import type { ACL } from 'node-zookeeper-client';

/** One write the store was asked for, in the order it was asked. */
export type PendingWrite =
  | { readonly type: 'put'; readonly kind: StoredRecordKind; readonly at: RecordKey; readonly text: string }
  | { readonly type: 'delete'; readonly kind: StoredRecordKind; readonly at: RecordKey }
  | { readonly type: 'setAside'; readonly record: SetAsideRecord; readonly atIso: string };

/**
 * Most bytes of znode data in one `multi` (ZooKeeper's default `jute.maxbuffer` is 1 MiB per
 * request); a chunk (zk-layout.ts NODE_MAX_BYTES, 512 KiB) always fits one of its own.
 */
const MULTI_MAX_BYTES = 768 * 1024;
/** Most operations in one `multi`. */
const MULTI_MAX_OPS = 1_000;

/**
 * Writes batches of {@link PendingWrite}s to ZooKeeper, knowing which record znodes exist and
 * which chunks each holds (`known`: loaded at open, kept up to date here; pacer is the only
 * writer of its path). A batch becomes: the chunks of large records (new names, so nothing live is
 * overwritten), then every record znode change in as few `multi`s as the size limit allows (one
 * for any ordinary change: all or nothing), then the removal of chunks no record uses any more.
 */
export class ZkWriter {
  private chunkCounter = 0;
  private readonly chunkBase: string;

  constructor(
    private readonly session: ZkSession,
    private readonly layout: ZkLayout,
    private readonly acl: readonly ACL[],
    /** Record znode path → the chunks it holds; absent: no znode. */
    readonly known: Map<string, readonly string[]>,
    nowMs: number,
    /** A znode each `multi` checks first (the leader's election znode): gone, the write fails whole. */
    private readonly fence?: string,
  ) {
    this.chunkBase = nowMs.toString(36);
  }

  /** Writes `batch`; throws a ZkError when ZooKeeper refuses or cannot be reached (then {@link resync} and retry). */
  async write(batch: readonly PendingWrite[]): Promise<void> {
    const exists = new Map<string, readonly string[] | undefined>();
    const written = new Map<string, Buffer>();
    const state = (path: string): readonly string[] | undefined => (exists.has(path) ? exists.get(path) : this.known.get(path));
    const pre: ZkOp[] = [];
    const main: ZkOp[] = [];
    const unused: string[] = [];
    for (const w of batch) {
      if (w.type === 'setAside') {
        await this.setAsideOps(w, state, exists, written, main);
        continue;
      }
      const path = this.layout.record(w.kind, w.at);
      const before = state(path);
      if (before !== undefined) unused.push(...before);
      if (w.type === 'delete') {
        if (before !== undefined) main.push({ op: 'delete', path });
        exists.set(path, undefined);
        continue;
      }
      const payload = encodePayload(w.text, `${this.chunkBase}-${++this.chunkCounter}`);
      for (const c of payload.chunks) pre.push({ op: 'create', path: this.layout.chunk(c.name), data: c.data, acl: this.acl });
      main.push(before === undefined ? { op: 'create', path, data: payload.data, acl: this.acl } : { op: 'setData', path, data: payload.data });
      exists.set(path, payload.chunks.map((c) => c.name));
      written.set(path, payload.data);
    }
    await this.commit(pre);
    await this.commit(main);
    for (const [path, chunks] of exists) {
      if (chunks === undefined) this.known.delete(path);
      else this.known.set(path, chunks);
    }
    const live = new Set([...exists.values()].flatMap((c) => c ?? []));
    await this.removeChunks(unused.filter((c) => !live.has(c)));
  }

  /** Re-reads what ZooKeeper holds for the records of `batch` (after a failed or ambiguous write). */
  async resync(batch: readonly PendingWrite[]): Promise<void> {
    const paths = new Set(batch.map((w) => (w.type === 'setAside' ? this.layout.record(w.record.kind, w.record) : this.layout.record(w.kind, w.at))));
    for (const path of paths) {
      const data = await this.session.getData(path).catch((e: unknown) => {
        if (e instanceof ZkError && e.serverCode === ZK_CODES.NONODE) return undefined;
        throw e;
      });
      if (data === undefined) this.known.delete(path);
      else this.known.set(path, chunksOf(data));
    }
  }

  /**
   * A record set aside moves to `set-aside/entry-<seq>`: its kind, key, reason, time and its
   * znode data as it was (base64; the chunks of a chunked record stay, referenced from there).
   */
  private async setAsideOps(
    w: Extract<PendingWrite, { type: 'setAside' }>, state: (path: string) => readonly string[] | undefined,
    exists: Map<string, readonly string[] | undefined>, written: ReadonlyMap<string, Buffer>, main: ZkOp[],
  ): Promise<void> {
    const path = this.layout.record(w.record.kind, w.record);
    if (state(path) === undefined) return;
    // Written earlier in this batch: what is set aside is that write; else what ZooKeeper holds.
    const data = written.get(path) ?? await this.session.getData(path).catch(() => undefined);
    if (data === undefined) return;
    const entry = { ...w.record, setAsideAt: w.atIso, data: data.toString('base64') };
    main.push({ op: 'create', path: `${this.layout.setAside}/entry-`, data: Buffer.from(JSON.stringify(entry)), mode: 'persistentSequential', acl: this.acl });
    main.push({ op: 'delete', path });
    exists.set(path, undefined);
  }

  private async commit(ops: readonly ZkOp[]): Promise<void> {
    const fence = this.fence;
    for (const group of bySize(ops)) await this.session.transaction(fence === undefined ? group : [{ op: 'check', path: fence, version: -1 }, ...group]);
  }

  /** Removes chunks no record uses (best effort: a chunk left behind is removed at the next open). */
  private async removeChunks(names: readonly string[]): Promise<void> {
    for (const name of names) await this.session.delete(this.layout.chunk(name)).catch(() => undefined);
  }
}

/** `ops` in consecutive groups within {@link MULTI_MAX_BYTES} and {@link MULTI_MAX_OPS} (an op larger than the bound goes alone). */
export function bySize(ops: readonly ZkOp[]): ZkOp[][] {
  const groups: ZkOp[][] = [];
  let current: ZkOp[] = [];
  let bytes = 0;
  for (const op of ops) {
    const size = ('data' in op && op.data !== undefined ? op.data.length : 0) + op.path.length + 64;
    if (current.length > 0 && (bytes + size > MULTI_MAX_BYTES || current.length >= MULTI_MAX_OPS)) {
      groups.push(current);
      current = [];
      bytes = 0;
    }
    current.push(op);
    bytes += size;
  }
  if (current.length > 0) groups.push(current);
  return groups;
}
