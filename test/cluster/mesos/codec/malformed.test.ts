import t from 'tap';
import { MesosCodecError } from '../../../../src/cluster/mesos/codec/mesos-codec-error';
import { decodeCall, decodeEvent, encodeCall, encodeEvent } from '../../../../src/cluster/mesos/codec/mesos-codec';
import type { Call, MesosFormat } from '../../../../src/cluster/mesos/codec/mesos-model';
import { EVENT_TYPE } from '../../../../src/cluster/mesos/proto/mesos-root';
import { readSample } from './sample-files';

const json = (value: unknown): Uint8Array => new TextEncoder().encode(typeof value === 'string' ? value : JSON.stringify(value));
/** A raw protobuf Event built with protobufjs directly, bypassing our model (snake_case, enum numbers). */
const rawEvent = (wire: object): Uint8Array => EVENT_TYPE.encode(wire).finish();
const concat = (...parts: Uint8Array[]): Uint8Array => new Uint8Array(Buffer.concat(parts));

const update = (status: object): object => ({ type: 'UPDATE', update: { status } });
const minimalStatus = { task_id: { value: 't1' }, state: 'TASK_RUNNING' };
const rawOffer = { id: { value: 'o1' }, framework_id: { value: 'f1' }, agent_id: { value: 'a1' }, hostname: 'h1' };

t.test('malformed protobuf events are MesosCodecErrors', async (t) => {
  const offers = readSample('pb/events/003-OFFERS.bin');
  const cases: { name: string; body: Uint8Array; match: RegExp }[] = [
    { name: 'truncated', body: offers.subarray(0, Math.floor(offers.length / 2)), match: /malformed protobuf mesos\.v1\.scheduler\.Event/ },
    { name: 'garbage', body: new Uint8Array([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]), match: /malformed protobuf/ },
    { name: 'a length beyond the end', body: new Uint8Array([0x2a, 0x10, 0x0a]), match: /malformed protobuf/ },
    // Event{type: UPDATE, update{status{task_id{"t1"}}}}: protobufjs would write a default `state`, so by hand.
    { name: 'a missing required field', body: new Uint8Array([0x08, 0x04, 0x2a, 0x08, 0x0a, 0x06, 0x0a, 0x04, 0x0a, 0x02, 0x74, 0x31]), match: /missing required 'state'/ },
    {
      name: 'an unknown value in a required enum (but TaskState)',
      body: rawEvent({ type: 2, offers: { offers: [{ ...rawOffer, resources: [{ name: 'cpus', type: 77 }] }] } }),
      match: /missing required 'type'/,
    },
  ];
  for (const { name, body, match } of cases) {
    t.throws(() => decodeEvent(body, 'protobuf'), match, name);
    t.throws(() => decodeEvent(body, 'protobuf'), MesosCodecError, `${name} is a MesosCodecError`);
  }
});

t.test('protobuf decoding is forward compatible', async (t) => {
  const heartbeat = readSample('pb/events/002-HEARTBEAT.bin');
  const unknownVarint = new Uint8Array([0x98, 0x06, 0x01]); // field 99, varint 1
  const unknownBytes = new Uint8Array([0x92, 0x03, 0x03, 0x61, 0x62, 0x63]); // field 50, "abc"
  t.strictSame(decodeEvent(concat(heartbeat, unknownVarint, unknownBytes), 'protobuf'), { type: 'HEARTBEAT' }, 'unknown fields are skipped');
  t.strictSame(decodeEvent(rawEvent({ type: 99 }), 'protobuf'), { type: 'UNKNOWN' }, 'an unknown event type reads UNKNOWN');
  t.strictSame(
    decodeEvent(new Uint8Array([0x08, 0x04, 0x28, 0x01]), 'protobuf'),
    { type: 'UPDATE' },
    'a known field with an unexpected wire type is skipped like an unknown field (as protobuf does)',
  );
  t.strictSame(decodeEvent(new Uint8Array(0), 'protobuf'), { type: 'UNKNOWN' }, 'an empty record has no type');
  t.strictSame(
    decodeEvent(rawEvent({ type: 4, update: { status: { task_id: { value: 't1' }, state: 1, reason: 999, source: 7 } } }), 'protobuf'),
    { type: 'UPDATE', update: { status: { taskId: { value: 't1' }, state: 'TASK_RUNNING' } } },
    'unknown values of optional enums are dropped',
  );
  t.strictSame(
    decodeEvent(rawEvent({ type: 4, update: { status: { task_id: { value: 't1' }, state: 77 } } }), 'protobuf'),
    { type: 'UPDATE', update: { status: { taskId: { value: 't1' }, state: 'UNRECOGNIZED:77' } } },
    'a TaskState a newer Mesos added is kept as UNRECOGNIZED:<number> (TaskStatus.state is required: dropped, the update would be malformed)',
  );
});

