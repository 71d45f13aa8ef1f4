import t from 'tap';
import { nearestRank, quantile } from '../../bench/lib/quantile';

/** 1..n ascending. */
const upTo = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1);

t.test('nearest rank: the ⌈q·n⌉-th smallest value', async (t) => {
  const cases: readonly [string, number[], number, number][] = [
    ['p99 of 100 is the second-slowest', upTo(100), 0.99, 99],
    ['p99 of 1,000 is the 990th', upTo(1000), 0.99, 990],
    ['p99 below 100 samples is the maximum', upTo(50), 0.99, 50],
    ['median of 3', upTo(3), 0.5, 2],
    ['median of 4 is the lower middle', upTo(4), 0.5, 2],
    ['q = 0 is the minimum', upTo(10), 0, 1],
    ['q = 1 is the maximum', upTo(10), 1, 10],
    ['empty', [], 0.99, 0],
  ];
  for (const [name, sorted, q, expected] of cases) t.equal(nearestRank(sorted, q), expected, name);
});

t.test('quantile sorts its values first', async (t) => {
  const values = [5, 1, 4, 2, 3];
  t.equal(quantile(values, 0.5), 3);
  t.same(values, [1, 2, 3, 4, 5], 'sorted in place');
  t.equal(quantile([10, 2, 33, 4], 0.99), 33);
});
