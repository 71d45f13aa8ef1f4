import t from 'tap';
import type { Instance } from '../../../../src/scheduler/model/instance';
import { InstanceQueue } from '../../../../src/scheduler/state/instance-queue';

const inst = (n: number) => ({ instanceId: `i${n}` }) as Instance;

t.test('FIFO through compaction; remove anywhere', async (t) => {
  const q = new InstanceQueue();
  const all = Array.from({ length: 3000 }, (_, i) => inst(i));
  for (const i of all) q.push(i);
  const shifted: Instance[] = [];
  for (let n = 0; n < 2000; n++) shifted.push(q.shift() as Instance);
  t.ok(shifted.every((x, n) => x === all[n]), 'first in, first out');
  t.equal(q.length, 1000, 'compacted without losing entries');
  t.ok(q.remove(all[2500]));
  t.notOk(q.remove(all[10]), 'already shifted');
  t.notOk(q.remove(inst(9999)));
  t.equal(q.length, 999);
  const rest = q.toArray().map((i) => i.instanceId);
  t.equal(rest[0], 'i2000');
  t.notOk(rest.includes('i2500'));
  while (q.shift() !== undefined);
  t.equal(q.length, 0);
  t.equal(q.shift(), undefined);
});
