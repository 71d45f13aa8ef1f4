import t from 'tap';
import { decodeCall, decodeEvent, encodeCall } from '../../../../src/cluster/mesos/codec/mesos-codec';
import type { AgentID, Call, FrameworkID, TaskStatus } from '../../../../src/cluster/mesos/codec/mesos-model';
import { toModelShape } from './proto3-json';
import { maskRunSpecific } from './run-masks';
import { listSamples, readSample, readSampleJson } from './sample-files';

const PB_CALL_DIRS = [
  { calls: 'pb/calls', decoded: 'pb/decoded/calls' },
  { calls: 'pb/failover/calls', decoded: 'pb/decoded/failover/calls' },
];
const JSON_CALL_DIRS = ['json/calls', 'json/failover/calls'];

const parseJsonBytes = (body: Uint8Array): unknown => JSON.parse(Buffer.from(body).toString('utf8'));

interface AcknowledgeLike { acknowledge?: { uuid?: unknown; taskId?: unknown; task_id?: unknown } }

/**
 * Masks what differs between the runs' first ACKNOWLEDGE: its uuid, and its task, because updates
 * arrived in a different order (samples/INDEX.md).
 */
function maskAcknowledge(value: unknown): unknown {
  const masked = maskRunSpecific(value) as AcknowledgeLike;
  if (masked.acknowledge !== undefined) {
    masked.acknowledge.uuid = '<uuid>';
    if (masked.acknowledge.taskId !== undefined) masked.acknowledge.taskId = '<task>';
    if (masked.acknowledge.task_id !== undefined) masked.acknowledge.task_id = '<task>';
  }
  return masked;
}

t.test('every recorded protobuf call decodes to what pb/decoded says and re-encodes byte for byte', async (t) => {
  let count = 0;
  for (const { calls, decoded } of PB_CALL_DIRS) {
    for (const name of listSamples(calls, '.bin')) {
      const bytes = readSample(`${calls}/${name}`);
      const call = decodeCall(bytes, 'protobuf');
      t.strictSame(call, toModelShape(readSampleJson(`${decoded}/${name.replace(/\.bin$/, '.json')}`)), `${calls}/${name} decodes`);
      t.strictSame(encodeCall(call, 'protobuf'), bytes, `${calls}/${name} re-encodes to the accepted bytes`);
      count += 1;
    }
  }
  t.equal(count, 12 + 3);
});

t.test('every recorded JSON call decodes, and our JSON encoding of it matches the recorded body', async (t) => {
  for (const dir of JSON_CALL_DIRS) {
    for (const name of listSamples(dir, '.json')) {
      const recorded = readSampleJson(`${dir}/${name}`);
      const call = decodeCall(readSample(`${dir}/${name}`), 'json');
      t.strictSame(call, toModelShape(recorded), `${dir}/${name} decodes`);
      t.same(parseJsonBytes(encodeCall(call, 'json')), recorded, `${dir}/${name} re-encodes to the same JSON`);
    }
  }
});

t.test('a protobuf call and the JSON call of the same story step carry the same content', async (t) => {
  for (const name of listSamples('pb/calls', '.bin')) {
    const jsonName = name.replace(/\.bin$/, '.json');
    const fromPb = decodeCall(readSample(`pb/calls/${name}`), 'protobuf');
    const fromJson = decodeCall(readSample(`json/calls/${jsonName}`), 'json');
    t.strictSame(maskAcknowledge(fromPb), maskAcknowledge(fromJson), `${name} ~ ${jsonName} (model)`);
    t.same(maskAcknowledge(parseJsonBytes(encodeCall(fromPb, 'json'))), maskAcknowledge(readSampleJson(`json/calls/${jsonName}`)), `${name} in our JSON ~ recorded ${jsonName}`);
  }
});

t.test('the recorded empty RECONCILE keeps its empty sub-message', async (t) => {
  const call = decodeCall(readSample('pb/calls/09-RECONCILE.bin'), 'protobuf');
  t.strictSame(call.reconcile, {});
  t.match(Buffer.from(encodeCall(call, 'json')).toString('utf8'), /"reconcile":\{\}/);
});

t.test('decoded resources never gain proto2 defaults (no role "*" where none was sent)', async (t) => {
  const accept = decodeCall(readSample('pb/calls/02-ACCEPT.bin'), 'protobuf');
  const task = accept.accept?.operations?.[0]?.launch?.taskInfos?.[0];
  t.strictSame(task?.resources?.[0], { name: 'cpus', type: 'SCALAR', scalar: { value: 0.1 }, allocationInfo: { role: '*' } });
  t.equal(task?.command?.shell, true, 'an explicitly sent default is kept');
  t.equal(task?.healthCheck, undefined);
});

