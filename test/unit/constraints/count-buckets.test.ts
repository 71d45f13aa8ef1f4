import t from 'tap';
import { CountBuckets } from '../../../src/scheduler/constraints/count-buckets';

t.test('size and min follow groups growing and shrinking by one', async (t) => {
  const b = new CountBuckets();
  t.equal(b.size, 0);
  t.equal(b.min, 0, 'no groups → 0');
  // group A: 0→1→2→3, group B: 0→1
  b.moved(0, 1); b.moved(1, 2); b.moved(2, 3);
  t.same([b.size, b.min], [1, 3]);
  b.moved(0, 1);
  t.same([b.size, b.min], [2, 1], 'a new group is the smallest');
  b.moved(1, 2);
  t.same([b.size, b.min], [2, 2]);
  b.moved(2, 1); b.moved(1, 0); // B gone
  t.same([b.size, b.min], [1, 3], 'the smallest group leaving jumps to the next size in O(1)');
  b.moved(3, 2);
  t.same([b.size, b.min], [1, 2], 'a shrinking group lowers the min');
  b.moved(0, 1); b.moved(0, 1); b.moved(1, 2); // C:1 D:2 A:2
  t.same([b.size, b.min], [3, 1]);
  b.moved(1, 2); // C:2
  t.same([b.size, b.min], [3, 2]);
  b.moved(2, 3); b.moved(2, 3); b.moved(2, 3); // all 3
  t.same([b.size, b.min], [3, 3]);
  b.moved(3, 2); b.moved(2, 1); // one down to 1, others 3: a gap of sizes
  t.same([b.size, b.min], [3, 1]);
  b.moved(1, 2);
  t.same([b.size, b.min], [3, 2], 'moving up from the head into a gap');
  b.moved(3, 2); b.moved(3, 2);
  t.same([b.size, b.min], [3, 2]);
  b.moved(2, 1); b.moved(1, 0); b.moved(2, 1); b.moved(1, 0); b.moved(2, 1); b.moved(1, 0);
  t.same([b.size, b.min], [0, 0], 'empty again');
});

t.test('moves must be by one and from an existing size', async (t) => {
  const b = new CountBuckets();
  t.throws(() => b.moved(0, 2), /assertion failed/);
  t.throws(() => b.moved(2, 3), /assertion failed/, 'no group of size 2');
  t.throws(() => b.moved(1, 1), /assertion failed/);
});

t.test('matches a brute-force histogram over a long pseudo-random walk', async (t) => {
  const b = new CountBuckets();
  const sizes: number[] = [];
  let seed = 12345;
  const next = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  let mismatches = 0;
  for (let step = 0; step < 5000; step++) {
    const i = next(12);
    while (sizes.length <= i) sizes.push(0);
    const from = sizes[i];
    const to = from === 0 || next(3) > 0 ? from + 1 : from - 1;
    b.moved(from, to);
    sizes[i] = to;
    const live = sizes.filter((s) => s > 0);
    const want = [live.length, live.length === 0 ? 0 : Math.min(...live)];
    if (b.size !== want[0] || b.min !== want[1]) mismatches++;
  }
  t.equal(mismatches, 0);
});
