import t from 'tap';
import { statusFromMesos, TASK_STATE_FROM_MESOS, unknownTaskState } from '../../../../src/cluster/mesos/translate/status-from-mesos';
import { uuidFromBytes, uuidToBytes } from '../../../../src/cluster/mesos/translate/uuid-bytes';
import type { TaskState as MesosTaskState, TaskStatus as MesosTaskStatus } from '../../../../src/cluster/mesos/codec/mesos-model';
import { isTerminalTaskState, TASK_STATES } from '../../../../src/scheduler/model/task-state';
import { makeMesosStatus, recordedEvent, recordedEventFiles } from './mesos-builders';

const ALL_MESOS_STATES: readonly MesosTaskState[] = [
  'TASK_STAGING', 'TASK_STARTING', 'TASK_RUNNING', 'TASK_KILLING', 'TASK_FINISHED', 'TASK_FAILED', 'TASK_KILLED',
  'TASK_ERROR', 'TASK_LOST', 'TASK_DROPPED', 'TASK_UNREACHABLE', 'TASK_GONE', 'TASK_GONE_BY_OPERATOR', 'TASK_UNKNOWN',
];

t.test('every Mesos task state maps to the core state of the same name', async (t) => {
  const terminal = ['TASK_FINISHED', 'TASK_FAILED', 'TASK_KILLED', 'TASK_ERROR', 'TASK_LOST', 'TASK_DROPPED', 'TASK_GONE', 'TASK_GONE_BY_OPERATOR'];
  for (const state of ALL_MESOS_STATES) {
    const status = statusFromMesos(makeMesosStatus(state));
    t.equal(status.state, state, state);
    t.equal(isTerminalTaskState(status.state), terminal.includes(state), `${state} terminal: ${terminal.includes(state)}`);
  }
  t.same(Object.keys(TASK_STATE_FROM_MESOS).sort(), [...TASK_STATES].sort(), 'the table covers the core\'s states');
});

t.test('optional fields: copied when present, absent otherwise (presence, not truthiness)', async (t) => {
  const uuid = Uint8Array.from([0xad, 0xc0, 0x4b, 0xf8, 0x72, 0x25, 0x43, 0x8a, 0xa4, 0x2c, 0xf3, 0xbe, 0xa7, 0xec, 0x01, 0x27]);
  const cases: { name: string; status: MesosTaskStatus; want: Record<string, unknown> }[] = [
    { name: 'bare', status: makeMesosStatus('TASK_STARTING'), want: { taskId: 'web.instance-1._app.1', state: 'TASK_STARTING' } },
    {
      name: 'executor health update',
      status: makeMesosStatus('TASK_RUNNING', { agentId: { value: 'S1' }, healthy: false, reason: 'REASON_TASK_HEALTH_CHECK_STATUS_UPDATED', source: 'SOURCE_EXECUTOR', uuid, timestamp: 1795336562.78 }),
      want: { taskId: 'web.instance-1._app.1', agentId: 'S1', state: 'TASK_RUNNING', healthy: false, reason: 'REASON_TASK_HEALTH_CHECK_STATUS_UPDATED', uuid: 'rcBL+HIlQ4qkLPO+p+wBJw==' },
    },
    {
      name: 'master reconciliation answer: no uuid, nothing to acknowledge',
      status: makeMesosStatus('TASK_GONE', { agentId: { value: 'S1' }, message: 'Reconciliation: Task is unknown to the agent', reason: 'REASON_RECONCILIATION', source: 'SOURCE_MASTER' }),
      want: { taskId: 'web.instance-1._app.1', agentId: 'S1', state: 'TASK_GONE', message: 'Reconciliation: Task is unknown to the agent', reason: 'REASON_RECONCILIATION' },
    },
    {
      name: 'an unreachable task: the master\'s unreachable time, ns to ms',
      status: makeMesosStatus('TASK_UNREACHABLE', { agentId: { value: 'S1' }, reason: 'REASON_AGENT_REMOVED', source: 'SOURCE_MASTER', unreachableTime: { nanoseconds: 1_795_336_562_781_999_999n } }),
      want: { taskId: 'web.instance-1._app.1', agentId: 'S1', state: 'TASK_UNREACHABLE', reason: 'REASON_AGENT_REMOVED', unreachableSinceMs: 1_795_336_562_781 },
    },
    {
      name: 'the zero reason and an empty message are real values',
      status: makeMesosStatus('TASK_FAILED', { reason: 'REASON_COMMAND_EXECUTOR_FAILED', message: '', healthy: true }),
      want: { taskId: 'web.instance-1._app.1', state: 'TASK_FAILED', reason: 'REASON_COMMAND_EXECUTOR_FAILED', message: '', healthy: true },
    },
    { name: 'an empty uuid is no uuid', status: makeMesosStatus('TASK_RUNNING', { uuid: new Uint8Array(0) }), want: { taskId: 'web.instance-1._app.1', state: 'TASK_RUNNING' } },
  ];
  for (const c of cases) t.strictSame(statusFromMesos(c.status), c.want, c.name);
});

