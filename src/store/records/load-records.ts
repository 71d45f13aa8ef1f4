import type { SetAsideRecord, StoredRecordKind, StoredState } from '../../scheduler/ports/store';
import { RunSpecRecordReader } from '../run-spec-record';
import { decodeRecord, type RecordKey, type RecordValues } from './record-codec';
import { RECORD_LOAD_ORDER } from './record-load-order';

/** One stored record as a backend read it: its key and text, or why its text could not be read. */
export interface StoredText {
  readonly at: RecordKey;
  /** The record's text (SQLite's column, a znode's decoded data); absent when `problem` says why not. */
  readonly text?: unknown;
  /** Why the text could not be read (a ZooKeeper chunk missing, …): the record is set aside with it. */
  readonly problem?: string;
}

/** What {@link loadRecords} reads from: one backend's stored records, kind by kind. */
export interface RecordSource {
  /**
   * The records of `kind`, in key order (ids ascending; versions by run spec id, then version).
   * Asked once per kind, in {@link RECORD_LOAD_ORDER}, and iterated only after every kind before
   * it is decoded (a lazy iterable may migrate a record with `reader` as it yields it).
   */
  records(kind: StoredRecordKind, reader: RunSpecRecordReader): Iterable<StoredText>;
  /** A record that does not load: the backend moves it out of the way (or queues the move). */
  setAside(record: SetAsideRecord): void;
}

/**
 * Everything a backend holds, decoded into the core's values in {@link RECORD_LOAD_ORDER} with one
 * reader (equal apps converted once; the references of roots and deployments resolved against the
 * run spec versions decoded before them), every record that fails set aside through the source
 * and reported in `setAside`, in the order it was met. Never throws for a record.
 */
export function loadRecords(source: RecordSource, reader: RunSpecRecordReader = new RunSpecRecordReader()): StoredState {
  const setAside: SetAsideRecord[] = [];
  const values: { [K in StoredRecordKind]: RecordValues[K][] } = {
    root: [], rootVersion: [], runSpec: [], runSpecVersion: [], deployment: [], instance: [], frameworkId: [], taskFailure: [],
  };
  const fail = (kind: StoredRecordKind, at: RecordKey, reason: string): void => {
    const record: SetAsideRecord = { kind, ...at, reason };
    source.setAside(record);
    setAside.push(record);
  };
  for (const kind of RECORD_LOAD_ORDER) {
    for (const row of source.records(kind, reader)) {
      if (row.problem !== undefined) {
        fail(kind, row.at, row.problem);
        continue;
      }
      const decoded = decodeRecord(kind, row.text, row.at, reader);
      if (decoded.ok) (values[kind] as unknown[]).push(decoded.value);
      else fail(kind, row.at, decoded.reason);
    }
  }
  return {
    ...(values.root.length === 0 ? {} : { root: values.root[0] }),
    runSpecs: values.runSpec,
    versions: values.runSpecVersion,
    rootVersions: values.rootVersion,
    deployments: values.deployment,
    instances: values.instance,
    ...(values.frameworkId.length === 0 ? {} : { frameworkId: values.frameworkId[0] }),
    ...(values.taskFailure.length === 0 ? {} : { taskFailures: values.taskFailure }),
    ...(setAside.length === 0 ? {} : { setAside }),
  };
}