t.test('malformed JSON events are MesosCodecErrors', async (t) => {
  const cases: { name: string; body: Uint8Array; match: RegExp }[] = [
    { name: 'not JSON', body: json('{"type":'), match: /malformed JSON mesos\.v1\.scheduler\.Event/ },
    { name: 'an array', body: json([1, 2]), match: /not a JSON object/ },
    { name: 'a string', body: json('"HEARTBEAT"'), match: /not a JSON object/ },
    { name: 'invalid UTF-8', body: new Uint8Array([0x7b, 0xff, 0x7d]), match: /malformed JSON/ },
    { name: 'an enum as a number', body: json({ type: 8 }), match: /Event\.type: expected a Type name/ },
    { name: 'a string for a message', body: json(update({ ...minimalStatus, task_id: 't1' })), match: /Event\.update\.status\.task_id: expected a TaskID message/ },
    { name: 'an object for a string', body: json(update({ ...minimalStatus, message: { text: 'x' } })), match: /status\.message: expected a string/ },
    { name: 'a string for a bool', body: json(update({ ...minimalStatus, healthy: 'true' })), match: /status\.healthy: expected a boolean/ },
    { name: 'a fraction for an integer', body: json({ type: 'FAILURE', failure: { status: 1.5 } }), match: /failure\.status: expected an integer/ },
    { name: 'text for a double', body: json(update({ ...minimalStatus, timestamp: 'yesterday' })), match: /status\.timestamp: expected a number/ },
    { name: 'an int64 beyond 64 bits (number)', body: json('{"type":"UPDATE","update":{"status":{"task_id":{"value":"t1"},"state":"TASK_RUNNING","unreachable_time":{"nanoseconds":18446744073709551616}}}}'), match: /unreachable_time\.nanoseconds: expected a 64-bit integer/ },
    { name: 'an int64 beyond 64 bits (string)', body: json(update({ ...minimalStatus, unreachable_time: { nanoseconds: '-9223372036854775809' } })), match: /unreachable_time\.nanoseconds: expected a 64-bit integer/ },
    { name: 'a fraction for an int64', body: json(update({ ...minimalStatus, unreachable_time: { nanoseconds: 1.5 } })), match: /unreachable_time\.nanoseconds: expected an integer/ },
    { name: 'an object for a repeated field', body: json({ type: 'OFFERS', offers: { offers: {} } }), match: /offers\.offers: expected an array/ },
    { name: 'bad base64 bytes', body: json(update({ ...minimalStatus, uuid: 'not base64!' })), match: /status\.uuid: expected standard padded base64/ },
    { name: 'unpadded base64 bytes', body: json(update({ ...minimalStatus, uuid: 'rcBL+HIlQ4qkLPO+p+wBJw' })), match: /padded base64/ },
    { name: 'a missing required field', body: json(update({ state: 'TASK_RUNNING' })), match: /Event\.update\.status: missing required field 'task_id'/ },
    { name: 'camelCase keys are unknown keys', body: json({ type: 'SUBSCRIBED', subscribed: { frameworkId: { value: 'f' } } }), match: /missing required field 'framework_id'/ },
    {
      name: 'an unknown value in a required enum (but TaskState)',
      body: json({ type: 'OFFERS', offers: { offers: [{ ...rawOffer, resources: [{ name: 'cpus', type: 'TENSOR' }] }] } }),
      match: /resources\[0\]: missing required field 'type'/,
    },
  ];
  for (const { name, body, match } of cases) {
    t.throws(() => decodeEvent(body, 'json'), match, name);
    t.throws(() => decodeEvent(body, 'json'), MesosCodecError, `${name} is a MesosCodecError`);
  }
});

t.test('absurdly deep nesting is an error, not a stack overflow', async (t) => {
  let containerId: object = { value: 'c0' };
  for (let level = 1; level < 200; level += 1) containerId = { value: `c${level}`, parent: containerId };
  const body = json(update({ ...minimalStatus, container_status: { container_id: containerId } }));
  t.throws(() => decodeEvent(body, 'json'), /nested deeper than 64 levels/);
  t.throws(() => decodeEvent(body, 'json'), MesosCodecError);
});

