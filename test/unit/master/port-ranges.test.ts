import t from 'tap';
import { containsPort, containsRanges, countPorts, normalizeRanges, rangesOverlap, subtractRanges, unionRanges } from '../../../src/master/port-ranges';
import type { PortRange } from '../../../src/scheduler/model/resources';

t.test('normalizeRanges sorts, merges overlapping and adjacent ranges, drops empty ones', async (t) => {
  const cases: [PortRange[], PortRange[]][] = [
    [[], []],
    [[[5, 6], [1, 2]], [[1, 2], [5, 6]]],
    [[[1, 3], [4, 6]], [[1, 6]]],
    [[[1, 10], [2, 3]], [[1, 10]]],
    [[[3, 2]], []],
    [[[5, 6], [1, 2], [3, 4], [10, 9]], [[1, 6]]],
  ];
  for (const [input, want] of cases) t.same(normalizeRanges(input), want, JSON.stringify(input));
});

t.test('subtractRanges', async (t) => {
  const cases: [PortRange[], PortRange[], PortRange[]][] = [
    [[[1, 10]], [], [[1, 10]]],
    [[[1, 10]], [[1, 10]], []],
    [[[1, 10]], [[3, 3]], [[1, 2], [4, 10]]],
    [[[1, 10]], [[0, 2], [9, 20]], [[3, 8]]],
    [[[1, 5], [10, 15]], [[4, 11]], [[1, 3], [12, 15]]],
    [[[1, 5]], [[7, 9]], [[1, 5]]],
    [[[1, 10]], [[3, 4], [6, 6]], [[1, 2], [5, 5], [7, 10]]],
    [[[1, 10], [20, 30]], [[0, 25]], [[26, 30]]],
  ];
  for (const [from, remove, want] of cases) t.same(subtractRanges(from, remove), want, `${JSON.stringify(from)} \\ ${JSON.stringify(remove)}`);
});

t.test('containment and overlap', async (t) => {
  t.ok(containsRanges([[1, 10]], [[2, 3], [5, 5]]));
  t.notOk(containsRanges([[1, 10]], [[9, 11]]));
  t.ok(containsRanges([[1, 10]], []));
  t.ok(containsPort([[1, 2], [5, 6]], 5));
  t.notOk(containsPort([[1, 2], [5, 6]], 3));
  t.ok(rangesOverlap([[1, 5]], [[5, 9]]));
  t.notOk(rangesOverlap([[1, 4]], [[5, 9]]));
});

t.test('union and count', async (t) => {
  t.same(unionRanges([[1, 2]], [[3, 4]]), [[1, 4]], 'adjacent ranges merge');
  t.same(unionRanges([[5, 9]], [[1, 2]]), [[1, 2], [5, 9]]);
  t.equal(countPorts([[1, 10], [5, 12]]), 12, 'overlaps counted once');
  t.equal(countPorts([]), 0);
});
