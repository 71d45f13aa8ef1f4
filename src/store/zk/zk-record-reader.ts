import { ZkError } from '../../cluster/mesos/zk/zk-error';
import { ZK_CODES, type ZkSession } from '../../cluster/mesos/zk/zk-session';
import type { StoredRecordKind } from '../../scheduler/ports/store';
import type { RecordKey } from '../records/record-codec';
import { RECORD_LOAD_ORDER } from '../records/record-load-order';
import { chunksOf, decodePayload, keyOfNodeName, type ZkLayout } from './zk-layout';

/** One record as read from ZooKeeper: its text, or why it could not be read. */
export interface ReadRecord {
  readonly kind: StoredRecordKind;
  readonly at: RecordKey;
  readonly path: string;
  readonly chunks: readonly string[];
  readonly text?: string;
  readonly problem?: string;
}

/** How many reads are in flight at once while loading (the client pipelines them on one connection). */
const READ_CONCURRENCY = 256;

/**
 * Reads every record znode under `layout` (each kind's children, their data, the chunks of
 * chunked ones). A znode whose data this store never writes, or whose chunks are missing, is
 * returned with a `problem` (to be set aside), never thrown; a znode name the store never writes
 * is skipped. Kind by kind in the one load order (records/record-load-order.ts), each kind's sorted
 * by key, then version (the Store port's order).
 */
export async function readRecords(session: ZkSession, layout: ZkLayout): Promise<ReadRecord[]> {
  const out: ReadRecord[] = [];
  for (const kind of RECORD_LOAD_ORDER) {
    const names = (await session.getChildren(layout.kind(kind))).sort();
    const records = await mapLimit(names, READ_CONCURRENCY, (name) => readOne(session, layout, kind, name));
    out.push(...records.filter((r): r is ReadRecord => r !== undefined).sort(byKey));
  }
  return out;
}

async function readOne(session: ZkSession, layout: ZkLayout, kind: StoredRecordKind, name: string): Promise<ReadRecord | undefined> {
  const at = keyOfNodeName(name);
  if (at === undefined) return undefined;
  const path = `${layout.kind(kind)}/${name}`;
  const data = await session.getData(path);
  const chunks = chunksOf(data);
  try {
    return { kind, at, path, chunks, text: await decodePayload(data, (c) => session.getData(layout.chunk(c))) };
  } catch (err) {
    const missing = err instanceof ZkError && err.serverCode === ZK_CODES.NONODE;
    if (err instanceof ZkError && !missing) throw err;
    return { kind, at, path, chunks, problem: `does not decode (${missing ? 'a chunk of it is missing' : (err as Error).message})` };
  }
}

function byKey(a: ReadRecord, b: ReadRecord): number {
  if (a.at.key !== b.at.key) return a.at.key < b.at.key ? -1 : 1;
  const va = a.at.version ?? '';
  const vb = b.at.version ?? '';
  return va === vb ? 0 : va < vb ? -1 : 1;
}

/** `fn` over `items` with at most `limit` in flight; results in the order of `items`. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
