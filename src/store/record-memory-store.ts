import type { Group } from '../scheduler/index';
import type { Deployment } from '../scheduler/model/deployment';
import type { Instance } from '../scheduler/model/instance';
import type { RunSpec } from '../scheduler/model/run-spec';
import type { TaskFailure } from '../scheduler/model/task-failure';
import type { SetAsideRecord, Store, StoredRecordKind, StoredState } from '../scheduler/ports/store';
import { encodeRecord, type RecordKey, type RecordValues } from './records/record-codec';
import { loadRecords } from './records/load-records';
import { StoredRootVersions } from './records/stored-root-versions';

type Kind = StoredRecordKind;

/**
 * A Store that keeps, in memory, exactly the text the durable stores write for each record
 * (records/record-codec.ts, the codec the SQLite and ZooKeeper stores share) and reads it back
 * the way they do: every record decoded into fresh objects, a record that does not decode set
 * aside, never thrown. So a core built on it after another core died (the simulator's
 * `schedulerFailover` fault) recovers from what a production restart would read — nothing the
 * dead core only held in memory, no object it may still have mutated. Writes are synchronous.
 *
 * Costs one encoding per write, which is why the simulator uses it only in runs that restart
 * their core and keeps {@link MemoryStore} (live objects) for the others.
 */
export class RecordMemoryStore implements Store {
  /** Record texts by kind, then by key (`key` or `key\u0000version`). */
  private readonly texts = new Map<Kind, Map<string, { readonly key: string; readonly version?: string; readonly text: string }>>();
  /** Records set aside, with the text they held, in the order they were set aside. */
  readonly setAsideRecords: { readonly record: SetAsideRecord; readonly text: string | undefined }[] = [];
  writes = 0;
  /** The root versions stored, by object: what a deployment's record may refer to (store format 8). */
  private readonly rootVersions = new StoredRootVersions();

  saveRoot(root: Group): void {
    this.put('root', root, '/');
  }

  saveRunSpec(spec: RunSpec): void {
    this.put('runSpec', spec, spec.id);
  }

  deleteRunSpec(runSpecId: string): void {
    this.drop('runSpec', runSpecId);
  }

  saveRunSpecVersion(spec: RunSpec): void {
    this.put('runSpecVersion', spec, spec.id, spec.version);
  }

  deleteRunSpecVersion(runSpecId: string, version: string): void {
    this.drop('runSpecVersion', runSpecId, version);
  }

  saveRootVersion(root: Group): void {
    this.put('rootVersion', root, root.version);
    this.rootVersions.saved(root);
  }

  deleteRootVersion(version: string): void {
    this.rootVersions.deleted(version);
    this.drop('rootVersion', version);
  }

  saveDeployment(deployment: Deployment): void {
    this.put('deployment', deployment, deployment.plan.id);
  }

  deleteDeployment(deploymentId: string): void {
    this.drop('deployment', deploymentId);
  }

  saveInstances(instances: readonly Instance[]): void {
    for (const inst of instances) this.put('instance', inst, inst.instanceId);
  }

  deleteInstance(instanceId: string): void {
    this.drop('instance', instanceId);
  }

  saveFrameworkId(frameworkId: string): void {
    this.put('frameworkId', frameworkId, '/');
  }

  saveTaskFailure(failure: TaskFailure): void {
    this.put('taskFailure', failure, failure.appId);
  }

  deleteTaskFailure(runSpecId: string): void {
    this.drop('taskFailure', runSpecId);
  }

  setAside(record: SetAsideRecord): void {
    if (record.kind === 'rootVersion') this.rootVersions.deleted(record.key);
    this.writes++;
    const slot = slotOf(record.key, record.version);
    const text = this.texts.get(record.kind)?.get(slot)?.text;
    this.texts.get(record.kind)?.delete(slot);
    this.setAsideRecords.push({ record, text });
  }

  /**
   * Everything stored, decoded into fresh objects as SqliteStore.load decodes its rows
   * (records/load-records.ts: kind by kind in the one load order of every backend, one reader for
   * the whole load, a record that does not decode or is not the one its key names set aside and
   * reported in `setAside`), each kind's records in key order (versions by run spec id, then version).
   */
  load(): StoredState {
    const state = loadRecords({
      records: (kind) => [...(this.texts.get(kind)?.values() ?? [])]
        .sort((a, b) => compare(a.key, b.key) || compare(a.version ?? '', b.version ?? ''))
        .map((row) => ({ at: { key: row.key, ...(row.version === undefined ? {} : { version: row.version }) }, text: row.text })),
      setAside: (record) => this.setAside(record),
    });
    this.rootVersions.loaded(state.rootVersions);
    return state;
  }

  /**
   * Keeps `text` as the stored text of a record as it is, unchecked (tests that write a fixture or
   * a damaged record exactly as stored, as `ZkStore.putRecordText` does).
   */
  putRecordText(kind: Kind, at: RecordKey, text: string): void {
    this.writes++;
    this.slots(kind).set(slotOf(at.key, at.version), { key: at.key, ...(at.version === undefined ? {} : { version: at.version }), text });
  }

  /** The stored text of one record (tests: what a restart would read), or undefined. */
  text(kind: Kind, key: string, version?: string): string | undefined {
    return this.texts.get(kind)?.get(slotOf(key, version))?.text;
  }

  private put<K extends Kind>(kind: K, value: RecordValues[K], key: string, version?: string): void {
    this.putRecordText(kind, { key, ...(version === undefined ? {} : { version }) }, encodeRecord(kind, value, this.rootVersions));
  }

  private slots(kind: Kind): Map<string, { readonly key: string; readonly version?: string; readonly text: string }> {
    let byKey = this.texts.get(kind);
    if (byKey === undefined) {
      byKey = new Map();
      this.texts.set(kind, byKey);
    }
    return byKey;
  }

  private drop(kind: Kind, key: string, version?: string): void {
    this.writes++;
    this.texts.get(kind)?.delete(slotOf(key, version));
  }
}

function slotOf(key: string, version: string | undefined): string {
  return version === undefined ? key : `${key}\u0000${version}`;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