t.test('JSON decoding is liberal where Mesos is (spec §1.2) and forward compatible', async (t) => {
  const cases: { name: string; body: unknown; want: unknown }[] = [
    { name: 'unknown keys are ignored', body: { type: 'HEARTBEAT', heartbeat: {}, extra: [1] }, want: { type: 'HEARTBEAT' } },
    { name: 'an unknown event type reads UNKNOWN', body: { type: 'NEW_EVENT' }, want: { type: 'UNKNOWN' } },
    { name: 'no type reads UNKNOWN', body: {}, want: { type: 'UNKNOWN' } },
    {
      name: 'a TaskState a newer Mesos added is kept as UNRECOGNIZED:<name>',
      body: update({ ...minimalStatus, state: 'TASK_NEW' }),
      want: { type: 'UPDATE', update: { status: { taskId: { value: 't1' }, state: 'UNRECOGNIZED:TASK_NEW' } } },
    },
    {
      name: 'unknown optional enum values are dropped, null is absent',
      body: update({ ...minimalStatus, reason: 'REASON_NEW', source: null, healthy: null }),
      want: { type: 'UPDATE', update: { status: { taskId: { value: 't1' }, state: 'TASK_RUNNING' } } },
    },
    {
      name: 'integers as numeric strings, doubles as strings',
      body: update({ ...minimalStatus, unreachable_time: { nanoseconds: '1795336562780774000' }, timestamp: '1795336562.5' }),
      want: { type: 'UPDATE', update: { status: { ...{ taskId: { value: 't1' }, state: 'TASK_RUNNING' }, timestamp: 1795336562.5, unreachableTime: { nanoseconds: 1795336562780774000n } } } },
    },
    {
      name: 'infinite doubles',
      body: { type: 'SUBSCRIBED', subscribed: { framework_id: { value: 'f' }, heartbeat_interval_seconds: 'Infinity' } },
      want: { type: 'SUBSCRIBED', subscribed: { frameworkId: { value: 'f' }, heartbeatIntervalSeconds: Infinity } },
    },
    { name: 'empty arrays are omitted', body: { type: 'OFFERS', offers: { offers: [] } }, want: { type: 'OFFERS', offers: {} } },
  ];
  for (const { name, body, want } of cases) t.strictSame(decodeEvent(json(body), 'json'), want, name);
});

t.test('encoding rejects calls the master would reject, before they are sent', async (t) => {
  const frameworkId = { value: 'f' };
  const cases: { name: string; call: unknown; match: RegExp }[] = [
    { name: 'no type', call: { frameworkId }, match: /^Call: a call needs a type other than UNKNOWN \(got undefined\)$/ },
    { name: 'type UNKNOWN', call: { frameworkId, type: 'UNKNOWN' }, match: /a call needs a type other than UNKNOWN/ },
    { name: 'an unknown type', call: { frameworkId, type: 'PING' }, match: /Call\.type: unknown Type value "PING"/ },
    { name: 'no framework id', call: { type: 'TEARDOWN' }, match: /a TEARDOWN call needs frameworkId/ },
    { name: 'no sub-message', call: { frameworkId, type: 'RECONCILE' }, match: /a RECONCILE call needs its 'reconcile' sub-message/ },
    {
      name: 'a resubscription with the id in one place only',
      call: { frameworkId, type: 'SUBSCRIBE', subscribe: { frameworkInfo: { user: 'u', name: 'n' } } },
      match: /frameworkId and frameworkInfo\.id must be equal in SUBSCRIBE/,
    },
    {
      name: 'an UPDATE_FRAMEWORK for another id',
      call: { frameworkId, type: 'UPDATE_FRAMEWORK', updateFramework: { frameworkInfo: { user: 'u', name: 'n', id: { value: 'g' } } } },
      match: /must be equal in UPDATE_FRAMEWORK/,
    },
    { name: 'a KILL without task id', call: { frameworkId, type: 'KILL', kill: { agentId: { value: 'a' } } }, match: /Call\.kill: missing required field 'taskId'/ },
    { name: 'an ACKNOWLEDGE with a text uuid', call: { frameworkId, type: 'ACKNOWLEDGE', acknowledge: { agentId: { value: 'a' }, taskId: { value: 't' }, uuid: 'abc' } }, match: /acknowledge\.uuid: expected a Uint8Array/ },
    { name: 'a NaN refuse_seconds', call: { frameworkId, type: 'DECLINE', decline: { filters: { refuseSeconds: NaN } } }, match: /decline\.filters\.refuseSeconds: expected a number/ },
    { name: 'a fractional nanoseconds', call: { frameworkId, type: 'KILL', kill: { taskId: { value: 't' }, killPolicy: { gracePeriod: { nanoseconds: 1.5 } } } }, match: /nanoseconds: expected an integer/ },
    { name: 'roles not an array', call: { frameworkId, type: 'REVIVE', revive: { roles: '*' } }, match: /Call\.revive\.roles: expected an array/ },
    { name: 'a sub-message not an object', call: { frameworkId, type: 'RECONCILE', reconcile: [] }, match: /Call\.reconcile: expected a Reconcile object/ },
  ];
  for (const format of ['protobuf', 'json'] as MesosFormat[]) {
    for (const { name, call, match } of cases) {
      t.throws(() => encodeCall(call as Call, format), match, `${format}: ${name}`);
      t.throws(() => encodeCall(call as Call, format), MesosCodecError, `${format}: ${name} is a MesosCodecError`);
    }
  }
});

