import type { StoredRecordKind } from '../../src/scheduler/ports/store';
import { encodeRecord, type RecordValues } from '../../src/store/records/record-codec';
import { encodePayload } from '../../src/store/zk/zk-layout';
import { makeApp } from '../builders/run-spec-builders';
import { Harness } from '../harness/core-harness';
import type { StoreWrite } from '../harness/memory-store';

/**
 * What one API change writes into the store with `apps` apps present, each with `labelBytes` of
 * labels that do not compress (seeded pseudo-random text, as in the trial that ran ZooKeeper out of
 * heap): the core (test harness) creates `apps` apps, then one more; the writes of that last change
 * are encoded as every backend encodes them (records/record-codec.ts) and summed per kind of
 * record, as record text (what the SQLite file and the record memory store keep) and as the
 * ZooKeeper store's znode data (zk-layout.ts: gzip above 64 KiB, chunks above 512 KiB).
 * Deletes and instances are not counted (none comes with creating an app at 0 instances).
 *
 *   npx tsx test/store/store-bytes.ts 1000 4096     # apps, label bytes per app
 */
export interface ChangeBytes {
  readonly apps: number;
  readonly labelBytes: number;
  /** Record text bytes per kind of record written by the change. */
  readonly textBytes: Partial<Record<StoredRecordKind, number>>;
  /** ZooKeeper znode bytes (record and chunks) per kind. */
  readonly zkBytes: Partial<Record<StoredRecordKind, number>>;
  readonly totalTextBytes: number;
  readonly totalZkBytes: number;
}

export function bytesPerChange(apps: number, labelBytes: number): ChangeBytes {
  const h = new Harness();
  let seed = 12345;
  const text = (n: number): string => {
    let s = '';
    while (s.length < n) {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      s += seed.toString(36);
    }
    return s.slice(0, n);
  };
  const app = (i: number) => makeApp({ id: `/load/app-${i}`, instances: 0, labels: { a: text(labelBytes / 2), b: text(labelBytes / 2) } });
  for (let i = 0; i < apps; i++) h.put(app(i));
  h.effects.length = 0;
  h.put(app(apps));
  const textBytes: Partial<Record<StoredRecordKind, number>> = {};
  const zkBytes: Partial<Record<StoredRecordKind, number>> = {};
  for (const e of h.effects) {
    if (e.kind !== 'store') continue;
    const record = recordOf(e.write);
    if (record === undefined) continue;
    const t = encodeRecord(record.kind, record.value as never);
    const payload = encodePayload(t, 'bench');
    textBytes[record.kind] = (textBytes[record.kind] ?? 0) + Buffer.byteLength(t);
    zkBytes[record.kind] = (zkBytes[record.kind] ?? 0) + payload.data.length + payload.chunks.reduce((n, c) => n + c.data.length, 0);
  }
  const sum = (m: Partial<Record<StoredRecordKind, number>>): number => Object.values(m).reduce((a, b) => a + b, 0);
  return { apps, labelBytes, textBytes, zkBytes, totalTextBytes: sum(textBytes), totalZkBytes: sum(zkBytes) };
}

function recordOf(w: StoreWrite): { kind: StoredRecordKind; value: RecordValues[StoredRecordKind] } | undefined {
  switch (w.type) {
    case 'saveRoot': return { kind: 'root', value: w.root };
    case 'saveRootVersion': return { kind: 'rootVersion', value: w.root };
    case 'saveRunSpec': return { kind: 'runSpec', value: w.spec };
    case 'saveRunSpecVersion': return { kind: 'runSpecVersion', value: w.spec };
    case 'saveDeployment': return { kind: 'deployment', value: w.deployment };
    default: return undefined;
  }
}

if (process.argv[1]?.endsWith('store-bytes.ts') === true) {
  const [apps, labels] = process.argv.slice(2).map(Number);
  console.log(JSON.stringify(bytesPerChange(apps ?? 1000, labels ?? 4096), null, 1));
}
