import t from 'tap';
import { compareGoldenHashes, describeDifference, formatGoldenHashes, parseGoldenHashes } from '../../../../sim/golden/golden-hashes';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);

t.test('parseGoldenHashes accepts file → hex sha256 and refuses anything else', async (t) => {
  const table: [string, string, boolean][] = [
    ['an object of hashes', JSON.stringify({ 'scenarios/x.yaml': A }), true],
    ['an empty object', '{}', true],
    ['not JSON', '{', false],
    ['an array', '[]', false],
    ['a short hash', JSON.stringify({ 'scenarios/x.yaml': 'abc' }), false],
    ['upper-case hex', JSON.stringify({ 'scenarios/x.yaml': A.toUpperCase() }), false],
    ['a number', JSON.stringify({ 'scenarios/x.yaml': 1 }), false],
  ];
  for (const [name, text, ok] of table) t.equal(typeof parseGoldenHashes(text) !== 'string', ok, name);
});

t.test('compareGoldenHashes lists new, changed and gone scenarios, sorted', async (t) => {
  const diffs = compareGoldenHashes({ 'b.yaml': A, 'c.yaml': A, 'd.yaml': A }, { 'a.yaml': A, 'b.yaml': A, 'c.yaml': B });
  t.strictSame(diffs, [
    { file: 'a.yaml', expected: undefined, actual: A },
    { file: 'c.yaml', expected: A, actual: B },
    { file: 'd.yaml', expected: A, actual: undefined },
  ]);
  t.match(describeDifference(diffs[0]), /new scenario/);
  t.match(describeDifference(diffs[1]), /trace changed/);
  t.match(describeDifference(diffs[2]), /no longer exists/);
  t.strictSame(compareGoldenHashes({ 'a.yaml': A }, { 'a.yaml': A }), [], 'equal sets: no difference');
});

t.test('formatGoldenHashes sorts keys and round-trips', async (t) => {
  const text = formatGoldenHashes({ 'z.yaml': A, 'a.yaml': B });
  t.ok(text.indexOf('a.yaml') < text.indexOf('z.yaml'), 'sorted');
  t.ok(text.endsWith('\n'), 'ends with a newline');
  t.strictSame(parseGoldenHashes(text), { 'a.yaml': B, 'z.yaml': A });
});
