import type { ACL } from 'node-zookeeper-client';
import { ZkError } from '../../cluster/mesos/zk/zk-error';
import { ZK_CODES, type ZkSession } from '../../cluster/mesos/zk/zk-session';
import type { SetAsideRecord, StoredRecordKind, StoredState } from '../../scheduler/ports/store';
import { decodeRecord, type RecordKey, type RecordValues } from '../records/record-codec';
import { migrateRecordText } from '../records/record-migrations';
import { RunSpecRecordReader } from '../run-spec-record';
import { OLDEST_MIGRATABLE_VERSION, STORE_FORMAT_VERSION } from '../records/store-format-version';
import { formatMarker, formatOfMarker, type ZkLayout } from './zk-layout';
import type { ReadRecord } from './zk-record-reader';

/*
 * Opening a ZooKeeper store (zk-store.ts): making sure its path is a pacer store of a format this
 * build reads, and turning the records read into the core's values.
 */

/** Decoded records, and the records an older format's migration changed (to be written back). */
export interface Decoded {
  readonly state: StoredState & { setAside?: SetAsideRecord[] };
  readonly migrated: readonly { kind: StoredRecordKind; at: RecordKey; text: string }[];
}

export function decodeAll(records: readonly ReadRecord[], format: number): Decoded {
  const setAside: SetAsideRecord[] = [];
  const migrated: { kind: StoredRecordKind; at: RecordKey; text: string }[] = [];
  const values: { [K in StoredRecordKind]: RecordValues[K][] } = {
    root: [], rootVersion: [], runSpec: [], runSpecVersion: [], deployment: [], instance: [], frameworkId: [],
  };
  const reader = new RunSpecRecordReader();
  for (const r of records) {
    if (r.text === undefined) {
      setAside.push({ kind: r.kind, ...r.at, reason: r.problem ?? 'does not decode' });
      continue;
    }
    const text = migrateRecordText(r.kind, r.text, format, reader);
    if (text !== r.text) migrated.push({ kind: r.kind, at: r.at, text });
    const decoded = decodeRecord(r.kind, text, r.at, reader);
    if (decoded.ok) (values[r.kind] as unknown[]).push(decoded.value);
    else setAside.push({ kind: r.kind, ...r.at, reason: decoded.reason });
  }
  return {
    migrated,
    state: {
      ...(values.root.length === 0 ? {} : { root: values.root[0] }),
      runSpecs: values.runSpec, versions: values.runSpecVersion, rootVersions: values.rootVersion,
      deployments: values.deployment, instances: values.instance,
      ...(values.frameworkId.length === 0 ? {} : { frameworkId: values.frameworkId[0] }),
      ...(setAside.length === 0 ? {} : { setAside }),
    },
  };
}

/**
 * The format of the store at `layout` after making sure it is one: a missing or empty path is
 * initialised (its znodes and the marker, in one `multi`); a path holding other znodes, another
 * program's data, a newer or an unknown format is refused, with nothing written.
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

