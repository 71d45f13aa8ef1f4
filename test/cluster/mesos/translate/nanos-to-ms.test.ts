import t from 'tap';
import { decodeEvent, encodeEvent } from '../../../../src/cluster/mesos/codec/mesos-codec';
import type { Event, MesosFormat } from '../../../../src/cluster/mesos/codec/mesos-model';
import { EVENT_TYPE } from '../../../../src/cluster/mesos/proto/mesos-root';
import { nanosToMs } from '../../../../src/cluster/mesos/translate/nanos-to-ms';
import { offerFromMesos } from '../../../../src/cluster/mesos/translate/offer-from-mesos';
import { statusFromMesos } from '../../../../src/cluster/mesos/translate/status-from-mesos';
import { makeMesosOffer } from './mesos-builders';

/**
 * TimeInfo nanoseconds at and around millisecond boundaries, at realistic epoch values (≈1.8e18,
 * where a double holds only every 256th nanosecond): the exact floor of ns / 10^6. Read through a
 * double, the `…999_999` cases came back as the next millisecond and 1796062583058000000 (a whole
 * millisecond) as the one before.
 */
const BOUNDARIES: readonly { ns: string; wantMs: number }[] = [
  { ns: '1796062583050999999', wantMs: 1_796_062_583_050 },
  { ns: '1796062583051000000', wantMs: 1_796_062_583_051 },
  { ns: '1796062583051000001', wantMs: 1_796_062_583_051 },
  { ns: '1796062583051999999', wantMs: 1_796_062_583_051 },
  { ns: '1796062583057999999', wantMs: 1_796_062_583_057 },
  { ns: '1796062583058000000', wantMs: 1_796_062_583_058 },
  { ns: '1796062583058000001', wantMs: 1_796_062_583_058 },
  { ns: '1796062583058999999', wantMs: 1_796_062_583_058 },
];

const text = (value: string): Uint8Array => new TextEncoder().encode(value);
/** A positive int64 as the Long-like `{ low, high }` protobufjs encodes with all 64 bits. */
const longBits = (ns: string) => ({ low: Number(BigInt(ns) & 0xffff_ffffn) | 0, high: Number(BigInt(ns) >> 32n) | 0, unsigned: false });

/** An UPDATE's wire bodies with `unreachable_time` = ns, written without our encoder: protobufjs with a Long, Mesos JSON with a number literal and with a string. */
function unreachableUpdateBodies(ns: string): [string, Uint8Array, MesosFormat][] {
  const status = (nanoseconds: unknown) => ({ task_id: { value: 't1' }, state: 10, source: 0, reason: 11, agent_id: { value: 'S1' }, unreachable_time: { nanoseconds } });
  const jsonStatus = (nanoseconds: string) => `{"type":"UPDATE","update":{"status":{"task_id":{"value":"t1"},"state":"TASK_UNREACHABLE","source":"SOURCE_MASTER","reason":"REASON_AGENT_REMOVED","agent_id":{"value":"S1"},"unreachable_time":{"nanoseconds":${nanoseconds}}}}}`;
  return [
    ['protobuf', EVENT_TYPE.encode({ type: 4, update: { status: status(longBits(ns)) } }).finish(), 'protobuf'],
    ['JSON number', text(jsonStatus(ns)), 'json'],
    ['JSON string', text(jsonStatus(`"${ns}"`)), 'json'],
  ];
}

t.test('unreachable_time at millisecond boundaries: exact whole ms, from protobuf and JSON', async (t) => {
  for (const { ns, wantMs } of BOUNDARIES) {
    for (const [form, body, format] of unreachableUpdateBodies(ns)) {
      const status = decodeEvent(body, format).update?.status;
      if (status === undefined) throw new Error('no status decoded');
      t.equal(status.unreachableTime?.nanoseconds, BigInt(ns), `${ns} (${form}): decoded exactly`);
      t.equal(statusFromMesos(status).unreachableSinceMs, wantMs, `${ns} (${form}): ${wantMs} ms`);
    }
  }
});

t.test('an offer\'s unavailability start at millisecond boundaries: exact, through our encoder and decoder', async (t) => {
  for (const { ns, wantMs } of BOUNDARIES) {
    const mesosOffer = makeMesosOffer();
    mesosOffer.unavailability = { start: { nanoseconds: BigInt(ns) }, duration: { nanoseconds: 1_999_999 } };
    const event: Event = { type: 'OFFERS', offers: { offers: [mesosOffer] } };
    for (const format of ['protobuf', 'json'] as const) {
      const body = encodeEvent(event, format);
      if (format === 'json') t.match(new TextDecoder().decode(body), `"start":{"nanoseconds":${ns}}`, `${ns}: written as an exact JSON number`);
      const decoded = decodeEvent(body, format).offers?.offers?.[0];
      if (decoded === undefined) throw new Error('no offer decoded');
      t.same(offerFromMesos(decoded).unavailability, { startMs: wantMs, durationMs: 1 }, `${ns} (${format})`);
    }
  }
});

t.test('nanosToMs: exact integer division rounded toward −∞, numbers and bigints', async (t) => {
  const cases: { ns: number | bigint; want: number }[] = [
    { ns: 0, want: 0 },
    { ns: 999_999, want: 0 },
    { ns: 1_000_000, want: 1 },
    { ns: 3_600_000_999_999, want: 3_600_000 },
    { ns: Number.MAX_SAFE_INTEGER, want: 9_007_199_254 },
    { ns: 1_796_062_583_058_000_000n, want: 1_796_062_583_058 },
    { ns: 1_796_062_583_057_999_999n, want: 1_796_062_583_057 },
    { ns: 9_223_372_036_854_775_807n, want: 9_223_372_036_854 },
    // Before the epoch (Mesos sends none): floor, never later than the time was.
    { ns: -1, want: -1 },
    { ns: -1_000_000, want: -1 },
    { ns: -1_000_001n, want: -2 },
  ];
  for (const c of cases) t.equal(nanosToMs(c.ns), c.want, `${c.ns} ns`);
});
