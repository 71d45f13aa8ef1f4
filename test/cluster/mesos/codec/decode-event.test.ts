import t from 'tap';
import { decodeEvent, encodeEvent } from '../../../../src/cluster/mesos/codec/mesos-codec';
import type { Event } from '../../../../src/cluster/mesos/codec/mesos-model';
import { toModelShape } from './proto3-json';
import { maskRunSpecific, withGroupContainerIdOnly, withJsonDefaults } from './run-masks';
import { indexedEventPairs, listSamples, readSample, readSampleJson } from './sample-files';

/** Each directory of binary events with the directory of its python json_format decoding. */
const PB_EVENT_DIRS = [
  { events: 'pb/events', decoded: 'pb/decoded/events' },
  { events: 'pb/failover/old-stream', decoded: 'pb/decoded/failover/old-stream' },
  { events: 'pb/failover/new-stream', decoded: 'pb/decoded/failover/new-stream' },
];

const JSON_EVENT_DIRS = ['json/events', 'json/failover/old-stream', 'json/failover/new-stream'];

t.test('every recorded protobuf event decodes to what pb/decoded says', async (t) => {
  let count = 0;
  for (const { events, decoded } of PB_EVENT_DIRS) {
    for (const name of listSamples(events, '.bin')) {
      const want = toModelShape(readSampleJson(`${decoded}/${name.replace(/\.bin$/, '.json')}`));
      t.strictSame(decodeEvent(readSample(`${events}/${name}`), 'protobuf'), want, `${events}/${name}`);
      count += 1;
    }
  }
  t.equal(count, 62 + 4 + 3, 'all recorded protobuf events were checked');
});

t.test('our subset covers every field the master sent: re-encoding gives the same bytes', async (t) => {
  for (const { events } of PB_EVENT_DIRS) {
    for (const name of listSamples(events, '.bin')) {
      const bytes = readSample(`${events}/${name}`);
      t.strictSame(encodeEvent(decodeEvent(bytes, 'protobuf'), 'protobuf'), bytes, `${events}/${name}`);
    }
  }
});

t.test('every recorded JSON event decodes to the model form of its own JSON', async (t) => {
  for (const dir of JSON_EVENT_DIRS) {
    for (const name of listSamples(dir, '.json')) {
      const want = toModelShape(readSampleJson(`${dir}/${name}`));
      t.strictSame(decodeEvent(readSample(`${dir}/${name}`), 'json'), want, `${dir}/${name}`);
    }
  }
});

t.test('every JSON event parses into the same model as its protobuf counterpart (INDEX.md)', async (t) => {
  const pairs = indexedEventPairs();
  t.equal(pairs.length, 59, 'INDEX.md pairs 59 of the 62 protobuf events');
  for (const { pb, json } of pairs) {
    const fromPb = decodeEvent(readSample(`pb/events/${pb}`), 'protobuf');
    const fromJson = decodeEvent(readSample(`json/events/${json}`), 'json');
    const normalize = (event: Event): unknown => maskRunSpecific(withGroupContainerIdOnly(event));
    t.strictSame(normalize(withJsonDefaults(fromPb) as Event), normalize(fromJson), `${pb} ~ ${json}`);
  }
});

t.test('the failover ERROR event reads the same in both formats', async (t) => {
  const want: Event = { type: 'ERROR', error: { message: 'Framework failed over' } };
  t.strictSame(decodeEvent(readSample('pb/failover/old-stream/004-ERROR.bin'), 'protobuf'), want);
  t.strictSame(decodeEvent(readSample('json/failover/old-stream/004-ERROR.json'), 'json'), want);
});

t.test('selected recorded values read as the model promises', async (t) => {
  const subscribed = decodeEvent(readSample('pb/events/001-SUBSCRIBED.bin'), 'protobuf');
  t.equal(subscribed.subscribed?.heartbeatIntervalSeconds, 15);
  t.equal(subscribed.subscribed?.masterInfo?.ip, 16777343, 'uint32 IPv4 in network byte order');
  t.same(subscribed.subscribed?.masterInfo?.capabilities, [{ type: 'AGENT_UPDATE' }, { type: 'AGENT_DRAINING' }, { type: 'QUOTA_V2' }]);

  const offers = decodeEvent(readSample('pb/events/003-OFFERS.bin'), 'protobuf');
  const offer = offers.offers?.offers?.[0];
  t.same(offer?.resources?.find((resource) => resource.name === 'ports')?.ranges, { range: [{ begin: 31000, end: 32000 }] }, 'uint64 ranges as numbers');
  t.same(offer?.attributes, [
    { name: 'rack', type: 'TEXT', text: { value: 'r1' } },
    { name: 'zone', type: 'TEXT', text: { value: 'z1' } },
  ]);
  t.equal(offer?.url?.path, '/slave(1)');
  t.same(offer?.allocationInfo, { role: '*' });

  const starting = decodeEvent(readSample('pb/events/004-UPDATE.bin'), 'protobuf').update?.status;
  t.equal(starting?.state, 'TASK_STARTING', 'the zero enum value is present, not dropped');
  t.equal(starting?.source, 'SOURCE_EXECUTOR');
  t.ok(starting?.uuid instanceof Uint8Array && starting.uuid.length === 16, 'uuid is 16 raw bytes');
  t.equal(Object.getPrototypeOf(starting?.uuid), Uint8Array.prototype, 'a plain Uint8Array, not a Buffer');

  const invalid = decodeEvent(readSample('pb/events/023-UPDATE.bin'), 'protobuf').update?.status;
  t.equal(invalid?.state, 'TASK_ERROR');
  t.equal(invalid?.reason, 'REASON_TASK_INVALID');
  t.equal(invalid?.source, 'SOURCE_MASTER');
  t.equal(invalid?.uuid, undefined, 'a master-generated update has no uuid: never acknowledge it');

  const failure = decodeEvent(readSample('pb/events/054-FAILURE.bin'), 'protobuf');
  t.equal(failure.failure?.status, 0, 'an executor FAILURE with status 0 keeps the zero');
  t.equal(failure.failure?.executorId?.value, 'default-executor-1');
});

t.test('events round-trip through both encodings', async (t) => {
  for (const name of listSamples('pb/events', '.bin')) {
    const event = decodeEvent(readSample(`pb/events/${name}`), 'protobuf');
    t.strictSame(decodeEvent(encodeEvent(event, 'json'), 'json'), event, `${name} via JSON`);
  }
});
