import t from 'tap';
import { MemoryStore } from '../../../src/store/memory-store';
import type { Instance } from '../../../src/scheduler/model/instance';
import { makeApp } from '../../builders/run-spec-builders';

t.test('the memory store keeps what was saved and forgets what was deleted', async (t) => {
  const s = new MemoryStore();
  const app = makeApp({ id: '/a' });
  s.saveRunSpec(app);
  s.saveRunSpec(makeApp({ id: '/b' }));
  s.deleteRunSpec('/b');
  const inst = { instanceId: 'a.instance-1', runSpecId: '/a' } as Instance;
  s.saveInstances([inst, { instanceId: 'a.instance-2', runSpecId: '/a' } as Instance]);
  s.deleteInstance('a.instance-2');
  s.saveFrameworkId('fw-1');
  const loaded = s.load();
  t.same(loaded.runSpecs.map((r) => r.id), ['/a']);
  t.same(loaded.instances.map((i) => i.instanceId), ['a.instance-1']);
  t.equal(loaded.frameworkId, 'fw-1');
  t.equal(s.writes, 6, 'one write per call: two specs, one delete, one batch of instances, one delete, the framework id');
});

t.test('setAside takes a record out of what load() returns and keeps it with its reason', async (t) => {
  const s = new MemoryStore();
  const a = makeApp({ id: '/a' });
  const v = makeApp({ id: '/a', version: '2026-01-02T00:00:00.000Z' });
  s.saveRunSpec(a);
  s.saveRunSpecVersion(v);
  s.saveInstances([{ instanceId: 'a.instance-1', runSpecId: '/a' } as Instance]);
  s.saveFrameworkId('fw-1');
  s.setAside({ kind: 'runSpec', key: '/a', reason: 'bad' });
  s.setAside({ kind: 'runSpecVersion', key: '/a', version: v.version, reason: 'bad version' });
  s.setAside({ kind: 'instance', key: 'a.instance-1', reason: 'bad instance' });
  s.setAside({ kind: 'frameworkId', key: '/', reason: 'bad id' });
  s.setAside({ kind: 'deployment', key: 'none', reason: 'not there' });
  const loaded = s.load();
  t.same([loaded.runSpecs, loaded.versions, loaded.instances, loaded.frameworkId], [[], [], [], undefined]);
  t.same(s.setAsideRecords.map((r) => [r.record.kind, r.record.reason, r.value === undefined ? 'none' : 'kept']), [
    ['runSpec', 'bad', 'kept'], ['runSpecVersion', 'bad version', 'kept'], ['instance', 'bad instance', 'kept'],
    ['frameworkId', 'bad id', 'kept'], ['deployment', 'not there', 'none'],
  ]);
});
