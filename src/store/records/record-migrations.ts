import { AGENT_PROTOCOL_ALIASES } from '../../scheduler/model/health-check';
import type { StoredRecordKind } from '../../scheduler/ports/store';
import { RunSpecRecordReader } from '../run-spec-record';
import type { JsonValue } from '../sqlite/codec';
import { deploymentRootsByReference, rootsByReference } from './root-reference-migration';
import { runSpecsToMarathonJson } from './run-spec-migration';
import { STORE_FORMAT_VERSION } from './store-format-version';

/**
 * One step of the store's migration path: how a record of format `from` becomes a record of
 * format `from + 1`. Migrations work on the stored JSON of one record at a time, so every backend
 * (SQLite, ZooKeeper) runs the same ones; the backend applies them to every record and bumps its
 * format version in one transaction where it can. A migration must be idempotent: the ZooKeeper
 * store writes migrated records before it bumps its marker (a large store does not fit one
 * `multi`), so an interrupted migration runs again over records it already changed.
 */
export interface RecordMigration {
  readonly from: number;
  /** Why the format changed (docs/architecture.md lists these). */
  readonly why: string;
  /**
   * The record in the next format (may return `record` itself when this kind did not change).
   * `reader` is shared by every record of one migration run (equal apps are converted once); the
   * backend migrates and decodes the run spec versions into it before the roots and the
   * deployments (3 → 4 and 5 → 6 read them).
   */
  readonly migrate: (kind: StoredRecordKind, record: JsonValue, reader: RunSpecRecordReader) => JsonValue;
}

/** Every migration, oldest first; the last one's `from + 1` is {@link STORE_FORMAT_VERSION}. */
export const RECORD_MIGRATIONS: readonly RecordMigration[] = [
  {
    from: 1,
    why: "health check protocols get Marathon's names: AGENT_HTTP, AGENT_HTTPS, AGENT_TCP become MESOS_HTTP, MESOS_HTTPS, MESOS_TCP",
    migrate: (_kind, record) => renameAgentProtocols(record),
  },
  {
    from: 2,
    why: "run specs and groups are stored as Marathon's JSON rendered from the typed model (issue 12, R1), no longer as the codec's tree of the core's objects",
    migrate: (kind, record, reader) => runSpecsToMarathonJson(kind, record, reader),
  },
  {
    from: 3,
    why: 'roots and root versions hold each app and pod as a reference (id and version) to its run spec version record, no longer whole',
    migrate: (kind, record, reader) => rootsByReference(kind, record, reader),
  },
  {
    from: 4,
    why: "a task may hold its container's IP addresses (`ipAddresses`, from the status update that first reported it running); records of format 4 have none and stay as they are",
    migrate: (_kind, record) => record,
  },
  {
    from: 5,
    why: "a deployment's original and target roots hold each app and pod as a reference (id and version) to its run spec version record, as the root has since format 4, no longer whole",
    migrate: (kind, record, reader) => deploymentRootsByReference(kind, record, reader),
  },
  {
    from: 6,
    why: "a new kind of record, each run spec's last task failure (`taskFailure`, Marathon's TaskFailureRepository); records of format 6 stay as they are (the backend makes the new kind's table or znode)",
    migrate: (_kind, record) => record,
  },
  {
    from: 7,
    why: "a deployment may refer to its original and target roots by root version (`{\"rootVersion\": …}`), as Marathon's plan does; records of format 7 stay as they are (their roots held whole remain valid)",
    migrate: (_kind, record) => record,
  },
  {
    from: 8,
    why: "an instance says whether it was healthy at least once in its incarnation (`proven`), which the kill-storm floor counts; an older record running, or unreachable after it had started, gets `proven: true`, as pacer counted such instances after a restart before",
    migrate: (kind, record) => (kind === 'instance' ? provenIfStarted(record) : record),
  },
];

/**
 * The text of a record of format `fromVersion` in the current format, or `text` itself when no
 * migration changes it. Text that is not JSON is returned as it is (loading sets it aside with
 * its reason; a migration never loses a record). The framework id is not JSON and never migrates.
 * Pass one `reader` to every record of a store's migration (equal apps are then converted once).
 */
export function migrateRecordText(
  kind: StoredRecordKind, text: string, fromVersion: number, reader: RunSpecRecordReader = new RunSpecRecordReader(),
): string {
  if (kind === 'frameworkId' || fromVersion >= STORE_FORMAT_VERSION) return text;
  let record: JsonValue;
  try {
    record = JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
  for (const m of RECORD_MIGRATIONS) if (m.from >= fromVersion) record = m.migrate(kind, record, reader);
  const migrated = JSON.stringify(record);
  return migrated === text ? text : migrated;
}

/**
 * 1 → 2: every `protocol` member holding an `AGENT_*` name, wherever it is (a run spec's health
 * checks, its `wire` and `definition`, the groups that hold it), gets the `MESOS_*` name.
 */
function renameAgentProtocols(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(renameAgentProtocols);
  if (value === null || typeof value !== 'object') return value;
  const out: { [key: string]: JsonValue } = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = k === 'protocol' && typeof v === 'string' && Object.hasOwn(AGENT_PROTOCOL_ALIASES, v) ? AGENT_PROTOCOL_ALIASES[v] : renameAgentProtocols(v);
  }
  return out;
}

/**
 * 8 → 9: an instance record Running, or Unreachable/UnreachableInactive with a start time, gets
 * `proven: true` unless it has the field: a pacer of format 8 counted every such instance it
 * recovered for the kill-storm floor (it did not store whether it had been healthy), and a store
 * upgraded under a storm goes on counting them. Others are left as they are (not proven).
 */
function provenIfStarted(record: JsonValue): JsonValue {
  if (record === null || typeof record !== 'object' || Array.isArray(record) || 'proven' in record) return record;
  const condition = record.condition;
  const started = condition === 'Running' || ((condition === 'Unreachable' || condition === 'UnreachableInactive') && typeof record.startedAtMs === 'number');
  return started ? { ...record, proven: true } : record;
}
