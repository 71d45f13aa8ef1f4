import t from 'tap';
import { jsonTextWithLongs, quoteLongIntegers } from '../../../../src/cluster/mesos/codec/json-long-integers';
import { decodeEvent, encodeEvent } from '../../../../src/cluster/mesos/codec/mesos-codec';
import type { Event } from '../../../../src/cluster/mesos/codec/mesos-model';

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

t.test('int64 and uint64 extremes round-trip exactly in both formats (bigint beyond 2^53, number within)', async (t) => {
  const int64s: (number | bigint)[] = [-(2n ** 63n), -(2 ** 53 - 1), -(2 ** 32), -1, 0, 2 ** 32 - 1, 2 ** 32, 2 ** 52 + 1, 2 ** 53 - 1, 2n ** 53n, 1_796_062_583_058_000_000n, 2n ** 63n - 1n];
  for (const format of ['protobuf', 'json'] as const) {
    for (const nanoseconds of int64s) {
      const event: Event = { type: 'UPDATE', update: { status: { taskId: { value: 't1' }, state: 'TASK_RUNNING', unreachableTime: { nanoseconds } } } };
      t.equal(decodeEvent(encodeEvent(event, format), format).update?.status.unreachableTime?.nanoseconds, nanoseconds, `${format}: int64 ${nanoseconds}`);
    }
    for (const range of [{ begin: 31_000, end: 32_000 }, { begin: 0, end: 2 ** 53 - 1 }, { begin: 0, end: 2n ** 64n - 1n }]) {
      const offer = { id: { value: 'o1' }, frameworkId: { value: 'f1' }, agentId: { value: 'a1' }, hostname: 'h1', resources: [{ name: 'ports', type: 'RANGES' as const, ranges: { range: [range] } }] };
      const decoded = decodeEvent(encodeEvent({ type: 'OFFERS', offers: { offers: [offer] } }, format), format).offers?.offers?.[0]?.resources?.[0]?.ranges?.range?.[0];
      t.strictSame(decoded, range, `${format}: uint64 range ${range.begin}–${range.end}`);
    }
  }
});
