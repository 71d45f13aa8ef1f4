import t from 'tap';
import type { AgentAttribute } from '../../../src/scheduler/model/agent';
import { formatAttributeValue, formatScalar } from '../../../src/scheduler/constraints/format-attribute';

t.test('scalar: nearest thousandth, half-even on the decimal text, no trailing zeros', async (t) => {
  const cases: [number, string][] = [
    [0.8, '0.8'],
    [2, '2'],
    [10, '10'],
    [1.5, '1.5'],
    [100.1, '100.1'],
    [0.80000001, '0.8'],
    [0.1 + 0.2, '0.3'], // 0.30000000000000004
    // ties go to the even thousandth
    [0.0005, '0'],
    [0.0015, '0.002'],
    [0.0025, '0.002'], // binary 0.0025000000000000000520… must still tie
    [0.0035, '0.004'],
    [1.0005, '1'],
    [1.1005, '1.1'],
    [123.4565, '123.456'],
    [123.4575, '123.458'],
    [2.0125, '2.012'],
    // beyond the tie rounds up, below rounds down
    [1.00051, '1.001'],
    [0.00049, '0'],
    [0.0025000001, '0.003'],
    [0.0024999, '0.002'],
    // carries
    [0.9995, '1'],
    [9.9996, '10'],
    [1.2996, '1.3'],
    // exponent notation from String()
    [1e-7, '0'],
    [5e-4, '0'],
    [1.5e-3, '0.002'],
    [1e21, '1000000000000000000000'],
    [1.2345e22, '12345000000000000000000'],
    // negatives
    [-1.5, '-1.5'],
    [-0.0025, '-0.002'],
    [-0.0001, '0'],
    [-0, '0'],
    [0, '0'],
    // never reported by a resource manager, but defined
    [Number.NaN, 'NaN'],
    [Number.POSITIVE_INFINITY, 'Infinity'],
  ];
  for (const [x, want] of cases) {
    t.equal(formatScalar(x), want, `${x} → ${want}`);
    t.equal(formatAttributeValue({ name: 's', type: 'scalar', scalar: x }), want, `attribute ${x}`);
  }
});

t.test('text is returned as is', async (t) => {
  t.equal(formatAttributeValue({ name: 'rack', type: 'text', text: 'rack-1' }), 'rack-1');
  t.equal(formatAttributeValue({ name: 'rack', type: 'text', text: ' spaced 0.80 ' }), ' spaced 0.80 ');
  t.equal(formatAttributeValue({ name: 'rack', type: 'text', text: '' }), '');
});

t.test('ranges: [b-e,...] sorted by begin, no spaces', async (t) => {
  const cases: [AgentAttribute, string][] = [
    [{ name: 'p', type: 'ranges', ranges: [[31000, 32000]] }, '[31000-32000]'],
    [{ name: 'p', type: 'ranges', ranges: [[80, 80]] }, '[80-80]'],
    [{ name: 'p', type: 'ranges', ranges: [[1, 2], [5, 9], [11, 11]] }, '[1-2,5-9,11-11]'],
    [{ name: 'p', type: 'ranges', ranges: [[5, 9], [1, 2]] }, '[1-2,5-9]'], // sorted by begin,
    [{ name: 'p', type: 'ranges', ranges: [] }, '[]'],
  ];
  for (const [attr, want] of cases) t.equal(formatAttributeValue(attr), want, want);
});

t.test('set: {a,...} in the given order, no spaces', async (t) => {
  const cases: [AgentAttribute, string][] = [
    [{ name: 's', type: 'set', set: ['a', 'b'] }, '{a,b}'],
    [{ name: 's', type: 'set', set: ['b', 'a'] }, '{a,b}'], // sorted, as Marathon does,
    [{ name: 's', type: 'set', set: ['only'] }, '{only}'],
    [{ name: 's', type: 'set', set: [] }, '{}'],
  ];
  for (const [attr, want] of cases) t.equal(formatAttributeValue(attr), want, want);
});