t.test('JSON encoding follows Mesos JSON (spec §1.2)', async (t) => {
  const uuid = new Uint8Array([0xad, 0xc0, 0x4b, 0xf8, 0x72, 0x25, 0x43, 0x8a, 0xa4, 0x2c, 0xf3, 0xbe, 0xa7, 0xec, 0x01, 0x27]);
  const call: Call = {
    frameworkId: { value: 'f' },
    type: 'ACKNOWLEDGE',
    acknowledge: { agentId: { value: 'a' }, taskId: { value: 't' }, uuid },
  };
  t.equal(
    Buffer.from(encodeCall(call, 'json')).toString('utf8'),
    '{"framework_id":{"value":"f"},"type":"ACKNOWLEDGE","acknowledge":{"agent_id":{"value":"a"},"task_id":{"value":"t"},"uuid":"rcBL+HIlQ4qkLPO+p+wBJw=="}}',
    'snake_case keys, enum names, padded base64 bytes, compact',
  );
  const kill: Call = { frameworkId: { value: 'f' }, type: 'KILL', kill: { taskId: { value: 't' }, killPolicy: { gracePeriod: { nanoseconds: 30_000_000_000 } } } };
  t.match(Buffer.from(encodeCall(kill, 'json')).toString('utf8'), /"grace_period":\{"nanoseconds":30000000000\}/, 'int64 as a JSON number');
  const decline: Call = { frameworkId: { value: 'f' }, type: 'DECLINE', decline: { offerIds: [], filters: { refuseSeconds: Infinity } } };
  t.equal(
    Buffer.from(encodeCall(decline, 'json')).toString('utf8'),
    '{"framework_id":{"value":"f"},"type":"DECLINE","decline":{"filters":{"refuse_seconds":"Infinity"}}}',
    'empty arrays left out, infinite doubles as strings',
  );
  t.strictSame(decodeCall(encodeCall(decline, 'protobuf'), 'protobuf').decline, { filters: { refuseSeconds: Infinity } }, 'Infinity survives protobuf');
});

t.test('model keys the schema does not declare are not sent', async (t) => {
  const call = { type: 'TEARDOWN', frameworkId: { value: 'f' }, framework_id: { value: 'ignored' }, bogus: 1 } as unknown as Call;
  t.equal(Buffer.from(encodeCall(call, 'json')).toString('utf8'), '{"framework_id":{"value":"f"},"type":"TEARDOWN"}');
});

t.test('events encode for a fake master in both formats', async (t) => {
  const heartbeat = encodeEvent({ type: 'HEARTBEAT' }, 'protobuf');
  t.strictSame(heartbeat, new Uint8Array([0x08, 0x08]), 'a HEARTBEAT is the two bytes 08 08');
  t.equal(Buffer.from(encodeEvent({ type: 'HEARTBEAT' }, 'json')).toString('utf8'), '{"type":"HEARTBEAT"}');
  t.equal(
    Buffer.from(encodeEvent({ type: 'ERROR', error: { message: 'Framework failed over' } }, 'json')).toString('utf8'),
    '{"type":"ERROR","error":{"message":"Framework failed over"}}',
  );
});
