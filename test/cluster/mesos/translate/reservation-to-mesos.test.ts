import t from 'tap';
import { decodeCall, encodeCall } from '../../../../src/cluster/mesos/codec/mesos-codec';
import type { OfferOperation, Offer as MesosOffer, Resource } from '../../../../src/cluster/mesos/codec/mesos-model';
import { launchesToMesos } from '../../../../src/cluster/mesos/translate/launch-to-mesos';
import { offerFromMesos } from '../../../../src/cluster/mesos/translate/offer-from-mesos';
import { reservationLabels } from '../../../../src/cluster/mesos/translate/reservation-labels';
import { acceptCall } from '../../../../src/cluster/mesos/translate/scheduler-calls';
import type { OfferOperation as CoreOperation } from '../../../../src/scheduler/model/launch';
import type { OfferedPool } from '../../../../src/scheduler/model/offer';
import type { PersistentVolume } from '../../../../src/scheduler/model/reservation';
import { makeTaskLaunch } from '../../../builders/launch-builders';
import { makeMesosOffer, portsResource, resourceSet, scalarResource, type ResourceOverrides } from './mesos-builders';

const FW = 'F1';
const ID = 'web.instance-1';
const ROLE = 'web';
const LABELS = reservationLabels(FW, ID);
const VOLUME: PersistentVolume = { persistenceId: `${ID}#vol0`, containerPath: 'data', diskMilli: 100_000 };
/** The instance's reservation: its task's 0.1 cpus, 64 MiB, 10 MiB disk and one port, plus the 100 MiB volume. */
const AMOUNTS = { cpusMilli: 100, memMilli: 64_000, diskMilli: 110_000, gpus: 0, ports: [[31000, 31000]] as [number, number][] };
const UNRESERVED_TAKE: OfferedPool = { ...AMOUNTS };
const ON_RESERVATION: OfferedPool = { reservedFor: ROLE, reservationId: ID, ...AMOUNTS };

/** A pre-refinement dynamic reservation of the instance (how a master without RESERVATION_REFINEMENT offers it). */
const PRE: ResourceOverrides = { role: ROLE, reservation: { principal: 'pacer', labels: LABELS }, allocationRole: ROLE };
/** The same reservation in the post-refinement format. */
const POST: ResourceOverrides = { reservations: [{ type: 'DYNAMIC', role: ROLE, principal: 'pacer', labels: LABELS }], allocationRole: ROLE };

function volumeResource(size: number, o: ResourceOverrides): Resource {
  return scalarResource('disk', size, { ...o, extra: { disk: { persistence: { id: VOLUME.persistenceId, principal: 'pacer' }, volume: { containerPath: 'data', mode: 'RW' } } } });
}

/** An offer of the agent after RESERVE + CREATE: the reservation with its volume, and unreserved resources. */
function reservedOffer(o: ResourceOverrides, unreserved: ResourceOverrides = { role: '*', allocationRole: ROLE }): MesosOffer {
  return makeMesosOffer({
    allocationRole: ROLE,
    resources: [
      ...resourceSet({ cpus: 3.9, mem: 4032, disk: 9890, ports: [[31001, 32000]] }, unreserved),
      scalarResource('cpus', 0.1, o), scalarResource('mem', 64, o), scalarResource('disk', 10, o), volumeResource(100, o), portsResource([[31000, 31000]], o),
    ],
  });
}

const launch = (allocation: OfferedPool, volumes?: readonly PersistentVolume[]): CoreOperation => ({
  kind: 'launch',
  allocation: [allocation],
  task: makeTaskLaunch({
    taskId: `${ID}._app.1`, instanceId: ID, agentId: 'S1', role: ROLE, hostPorts: [31000],
    resources: { cpusMilli: 100, memMilli: 64_000, diskMilli: 10_000, gpus: 0 }, ...(volumes === undefined ? {} : { persistentVolumes: volumes }),
  }),
});

interface Case {
  readonly name: string;
  readonly offer: MesosOffer;
  readonly ops: readonly CoreOperation[];
  readonly want: readonly OfferOperation[];
}

