import t from 'tap';
import { jsonTextWithLongs, quoteLongIntegers } from '../../../../src/cluster/mesos/codec/json-long-integers';

t.test('quoteLongIntegers: integer literals of 16+ digits become strings, nothing else changes', async (t) => {
  const cases: { name: string; text: string; want: string }[] = [
    { name: 'no long digit run: the same text', text: '{"a":123456789012345,"b":"x"}', want: '{"a":123456789012345,"b":"x"}' },
    { name: 'a TimeInfo', text: '{"nanoseconds":1796062583058000000}', want: '{"nanoseconds":"1796062583058000000"}' },
    { name: 'negative, in an array, with spaces', text: '[ -9223372036854775808 , 1 ]', want: '[ "-9223372036854775808" , 1 ]' },
    { name: 'digits inside strings (escaped quotes too) stay', text: '{"m":"id 1796062583058000000 \\" 1796062583058000000","n":1796062583058000000}', want: '{"m":"id 1796062583058000000 \\" 1796062583058000000","n":"1796062583058000000"}' },
    { name: 'doubles stay numbers', text: '[1795336562780774000.5,1234567890123456789e3,1e1234567890123456789]', want: '[1795336562780774000.5,1234567890123456789e3,1e1234567890123456789]' },
    { name: 'a key of digits stays', text: '{"1796062583058000000":1}', want: '{"1796062583058000000":1}' },
  ];
  for (const c of cases) {
    t.equal(quoteLongIntegers(c.text), c.want, c.name);
    t.doesNotThrow(() => JSON.parse(quoteLongIntegers(c.text)), `${c.name}: still JSON`);
  }
});

t.test('jsonTextWithLongs: JSON.stringify\'s text, bigints as exact numbers', async (t) => {
  const value = { a: [1, 'two', true, null, { b: 1.5 }], skipped: undefined, s: 'quote " and \u0000', c: 1796062583058000000n };
  t.equal(jsonTextWithLongs(value), `${JSON.stringify({ ...value, c: 0 }).slice(0, -2)}1796062583058000000}`);
  t.equal(jsonTextWithLongs({ x: 1 }), JSON.stringify({ x: 1 }));
});
