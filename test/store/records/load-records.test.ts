import t from 'tap';
import type { SetAsideRecord, StoredRecordKind } from '../../../src/scheduler/ports/store';
import { loadRecords, type StoredText } from '../../../src/store/records/load-records';
import { encodeRecord } from '../../../src/store/records/record-codec';
import { RECORD_LOAD_ORDER } from '../../../src/store/records/record-load-order';
import { makeApp, versionAt } from '../../builders/run-spec-builders';
import { rootAt } from '../store-conformance';

/**
 * The one owner of the order in which every backend loads its kinds of records
 * (record-load-order.ts), and the one load that follows it (load-records.ts): every backend's
 * `load` goes through `loadRecords` (the conformance table checks each backend's order of
 * set-aside records against RECORD_LOAD_ORDER: test/store/store-conformance.ts).
 */

t.test('RECORD_LOAD_ORDER names every kind once, and a record that refers to others comes after them', async (t) => {
  t.equal(new Set(RECORD_LOAD_ORDER).size, RECORD_LOAD_ORDER.length, 'no kind twice');
  const at = (kind: StoredRecordKind): number => RECORD_LOAD_ORDER.indexOf(kind as never);
  // Roots and root versions (store format 4) and deployments (format 6) hold their apps and pods
  // as {id, version} references to run spec version records.
  for (const referring of ['root', 'rootVersion', 'deployment'] as const) {
    t.ok(at('runSpecVersion') < at(referring), `runSpecVersion before ${referring}`);
  }
});

t.test('loadRecords asks for each kind in RECORD_LOAD_ORDER, each only once the kinds before it are decoded', async (t) => {
  const asked: StoredRecordKind[] = [];
  const decodedBefore: number[] = [];
  const app = makeApp({ id: '/a', version: versionAt(1) });
  const texts: { readonly [K in StoredRecordKind]?: StoredText[] } = {
    runSpecVersion: [{ at: { key: '/a', version: versionAt(1) }, text: encodeRecord('runSpecVersion', app) }],
    root: [{ at: { key: '/' }, text: encodeRecord('root', rootAt(versionAt(1), app)) }],
  };
  const setAside: SetAsideRecord[] = [];
  const state = loadRecords({
    records: function* (kind, reader) {
      asked.push(kind);
      // A kind's records are iterated only after every kind before it went through the reader.
      decodedBefore.push(reader.keptVersionText('app', '/a', versionAt(1)) === undefined ? 0 : 1);
      yield* texts[kind] ?? [];
    },
    setAside: (record) => setAside.push(record),
  });
  t.same(asked, RECORD_LOAD_ORDER);
  t.same(decodedBefore, RECORD_LOAD_ORDER.map((k) => (RECORD_LOAD_ORDER.indexOf(k) > RECORD_LOAD_ORDER.indexOf('runSpecVersion') ? 1 : 0)),
    'the run spec version is in the reader for every kind after it');
  t.equal(state.root?.version, versionAt(1), 'the root that refers to it loads');
  t.same(setAside, []);
});

t.test('loadRecords sets aside, through the source and in its answer, a record that does not decode or could not be read', async (t) => {
  const setAside: SetAsideRecord[] = [];
  const state = loadRecords({
    records: (kind) => (kind === 'instance' ? [{ at: { key: 'i1' }, text: '{}' }, { at: { key: 'i2' }, problem: 'a chunk of it is missing' }] : []),
    setAside: (record) => setAside.push(record),
  });
  t.match(state.setAside, [{ kind: 'instance', key: 'i1', reason: /does not match StoredInstanceV1/ }, { kind: 'instance', key: 'i2', reason: 'a chunk of it is missing' }]);
  t.same(setAside, state.setAside);
  t.same(state.instances, []);
});