const reserveOp: CoreOperation = { kind: 'reserve', agentId: 'S1', reservationId: ID, role: ROLE, allocation: [UNRESERVED_TAKE] };
const createOp: CoreOperation = { kind: 'create', agentId: 'S1', reservationId: ID, role: ROLE, volumes: [VOLUME] };
const destroyOp: CoreOperation = { kind: 'destroy', agentId: 'S1', reservationId: ID, role: ROLE, volumes: [VOLUME] };
const unreserveOp: CoreOperation = { kind: 'unreserve', agentId: 'S1', reservationId: ID, role: ROLE, allocation: [ON_RESERVATION] };

const CASES: readonly Case[] = [
  {
    name: 'first launch: RESERVE (pre-refinement, labelled, with the principal), CREATE, LAUNCH on the reservation',
    offer: makeMesosOffer({ allocationRole: ROLE }),
    ops: [reserveOp, createOp, launch(ON_RESERVATION, [VOLUME])],
    want: [
      { type: 'RESERVE', reserve: { resources: [scalarResource('cpus', 0.1, PRE), scalarResource('mem', 64, PRE), scalarResource('disk', 110, PRE), portsResource([[31000, 31000]], PRE)] } },
      { type: 'CREATE', create: { volumes: [volumeResource(100, PRE)] } },
      { type: 'LAUNCH', launch: { taskInfos: [{ resources: [volumeResource(100, PRE), scalarResource('cpus', 0.1, PRE), scalarResource('mem', 64, PRE), scalarResource('disk', 10, PRE), portsResource([[31000, 31000]], PRE)] } as never] } },
    ],
  },
  {
    name: 'first launch on a post-refinement offer: the reservation is pushed on the stack',
    offer: makeMesosOffer({ allocationRole: ROLE, resources: resourceSet({ cpus: 4, mem: 4096, disk: 10_000, ports: [[31000, 32000]] }, { reservations: [], allocationRole: ROLE }) }),
    ops: [reserveOp],
    want: [{ type: 'RESERVE', reserve: { resources: [scalarResource('cpus', 0.1, POST), scalarResource('mem', 64, POST), scalarResource('disk', 110, POST), portsResource([[31000, 31000]], POST)] } }],
  },
  {
    name: 'relaunch: the task takes its reservation and its volume as offered',
    offer: reservedOffer(PRE),
    ops: [launch(ON_RESERVATION, [VOLUME])],
    want: [{ type: 'LAUNCH', launch: { taskInfos: [{ resources: [volumeResource(100, PRE), scalarResource('cpus', 0.1, PRE), scalarResource('mem', 64, PRE), scalarResource('disk', 10, PRE), portsResource([[31000, 31000]], PRE)] } as never] } }],
  },
  {
    name: 'release: DESTROY the volume as offered, then UNRESERVE the whole reservation (its freed disk included)',
    offer: reservedOffer(POST, { reservations: [], allocationRole: ROLE }),
    ops: [destroyOp, unreserveOp],
    want: [
      { type: 'DESTROY', destroy: { volumes: [volumeResource(100, POST)] } },
      { type: 'UNRESERVE', unreserve: { resources: [scalarResource('cpus', 0.1, POST), scalarResource('mem', 64, POST), scalarResource('disk', 10, POST), scalarResource('disk', 100, POST), portsResource([[31000, 31000]], POST)] } },
    ],
  },
];

/** Only what the table states of a TaskInfo: its resources. */
function comparable(ops: readonly OfferOperation[]): unknown {
  return ops.map((op) => (op.launch === undefined ? op : { ...op, launch: { taskInfos: (op.launch.taskInfos ?? []).map((info) => ({ resources: info.resources })) } }));
}

t.test('reservation operations and launches on reservations, as Mesos operations, through the protobuf codec', async (t) => {
  for (const c of CASES) {
    const ops = launchesToMesos(c.ops, { frameworkId: FW, offer: c.offer, principal: 'pacer' });
    t.strictSame(comparable(ops), comparable(c.want), c.name);
    const call = acceptCall(FW, c.offer.id.value, ops, 0);
    const decoded = decodeCall(encodeCall(call, 'protobuf'), 'protobuf');
    t.same(comparable(decoded.accept?.operations ?? []), comparable(c.want), `${c.name}: the same after the protobuf wire`);
  }
});

