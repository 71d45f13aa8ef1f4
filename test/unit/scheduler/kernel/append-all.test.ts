import t from 'tap';
import { APPEND_CHUNK, appendAll } from '../../../../src/scheduler/kernel/append-all';

t.test('appendAll appends every item in order, as single pushes would, at and across the chunk size', async (t) => {
  const sizes = [0, 1, 2, APPEND_CHUNK - 1, APPEND_CHUNK, APPEND_CHUNK + 1, 3 * APPEND_CHUNK + 5];
  const before = [[], [-1], [-3, -2, -1]];
  for (const n of sizes) {
    for (const start of before) {
      const items = Array.from({ length: n }, (_, i) => i);
      const list = [...start];
      const model = [...start];
      appendAll(list, items);
      for (const x of items) model.push(x);
      t.strictSame(list, model, `${n} items after ${start.length}`);
      t.equal(items.length, n, `${n} items after ${start.length}: the items are left as they were`);
    }
  }
});

t.test('a list may be appended to itself (what it held before the call, once)', async (t) => {
  const list = [1, 2, 3];
  appendAll(list, list);
  t.strictSame(list, [1, 2, 3, 1, 2, 3]);
});
