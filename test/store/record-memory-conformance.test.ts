import t from 'tap';
import { RecordMemoryStore } from '../../src/store/record-memory-store';
import { storeConformance } from './store-conformance';
import { recordText } from './store-dump';

// The simulator's store for runs that restart their core (schedulerFailover): each record kept as
// the text the durable stores write, read back as they read it — so it meets the contract of a
// durable store (copies, set-aside), without a file.
storeConformance(t, {
  name: 'record-memory', copies: true,
  persisted: (_t, write) => {
    const store = new RecordMemoryStore();
    write(store);
    return Promise.resolve(store.load());
  },
  storedDump: (_t, dump) => {
    const store = new RecordMemoryStore();
    for (const r of dump.records) store.putRecordText(r.kind, r, recordText(r));
    return Promise.resolve(store.load());
  },
});

t.test('a record that does not decode is set aside when loaded, the rest loads', async (t) => {
  const store = new RecordMemoryStore();
  store.saveFrameworkId('fw-1');
  (store as unknown as { texts: Map<string, Map<string, { key: string; text: string }>> }).texts.set('instance', new Map([['i1', { key: 'i1', text: '{"not":"an instance"}' }]]));
  const loaded = store.load();
  t.equal(loaded.frameworkId, 'fw-1');
  t.same(loaded.instances, []);
  t.match(loaded.setAside, [{ kind: 'instance', key: 'i1', reason: String }]);
  t.equal(store.setAsideRecords[0]?.text, '{"not":"an instance"}', 'kept with what it held');
  t.same(store.load().setAside, undefined, 'set aside once: the next load no longer sees it');
});