t.test('operations that do not fit the offer throw (a core bug: nothing is sent)', async (t) => {
  const rows: readonly { name: string; offer: MesosOffer; ops: readonly CoreOperation[]; error: RegExp }[] = [
    { name: 'CREATE without the reservation', offer: makeMesosOffer({ allocationRole: ROLE }), ops: [createOp], error: /missing for reservation web.instance-1/ },
    { name: 'DESTROY of a volume not offered', offer: makeMesosOffer({ allocationRole: ROLE }), ops: [destroyOp], error: /persistent volume .* is not offered/ },
    { name: 'a relaunch on another framework\'s reservation', offer: reservedOffer({ ...PRE, reservation: { principal: 'pacer', labels: reservationLabels('OTHER', ID) } }), ops: [launch(ON_RESERVATION, [VOLUME])], error: /not offered on reservation/ },
  ];
  for (const row of rows) t.throws(() => launchesToMesos(row.ops, { frameworkId: FW, offer: row.offer, principal: 'pacer' }), row.error, row.name);
});

t.test('offers: this framework\'s labelled reservations and volumes are pools of their own; others are not', async (t) => {
  const rows: readonly { name: string; offer: MesosOffer; frameworkId?: string; want: readonly OfferedPool[] }[] = [
    {
      name: 'pre-refinement reservation with its volume',
      offer: reservedOffer(PRE), frameworkId: FW,
      want: [{ cpusMilli: 3900, memMilli: 4_032_000, diskMilli: 9_890_000, gpus: 0, ports: [[31001, 32000]] }, { reservedFor: ROLE, reservationId: ID, volumes: [VOLUME], ...AMOUNTS }],
    },
    {
      name: 'post-refinement reservation with its volume',
      offer: reservedOffer(POST, { reservations: [], allocationRole: ROLE }), frameworkId: FW,
      want: [{ cpusMilli: 3900, memMilli: 4_032_000, diskMilli: 9_890_000, gpus: 0, ports: [[31001, 32000]] }, { reservedFor: ROLE, reservationId: ID, volumes: [VOLUME], ...AMOUNTS }],
    },
    {
      name: 'another framework\'s reservation and its volume are left out (never launched on)',
      offer: reservedOffer(PRE), frameworkId: 'OTHER',
      want: [{ cpusMilli: 3900, memMilli: 4_032_000, diskMilli: 9_890_000, gpus: 0, ports: [[31001, 32000]] }],
    },
  ];
  for (const row of rows) t.strictSame(offerFromMesos(row.offer, row.frameworkId).pools, row.want, row.name);
});

t.test('a resident pod: the executor holds the volume, the containers mount it from its sandbox', async (t) => {
  const executorResources = { cpusMilli: 100, memMilli: 32_000, diskMilli: 10_000, gpus: 0 };
  const task = makeTaskLaunch({
    taskId: `${ID}.c.1`, instanceId: ID, containerName: 'c', agentId: 'S1', role: ROLE, resources: { cpusMilli: 0, memMilli: 32_000, diskMilli: 0, gpus: 0 },
    persistentVolumes: [VOLUME], volumes: [{ kind: 'sandbox', containerPath: '/var/data', path: 'data', mode: 'RW' }],
  });
  const group: CoreOperation = {
    kind: 'launchGroup', executorId: `instance-${ID}.1`, executorResources, labels: {}, networking: { mode: 'host', networks: [], portMappings: [] },
    tasks: [task], allocation: [{ reservedFor: ROLE, reservationId: ID, cpusMilli: 100, memMilli: 64_000, diskMilli: 110_000, gpus: 0, ports: [] }],
  };
  const o: ResourceOverrides = PRE;
  const offer = makeMesosOffer({ allocationRole: ROLE, resources: [scalarResource('cpus', 0.1, o), scalarResource('mem', 64, o), scalarResource('disk', 10, o), volumeResource(100, o)] });
  const [op] = launchesToMesos([group], { frameworkId: FW, offer, principal: 'pacer' });
  t.strictSame(op.launchGroup?.executor.resources, [volumeResource(100, o), scalarResource('cpus', 0.1, o), scalarResource('mem', 32, o), scalarResource('disk', 10, o)]);
  t.strictSame(op.launchGroup?.taskGroup.tasks?.[0]?.resources, [scalarResource('mem', 32, o)]);
  t.strictSame(op.launchGroup?.taskGroup.tasks?.[0]?.container?.volumes, [{ containerPath: '/var/data', mode: 'RW', source: { type: 'SANDBOX_PATH', sandboxPath: { type: 'PARENT', path: 'data' } } }]);
});
