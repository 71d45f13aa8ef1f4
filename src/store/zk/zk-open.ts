import type { ACL } from 'node-zookeeper-client';
import { ZkError } from '../../cluster/mesos/zk/zk-error';
import { ZK_CODES, type ZkSession } from '../../cluster/mesos/zk/zk-session';
import type { StoredRecordKind, StoredState } from '../../scheduler/ports/store';
import type { RecordKey } from '../records/record-codec';
import { loadRecords } from '../records/load-records';
import { migrateRecordText } from '../records/record-migrations';
import { OLDEST_MIGRATABLE_VERSION, STORE_FORMAT_VERSION } from '../records/store-format-version';
import { formatMarker, formatOfMarker, type ZkLayout } from './zk-layout';
import type { ReadRecord } from './zk-record-reader';

/*
 * Opening a ZooKeeper store (zk-store.ts): making sure its path is a pacer store of a format this
 * build reads, and turning the records read into the core's values.
 */

/** Decoded records, and the records an older format's migration changed (to be written back). */
export interface Decoded {
  readonly state: StoredState;
  readonly migrated: readonly { kind: StoredRecordKind; at: RecordKey; text: string }[];
}

/**
 * The records read, each migrated from `format` as it is decoded, through the load of every
 * backend (records/load-records.ts: kind by kind in the one load order, so a root's or a
 * deployment's migration and decoding find the run spec versions decoded before it). The records
 * that fail are only reported (`state.setAside`): the store sets them aside once open.
 */
export function decodeAll(records: readonly ReadRecord[], format: number): Decoded {
  const migrated: { kind: StoredRecordKind; at: RecordKey; text: string }[] = [];
  const byKind = new Map<StoredRecordKind, ReadRecord[]>();
  for (const r of records) {
    const same = byKind.get(r.kind);
    if (same === undefined) byKind.set(r.kind, [r]);
    else same.push(r);
  }
  const state = loadRecords({
    records: function* (kind, reader) {
      for (const r of byKind.get(kind) ?? []) {
        if (r.text === undefined) {
          yield { at: r.at, problem: r.problem ?? 'does not decode' };
          continue;
        }
        const text = migrateRecordText(kind, r.text, format, reader);
        if (text !== r.text) migrated.push({ kind, at: r.at, text });
        yield { at: r.at, text };
      }
    },
    setAside: () => undefined,
  });
  return { migrated, state };
}

/**
 * The format of the store at `layout` after making sure it is one: a missing or empty path is
 * initialised (its znodes and the marker, in one `multi`); a path holding other znodes, another
 * program's data, a newer or an unknown format is refused, with nothing written; an older format
 * gets the znodes of the kinds added since.
 */
export async function prepare(session: ZkSession, layout: ZkLayout, acl: readonly ACL[], where: string): Promise<number> {
  await ensurePath(session, layout.base, acl);
  const marker = await session.getData(layout.format).catch((e: unknown) => {
    if (e instanceof ZkError && e.serverCode === ZK_CODES.NONODE) return undefined;
    throw e;
  });
  if (marker === undefined) {
    const children = await session.getChildren(layout.base === '' ? '/' : layout.base);
    const foreign = children.filter((c) => layout.base !== '' || c !== 'zookeeper');
    if (foreign.length > 0) throw new Error(`${where} holds znodes that are not a pacer store (${foreign.slice(0, 5).join(', ')}); refusing to use it (nothing was written). Point --zk at another path.`);
    await session.transaction([
      ...layout.containers().map((path) => ({ op: 'create' as const, path, acl })),
      { op: 'create', path: layout.format, data: formatMarker(STORE_FORMAT_VERSION), acl },
    ]);
    return STORE_FORMAT_VERSION;
  }
  const format = formatOfMarker(marker);
  if (format === undefined) throw new Error(`${where}: ${layout.format} is not a pacer store marker; refusing to use it (nothing was written)`);
  if (format > STORE_FORMAT_VERSION) throw new Error(`${where} has store format version ${format}, this pacer understands up to ${STORE_FORMAT_VERSION}; refusing to use it (nothing was written)`);
  if (format < OLDEST_MIGRATABLE_VERSION) throw new Error(`${where} has store format version ${format}, which no pacer wrote; refusing to use it (nothing was written)`);
  // An older format lacks the znodes of the kinds added since (format 7: `taskFailure`); made
  // before the records are read. Idempotent, as the rest of a migration.
  if (format < STORE_FORMAT_VERSION) {
    for (const path of layout.containers()) {
      await session.create(path, Buffer.alloc(0), 'persistent', acl).catch((e: unknown) => {
        if (!(e instanceof ZkError && e.serverCode === ZK_CODES.NODEEXISTS)) throw e;
      });
    }
  }
  return format;
}

/** Creates every missing znode of `path` (`/a/b/c`: `/a`, `/a/b`, `/a/b/c`). */
async function ensurePath(session: ZkSession, path: string, acl: readonly ACL[]): Promise<void> {
  let at = '';
  for (const segment of path.split('/').filter((s) => s !== '')) {
    at = `${at}/${segment}`;
    await session.create(at, Buffer.alloc(0), 'persistent', acl).catch((e: unknown) => {
      if (!(e instanceof ZkError && e.serverCode === ZK_CODES.NODEEXISTS)) throw e;
    });
  }
}