t.test('container addresses: every network\'s, in order, the proto\'s default protocol, bounded', async (t) => {
  const ip = (ipAddress?: string, protocol?: 'IPv4' | 'IPv6') => ({ ...(ipAddress === undefined ? {} : { ipAddress }), ...(protocol === undefined ? {} : { protocol }) });
  const many = Array.from({ length: 20 }, (_, i) => ip(`10.0.0.${i}`));
  const cases: { name: string; networkInfos: { ipAddresses?: { ipAddress?: string; protocol?: 'IPv4' | 'IPv6' }[] }[]; want: unknown }[] = [
    { name: 'none', networkInfos: [], want: undefined },
    { name: 'a network without addresses', networkInfos: [{}], want: undefined },
    { name: 'two networks', networkInfos: [{ ipAddresses: [ip('10.1.2.3')] }, { ipAddresses: [ip('fd00::1', 'IPv6'), ip('10.9.9.9', 'IPv4')] }], want: [{ ipAddress: '10.1.2.3', protocol: 'IPv4' }, { ipAddress: 'fd00::1', protocol: 'IPv6' }, { ipAddress: '10.9.9.9', protocol: 'IPv4' }] },
    { name: 'an entry without an address is skipped', networkInfos: [{ ipAddresses: [ip(undefined, 'IPv4'), ip(''), ip('10.0.0.1')] }], want: [{ ipAddress: '10.0.0.1', protocol: 'IPv4' }] },
    { name: 'an address longer than 64 characters is dropped', networkInfos: [{ ipAddresses: [ip('1'.repeat(65)), ip('10.0.0.2')] }], want: [{ ipAddress: '10.0.0.2', protocol: 'IPv4' }] },
    { name: 'the first 16 of 20', networkInfos: [{ ipAddresses: many.slice(0, 10) }, { ipAddresses: many.slice(10) }], want: many.slice(0, 16).map((a) => ({ ipAddress: a.ipAddress, protocol: 'IPv4' })) },
  ];
  for (const c of cases) {
    t.strictSame(statusFromMesos(makeMesosStatus('TASK_RUNNING', { containerStatus: { networkInfos: c.networkInfos } })).ipAddresses, c.want, c.name);
  }
});

t.test('a state a newer Mesos added: named by unknownTaskState, never turned into a core state', async (t) => {
  const future = { ...makeMesosStatus('TASK_RUNNING', { agentId: { value: 'S1' } }), state: 'UNRECOGNIZED:15' } as MesosTaskStatus;
  t.equal(unknownTaskState(future), '15');
  t.equal(unknownTaskState({ ...future, state: 'UNRECOGNIZED:TASK_NEW' } as MesosTaskStatus), 'TASK_NEW');
  t.throws(() => statusFromMesos(future), /unknown Mesos task state 15/, 'statusFromMesos refuses it: the driver keeps it from the core');
  for (const state of ALL_MESOS_STATES) t.equal(unknownTaskState(makeMesosStatus(state)), undefined, state);
});

t.test('uuid: base64 in the core, the same bytes back for ACKNOWLEDGE', async (t) => {
  const samples = [new Uint8Array(0), Uint8Array.from([0]), Uint8Array.from([255, 254]), Uint8Array.from(Array.from({ length: 16 }, (_, i) => i * 17))];
  for (const bytes of samples) {
    const text = uuidFromBytes(bytes);
    t.strictSame(uuidToBytes(text), bytes, `round trip of ${bytes.length} bytes (${text})`);
  }
  const backing = Uint8Array.from([9, 9, 1, 2, 3, 9]);
  t.equal(uuidFromBytes(backing.subarray(2, 5)), 'AQID', 'a view into a larger buffer encodes only its own bytes');
  t.equal(uuidToBytes('rcBL+HIlQ4qkLPO+p+wBJw==').length, 16);
  for (const bad of ['not base64!', 'abc', 'rcBL-HIlQ4qkLPO_p-wBJw==', 'AB=C']) t.throws(() => uuidToBytes(bad), /not a base64 status uuid/, bad);
});

const recordedUpdates = recordedUpdateEvents();

t.test('every update recorded from a real master', async (t) => {
  for (const { file, raw } of recordedUpdates) {
    const uuid = typeof raw.uuid === 'string' ? raw.uuid : undefined;
    const status = { ...raw, uuid: uuid === undefined ? undefined : uuidToBytes(uuid) } as unknown as MesosTaskStatus;
    const converted = statusFromMesos(status);
    const want: Record<string, unknown> = { taskId: status.taskId.value, state: status.state };
    if (status.agentId !== undefined) want.agentId = status.agentId.value;
    if (status.reason !== undefined) want.reason = status.reason;
    if (status.message !== undefined) want.message = status.message;
    if (status.healthy !== undefined) want.healthy = status.healthy;
    if (uuid !== undefined) want.uuid = uuid;
    const ips = (status.containerStatus?.networkInfos ?? []).flatMap((n) => n.ipAddresses ?? []);
    if (ips.length > 0) want.ipAddresses = ips.map((ip) => ({ ipAddress: ip.ipAddress, protocol: ip.protocol ?? 'IPv4' }));
    t.strictSame(converted, want, `${file}: ${status.taskId.value} ${status.state}`);
  }
  const withIps = recordedUpdates.filter((u) => statusFromMesos(u.raw as unknown as MesosTaskStatus).ipAddresses !== undefined);
  t.ok(withIps.length > 0, `the real master's updates give container addresses (${withIps.length} of ${recordedUpdates.length})`);
  t.strictSame(statusFromMesos(withIps[0].raw as unknown as MesosTaskStatus).ipAddresses, [{ ipAddress: '127.0.0.1', protocol: 'IPv4' }], 'the recorded agent\'s address');
  const sources = recordedUpdates.map((u) => [u.raw.source, typeof u.raw.uuid === 'string']);
  t.ok(sources.every(([source, hasUuid]) => hasUuid === (source !== 'SOURCE_MASTER')), 'executor updates carry a uuid, master updates none');
});

/** Every recorded UPDATE event's status (camelCased, uuid still base64). */
function recordedUpdateEvents(): { file: string; raw: Record<string, unknown> }[] {
  return recordedEventFiles('UPDATE').map((file) => ({ file, raw: (recordedEvent(file).update as { status: Record<string, unknown> }).status }));
}
