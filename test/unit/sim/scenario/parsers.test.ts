import t from 'tap';
import { compare, formatExpected, formatSatisfied } from '../../../../sim/scenario/comparison';
import { formatDurationMs } from '../../../../sim/scenario/format-duration';
import { parseComparison } from '../../../../sim/scenario/parse-comparison';
import { parseDurationMs } from '../../../../sim/scenario/parse-duration';
import { parseRanges } from '../../../../sim/scenario/parse-ranges';
import { suggestName } from '../../../../sim/scenario/suggest-name';

t.test('parseDurationMs', async (t) => {
  const good: [string | number, number][] = [
    ['250ms', 250], ['30s', 30_000], ['5m', 300_000], ['1h', 3_600_000], ['1h30m', 5_400_000], ['1.5s', 1500],
    ['1.1s', 1100], ['0.001s', 1], ['1m15s', 75_000], ['2h3m4s5ms', 7_384_005], ['0s', 0], [0, 0], [1234, 1234], ['0.5m', 30_000],
  ];
  for (const [text, ms] of good) t.strictSame(parseDurationMs(text), { ok: true, ms }, String(text));
  for (const bad of ['', '5', '5 m', '1m1h', '1s1s', 'ms', '-1s', '1.s', '0.5ms', '1d', -1, 1.5]) {
    t.equal(parseDurationMs(bad).ok, false, JSON.stringify(bad));
  }
});

t.test('formatDurationMs', async (t) => {
  t.equal(formatDurationMs(0), '0s');
  t.equal(formatDurationMs(250), '250ms');
  t.equal(formatDurationMs(90_000), '1m30s');
  t.equal(formatDurationMs(3_605_001), '1h5s1ms');
});

t.test('parseRanges', async (t) => {
  t.strictSame(parseRanges('31000-32000', 65_535), { ok: true, ranges: [[31000, 32000]] });
  t.strictSame(parseRanges('', 65_535), { ok: true, ranges: [] });
  t.strictSame(parseRanges('9-9, 1-5,7', 100), { ok: true, ranges: [[1, 5], [7, 7], [9, 9]] });
  t.strictSame(parseRanges([[7, 9], [1, 5]], 100), { ok: true, ranges: [[1, 5], [7, 9]] });
  t.strictSame(parseRanges('5-1', 100), { ok: false, reason: 'range 5-1: the begin is greater than the end' });
  t.strictSame(parseRanges('1-5,5-6', 100), { ok: false, reason: 'ranges 1-5 and 5-6 overlap' });
  t.strictSame(parseRanges('1-500', 100), { ok: false, reason: 'range 1-500: expected values ≤ 100' });
  t.equal(parseRanges('1..5', 100).ok, false);
  t.equal(parseRanges('a-b', 100).ok, false);
});

t.test('parseComparison, compare and their words', async (t) => {
  const cases: [number | string, number[], number[], string, string][] = [
    [3, [3], [2, 4], '3', '= 3'],
    ['3', [3], [2], '3', '= 3'],
    ['=3', [3], [4], '3', '= 3'],
    ['>=2', [2, 9], [1], '>= 2', '>= 2 (got 2)'],
    ['<=3', [0, 3], [4], '<= 3', '<= 3 (got 2)'],
    ['>0', [1], [0], '> 0', '> 0 (got 2)'],
    ['< 5', [4], [5], '< 5', '< 5 (got 2)'],
    ['2..4', [2, 3, 4], [1, 5], '2..4', 'in 2..4 (got 2)'],
  ];
  for (const [text, passing, failing, expected, satisfied] of cases) {
    const parsed = parseComparison(text);
    if (!parsed.ok) {
      t.fail(`${String(text)}: ${parsed.reason}`);
      continue;
    }
    for (const value of passing) t.ok(compare(parsed.comparison, value), `${String(text)} accepts ${value}`);
    for (const value of failing) t.notOk(compare(parsed.comparison, value), `${String(text)} refuses ${value}`);
    t.equal(formatExpected(parsed.comparison), expected);
    t.equal(formatSatisfied(parsed.comparison, parsed.comparison.op === '=' ? parsed.comparison.value : 2), satisfied);
  }
  for (const bad of ['=>2', '2..', '..4', '4..2', 'two', '>=-1', -1, 1.5, 99999999999999999999, '>=99999999999999999999', '1..99999999999999999999', '9007199254740992']) {
    t.equal(parseComparison(bad).ok, false, String(bad));
  }
  t.strictSame(parseComparison('<=9007199254740991'), { ok: true, comparison: { op: '<=', value: 9007199254740991 } }, 'up to 2^53 - 1');
});

t.test('suggestName', async (t) => {
  t.equal(suggestName('cpu', ['cpus', 'mem']), 'cpus');
  t.equal(suggestName('running', ['Running', 'Staging']), 'Running');
  t.equal(suggestName('scael', ['scale', 'kill']), 'scale');
  t.equal(suggestName('explode', ['app', 'pod', 'scale']), undefined);
  t.equal(suggestName('x', ['y']), undefined, 'one letter is not close to another');
});
