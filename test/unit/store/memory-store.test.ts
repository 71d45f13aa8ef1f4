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