/** What the driver knows when it builds calls: ids from the recorded protobuf run's events. */
function recordedContext(): { frameworkId: FrameworkID; agentId: AgentID; offerPrefix: string; firstStatus: TaskStatus } {
  const subscribed = decodeEvent(readSample('pb/events/001-SUBSCRIBED.bin'), 'protobuf').subscribed;
  const offer = decodeEvent(readSample('pb/events/003-OFFERS.bin'), 'protobuf').offers?.offers?.[0];
  const firstStatus = decodeEvent(readSample('pb/events/004-UPDATE.bin'), 'protobuf').update?.status;
  if (subscribed === undefined || offer === undefined || firstStatus === undefined) throw new Error('samples changed');
  return { frameworkId: subscribed.frameworkId, agentId: offer.agentId, offerPrefix: offer.id.value.replace(/O0$/, 'O'), firstStatus };
}

t.test('calls built from the model encode to exactly the bytes the master accepted', async (t) => {
  const { frameworkId, agentId, offerPrefix, firstStatus } = recordedContext();
  const roles = ['*'];
  const cases: { recorded: string; call: Call }[] = [
    {
      recorded: '01-SUBSCRIBE.bin',
      call: {
        type: 'SUBSCRIBE',
        subscribe: {
          frameworkInfo: {
            user: 'root',
            name: 'wire-recorder',
            roles,
            failoverTimeout: 0,
            checkpoint: true,
            capabilities: [{ type: 'MULTI_ROLE' }, { type: 'PARTITION_AWARE' }, { type: 'TASK_KILLING_STATE' }],
          },
        },
      },
    },
    {
      recorded: '03-ACKNOWLEDGE.bin',
      call: {
        frameworkId,
        type: 'ACKNOWLEDGE',
        acknowledge: { agentId: firstStatus.agentId as AgentID, taskId: firstStatus.taskId, uuid: firstStatus.uuid as Uint8Array },
      },
    },
    {
      recorded: '05-DECLINE.bin',
      call: { frameworkId, type: 'DECLINE', decline: { offerIds: [{ value: `${offerPrefix}2` }], filters: { refuseSeconds: 5 } } },
    },
    {
      recorded: '06-KILL.bin',
      call: {
        frameworkId,
        type: 'KILL',
        kill: { taskId: { value: 'cmd-sleep' }, agentId, killPolicy: { gracePeriod: { nanoseconds: 3_000_000_000 } } },
      },
    },
    { recorded: '07-KILL.bin', call: { frameworkId, type: 'KILL', kill: { taskId: { value: 'grp-sleep' }, agentId } } },
    {
      recorded: '08-RECONCILE.bin',
      call: {
        frameworkId,
        type: 'RECONCILE',
        reconcile: {
          tasks: [
            { taskId: { value: 'x-running' }, agentId },
            { taskId: { value: 'ghost-task' }, agentId },
            { taskId: { value: 'ghost-task-no-agent' } },
          ],
        },
      },
    },
    { recorded: '09-RECONCILE.bin', call: { frameworkId, type: 'RECONCILE', reconcile: {} } },
    { recorded: '10-SUPPRESS.bin', call: { frameworkId, type: 'SUPPRESS', suppress: { roles } } },
    { recorded: '11-REVIVE.bin', call: { frameworkId, type: 'REVIVE', revive: { roles } } },
    { recorded: '12-TEARDOWN.bin', call: { frameworkId, type: 'TEARDOWN' } },
  ];
  for (const { recorded, call } of cases) {
    t.strictSame(encodeCall(call, 'protobuf'), readSample(`pb/calls/${recorded}`), recorded);
  }
});

t.test('a resubscription carries the framework id in both places (failover sample)', async (t) => {
  const frameworkId = decodeCall(readSample('pb/failover/calls/02-SUBSCRIBE.bin'), 'protobuf').frameworkId as FrameworkID;
  const call: Call = {
    frameworkId,
    type: 'SUBSCRIBE',
    subscribe: {
      frameworkInfo: {
        user: 'root',
        name: 'wire-recorder-failover',
        id: frameworkId,
        failoverTimeout: 60,
        checkpoint: true,
        capabilities: [{ type: 'MULTI_ROLE' }, { type: 'PARTITION_AWARE' }, { type: 'TASK_KILLING_STATE' }],
        roles: ['*'],
      },
    },
  };
  t.strictSame(encodeCall(call, 'protobuf'), readSample('pb/failover/calls/02-SUBSCRIBE.bin'));
});
