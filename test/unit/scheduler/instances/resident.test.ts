import t from 'tap';
import type { Offer, OfferedPool } from '../../../../src/scheduler/model/offer';
import type { DriverCall } from '../../../harness/recording-driver';
import { makeAgent, makeOffer } from '../../../builders/cluster-builders';
import { makeApp } from '../../../builders/run-spec-builders';
import { Harness } from '../../../harness/core-harness';

/*
 * Resident instances in the core: the first launch reserves and creates the volume in the same
 * ACCEPT; a failed or killed instance relaunches only on its own reservation (never elsewhere); a
 * scale-down or delete destroys and unreserves before the instance is forgotten; reservations of
 * no known instance are released.
 */

const VOLUME_MIB = 100;
const resident = (instances = 1) => makeApp({ id: '/db', role: 'db', instances, resident: true, cpus: 0.5, mem: 64, container: { type: 'MESOS', portMappings: [], volumes: [{ kind: 'persistent', containerPath: 'data', mode: 'RW', persistent: { size: VOLUME_MIB, constraints: [] } }] } });
const agentA = makeAgent({ hostname: 'a' });
const agentB = makeAgent({ hostname: 'b' });

/** The offered reservation of instance `id` on `agent` (what the master offers once its task ended). */
function reservationOffer(agent: typeof agentA, id: string, volumes = true, extra: Partial<OfferedPool> = {}): Offer {
  const pool: OfferedPool = {
    reservedFor: 'db', reservationId: id, cpusMilli: 500, memMilli: 64_000, diskMilli: VOLUME_MIB * 1000, gpus: 0, ports: [],
    ...(volumes ? { volumes: [{ persistenceId: `${id}#vol0`, containerPath: 'data', diskMilli: VOLUME_MIB * 1000 }] } : {}),
    ...extra,
  };
  return { ...makeOffer({ agent, cpus: 4 }), pools: [...makeOffer({ agent, cpus: 4 }).pools, pool] };
}

function accepts(h: Harness): Extract<DriverCall, { type: 'accept' }>[] {
  return h.calls('accept') as Extract<DriverCall, { type: 'accept' }>[];
}

t.test('the first launch: RESERVE, CREATE, LAUNCH on the reservation, in one ACCEPT', async (t) => {
  const h = new Harness({ options: { defaultRole: 'db' } });
  h.put(resident());
  const [task] = h.offer(makeOffer({ agent: agentA }));
  const accept = accepts(h).at(-1);
  t.same(accept?.reservations.map((r) => r.kind), ['reserve', 'create']);
  t.match(accept?.reservations[0], { kind: 'reserve', role: 'db', reservationId: task.instanceId, allocation: [{ cpusMilli: 500, memMilli: 64_000, diskMilli: 100_000 }] }, 'the task and its volume are reserved from unreserved resources');
  t.match(accept?.reservations[1], { kind: 'create', volumes: [{ persistenceId: `${task.instanceId}#vol0`, containerPath: 'data', diskMilli: 100_000 }] });
  t.match(accept?.operations[0].allocation, [{ reservedFor: 'db', reservationId: task.instanceId }], 'the launch uses the reservation');
  t.same(task.persistentVolumes?.map((v) => v.containerPath), ['data'], 'the task gets its volume');
});

t.test('a failed or killed resident instance relaunches only on its own reservation', async (t) => {
  const cases = [
    { name: 'failed', end: 'TASK_FAILED' as const },
    { name: 'killed by the agent', end: 'TASK_KILLED' as const },
    { name: 'lost with its agent', end: 'TASK_GONE' as const },
  ];
  for (const c of cases) {
    const h = new Harness({ options: { defaultRole: 'db' } });
    h.put(resident());
    const [first] = h.offer(makeOffer({ agent: agentA }));
    h.run(first);
    h.status(first.taskId, c.end);
    h.advance(600_000);
    t.same(h.offer(makeOffer({ agent: agentB }), makeOffer({ agent: agentA })), [], `${c.name}: no launch on offers without its reservation`);
    t.same(h.offer(reservationOffer(agentB, 'other.instance-x', true)).length, 0, `${c.name}: nor on another instance's reservation`);
    const again = h.offer(reservationOffer(agentA, first.instanceId));
    t.equal(again.length, 1, `${c.name}: relaunched on its reservation`);
    t.equal(again[0]?.instanceId, first.instanceId, `${c.name}: the same instance`);
    t.equal(again[0]?.agentId, agentA.agentId, `${c.name}: on the same agent`);
    t.same(accepts(h).at(-1)?.reservations, [], `${c.name}: no new reservation`);
    t.same(again[0]?.persistentVolumes?.map((v) => v.persistenceId), [`${first.instanceId}#vol0`], `${c.name}: with its volume`);
  }
});

t.test('scale-down and delete: DESTROY + UNRESERVE, then the instance is forgotten', async (t) => {
  const cases = [
    { name: 'scale to 0', act: (h: Harness) => h.scale('/db', 0) },
    { name: 'delete', act: (h: Harness) => h.delete('/db') },
  ];
  for (const c of cases) {
    const h = new Harness({ options: { defaultRole: 'db' } });
    h.put(resident());
    const [task] = h.offer(makeOffer({ agent: agentA }));
    h.run(task);
    c.act(h);
    h.status(task.taskId, 'TASK_KILLED');
    t.equal(h.instances('/db').length, 1, `${c.name}: kept until its reservation is released`);
    t.ok(h.calls('revive').some((r) => r.type === 'revive' && r.roles.includes('db')), `${c.name}: offers of its role are wanted`);
    h.offer(reservationOffer(agentA, task.instanceId));
    t.same(accepts(h).at(-1)?.reservations.map((r) => r.kind), ['destroy', 'unreserve'], `${c.name}: destroy then unreserve`);
    t.equal(h.instances('/db').length, 0, `${c.name}: forgotten`);
  }
});

t.test('reservations of no known instance are released', async (t) => {
  const cases = [
    { name: 'with a volume', volumes: true, want: ['destroy', 'unreserve'] },
    { name: 'without volumes', volumes: false, want: ['unreserve'] },
  ];
  for (const c of cases) {
    const h = new Harness({ options: { defaultRole: 'db' } });
    h.offer(reservationOffer(agentA, 'gone.instance-1', c.volumes));
    t.same(accepts(h).at(-1)?.reservations.map((r) => r.kind), c.want, c.name);
  }
});

t.test('a restart keeps what is to be released: the stored retired instance is back in the release set', async (t) => {
  const cases = [
    { name: 'scale to 0', act: (h: Harness) => h.scale('/db', 0) },
    { name: 'delete', act: (h: Harness) => h.delete('/db') },
  ];
  for (const c of cases) {
    const before = new Harness({ options: { defaultRole: 'db' } });
    before.put(resident());
    const [task] = before.offer(makeOffer({ agent: agentA }));
    before.run(task);
    c.act(before);
    before.status(task.taskId, 'TASK_KILLED');
    const h = new Harness({ options: { defaultRole: 'db' }, stored: before.store.load() });
    t.same(h.instances('/db').map((i) => [i.instanceId, i.goal, i.reservation?.agentId]), [[task.instanceId, 'Decommissioned', task.agentId]], `${c.name}: the retired instance is recovered with its reservation`);
    t.ok(h.calls('revive').some((r) => r.type === 'revive' && r.roles.includes('db')), `${c.name}: offers of its role are wanted after the restart`);
    h.offer(reservationOffer(agentA, task.instanceId));
    t.same(accepts(h).at(-1)?.reservations.map((r) => r.kind), ['destroy', 'unreserve'], `${c.name}: destroy then unreserve after the restart`);
    t.equal(h.instances('/db').length, 0, `${c.name}: forgotten`);
  }
});

t.test('a first launch that ended without word from an agent is placed afresh (its reservation may not exist)', async (t) => {
  const cases = [
    { name: 'dropped by the driver (the ACCEPT never reached the master)', state: 'TASK_DROPPED' as const, reason: 'REASON_INVALID_OFFERS' },
    { name: 'refused by the master', state: 'TASK_ERROR' as const, reason: 'REASON_TASK_INVALID' },
  ];
  for (const c of cases) {
    const h = new Harness({ options: { defaultRole: 'db' } });
    h.put(resident());
    const [first] = h.offer(makeOffer({ agent: agentA }));
    h.status(first.taskId, c.state, { reason: c.reason });
    t.equal(h.instances('/db')[0]?.reservation, undefined, `${c.name}: the reservation is forgotten`);
    h.advance(600_000);
    const [again] = h.offer(makeOffer({ agent: agentB }));
    t.equal(again?.instanceId, first.instanceId, `${c.name}: the same instance is placed afresh`);
    t.same(accepts(h).at(-1)?.reservations.map((r) => r.kind), ['reserve', 'create'], `${c.name}: with a new RESERVE and CREATE`);
    // Had the first RESERVE happened after all, that reservation is an orphan: released.
    h.offer(reservationOffer(agentA, first.instanceId));
    t.same(accepts(h).at(-1)?.reservations.map((r) => r.kind), ['destroy', 'unreserve'], `${c.name}: the orphan reservation on the first agent is released`);
  }
});

t.test('an instance with a reservation left from when its app was resident waits for that reservation', async (t) => {
  // A store whose app is no longer resident but whose instance still holds its reservation (its
  // task failed while the app was resident). The instance is the only one of a non-resident app
  // whose instances all run under the app's role, the case where the matcher reads no queue head
  // until it places it (matcher/match-offers.ts): it must still not be placed on a plain offer.
  const before = new Harness({ options: { defaultRole: 'db' } });
  before.put(resident());
  const [first] = before.offer(makeOffer({ agent: agentA }));
  before.run(first);
  before.status(first.taskId, 'TASK_FAILED');
  const stored = before.store.load();
  const plain = makeApp({ id: '/db', role: 'db', instances: 1, cpus: 0.5, mem: 64 });
  const h = new Harness({
    options: { defaultRole: 'db' }, startMs: before.nowMs,
    stored: { ...stored, runSpecs: stored.runSpecs.map((s) => (s.id === '/db' ? { ...plain, version: s.version, versionInfo: s.versionInfo } : s)) },
  });
  t.equal(h.scheduler.runSpec('/db')?.resident, false, 'the recovered app is not resident');
  t.same(h.instances('/db').map((i) => [i.instanceId, i.condition, i.reservation?.agentId]), [[first.instanceId, 'Scheduled', agentA.agentId]], 'its instance waits with its reservation');
  h.advance(600_000);
  t.same(h.offer(makeOffer({ agent: agentB }), makeOffer({ agent: agentA })), [], 'not placed on offers without its reservation');
  const again = h.offer(reservationOffer(agentA, first.instanceId));
  t.same(again.map((l) => [l.instanceId, l.agentId]), [[first.instanceId, agentA.agentId]], 'relaunched on its reservation');
});

t.test('instances without a reservation are placed while one ahead of them waits for its own (its agent is gone)', async (t) => {
  // Marathon reserves for any scheduled instance without a reservation (InstanceOpFactoryImpl
  // maybeReserveAndCreateVolumes), so one waiting for the reservation on a lost agent holds back
  // none queued after it; offers without its reservation are refused as NoCorrespondingReservationFound.
  const cases = [
    { name: 'scale-up', act: (h: Harness) => h.scale('/db', 3) },
    { name: 'a restart of the definition', act: (h: Harness) => h.put({ ...resident(3), env: { V: '2' } }) },
  ];
  for (const c of cases) {
    const h = new Harness({ options: { defaultRole: 'db' } });
    h.put(resident());
    const [first] = h.offer(makeOffer({ agent: agentA }));
    h.run(first);
    h.status(first.taskId, 'TASK_GONE');
    t.same(h.instances('/db').map((i) => [i.condition, i.reservation?.agentId]), [['Scheduled', agentA.agentId]], `${c.name}: the lost instance waits for its reservation`);
    h.advance(600_000);
    t.same(h.offer(makeOffer({ agent: agentB })), [], `${c.name}: nothing else to place yet`);
    t.same(h.scheduler.rejections('/db')?.byReason(), { NoCorrespondingReservationFound: 1 }, `${c.name}: the offer refused for the reason Marathon gives`);
    c.act(h);
    const placed = h.offer(makeOffer({ agent: agentB, cpus: 4 }));
    t.equal(placed.length, 2, `${c.name}: both new instances placed`);
    t.notOk(placed.some((l) => l.instanceId === first.instanceId), `${c.name}: the lost one is not placed elsewhere`);
    t.same(h.instances('/db').filter((i) => i.condition === 'Scheduled').map((i) => [i.instanceId, i.reservation?.agentId]), [[first.instanceId, agentA.agentId]], `${c.name}: only the lost one still waits, on its reservation`);
  }
});

t.test('a retired resident instance killed again leaves the launch queue as it is (no core failure at the next offer)', async (t) => {
  // Found by an outside-in fuzzer on the local cluster: a resident instance waiting for its
  // reservation, deleted (retired: out of the queue, kept to release its reservation), was taken
  // out of the queue a second time — when expunged at its release, killed again by a forced second
  // delete, or by the restarted core resuming the delete: its count went to -1, and the next offer
  // failed the core ("Cannot read properties of undefined (reading 'reservation')" in the
  // matcher), at every start when the delete was resumed.
  const cases = [
    { name: 'one delete (expunged at its release)', again: (before: Harness) => before },
    {
      name: 'a forced second delete',
      again: (before: Harness) => {
        before.delete('/db', { force: true });
        return before;
      },
    },
    {
      name: 'the delete resumed after a restart',
      again: (before: Harness) => new Harness({ options: { defaultRole: 'db' }, stored: before.store.load() }),
    },
  ];
  for (const c of cases) {
    const before = new Harness({ options: { defaultRole: 'db' } });
    before.put(resident());
    const [task] = before.offer(makeOffer({ agent: agentA }));
    before.run(task);
    before.status(task.taskId, 'TASK_FAILED');
    t.equal(before.instances('/db')[0]?.condition, 'Scheduled', `${c.name}: waiting for its reservation`);
    before.delete('/db');
    const h = c.again(before);
    t.doesNotThrow(() => h.offer(makeOffer({ agent: agentB })), `${c.name}: an offer without its reservation`);
    t.doesNotThrow(() => h.offer(reservationOffer(agentA, task.instanceId)), `${c.name}: the offer of its reservation`);
    t.same(accepts(h).at(-1)?.reservations.map((r) => r.kind), ['destroy', 'unreserve'], `${c.name}: destroy then unreserve`);
    t.equal(h.instances('/db').length, 0, `${c.name}: forgotten`);
  }
});

t.test('instances still waiting for their first launch take the role of the definition that makes them resident', async (t) => {
  // Found by an outside-in fuzzer over --cluster sim ("accept: reserve for role "*": only a named
  // role can hold a reservation"): an app of role * with instances still waiting for an offer,
  // changed into a resident app of role db, kept them at role *, as if they held reservations of
  // that role (fact 114 is about instances that have one). Their first launch then reserved for
  // role *, which no master allows; on the local cluster and Mesos it never launched.
  const h = new Harness({ options: { defaultRole: '*' } });
  // In group /db: its group role db and the default role * are both allowed.
  t.ok(h.put(makeApp({ id: '/db/app', role: '*', instances: 2, cpus: 0.5, mem: 64, constraints: [{ field: 'hostname', operator: 'LIKE', value: 'nomatch' }] })).ok, 'created, role *');
  h.offer(makeOffer({ agent: agentA }));
  t.same(h.instances('/db/app').map((i) => [i.condition, i.role]), [['Scheduled', '*'], ['Scheduled', '*']], 'waiting, of role *');
  t.ok(h.put({ ...resident(2), id: '/db/app' }, { force: true }).ok, 'made resident, role db');
  t.same(h.instances('/db/app').map((i) => [i.condition, i.role]), [['Scheduled', 'db'], ['Scheduled', 'db']], 'of role db now');
  h.advance(600_000);
  const launched = h.offer(makeOffer({ agent: agentA, cpus: 4 }));
  t.equal(launched.length, 2, 'both launch');
  t.same(accepts(h).at(-1)?.reservations.filter((r) => r.kind === 'reserve').map((r) => r.role), ['db', 'db'], 'reserving for role db');
});

t.test('a relaunch on a reservation that lacks the ports the definition now needs does not launch', async (t) => {
  // Found by an outside-in fuzzer over --cluster sim ("agent over-committed in pool fz: port 31006
  // outside the agent's ranges"): a resident app given ports after its reservation was made was
  // relaunched on that reservation anyway, its host ports taken from ports the reservation does
  // not hold (a fixed port outside it) or left out (null: no $PORT0). It waits for a reservation
  // that holds them instead (Marathon relaunches a resident instance only on a reservation that
  // matches it).
  const cases = [
    { name: 'two dynamic ports', portDefinitions: [{ port: 0, protocol: 'tcp', name: 'a' }, { port: 0, protocol: 'tcp', name: 'b' }], requirePorts: false },
    { name: 'a fixed port', portDefinitions: [{ port: 31006, protocol: 'tcp', name: 'a' }], requirePorts: true },
  ];
  for (const c of cases) {
    const h = new Harness({ options: { defaultRole: 'db' } });
    h.put(resident());
    const [task] = h.offer(makeOffer({ agent: agentA }));
    h.run(task);
    t.ok(h.put({ ...resident(), portDefinitions: c.portDefinitions, requirePorts: c.requirePorts, hostPorts: c.portDefinitions.map((d) => d.port) } as never, { force: true }).ok, `${c.name}: the definition takes ports`);
    h.status(task.taskId, 'TASK_KILLED');
    h.advance(600_000);
    const before = accepts(h).length;
    const again = h.offer(reservationOffer(agentA, task.instanceId));
    t.same(again, [], `${c.name}: no launch on a reservation without those ports`);
    t.notOk(accepts(h).slice(before).some((a) => a.operations.length > 0), `${c.name}: no LAUNCH in an ACCEPT`);
    t.same(h.instances('/db').map((i) => i.condition), ['Scheduled'], `${c.name}: it waits`);
  }
});

t.test('a relaunch on a reservation that lacks the cpus, mem or disk the definition now needs does not launch', async (t) => {
  // Found by the swarm once it drew resident apps (docs/swarm.md): a resident app given more cpus
  // (or mem, or disk) than its reservations hold was relaunched on them all the same, with the
  // whole (smaller) reservation as its allocation; the master refused it (TASK_ERROR: "allocation
  // has cpusMilli 50, the tasks need 1000") and the instance failed again at every offer of its
  // reservation. It waits for a reservation that holds its resources instead, as for its ports.
  const cases = [
    { name: 'more cpus', change: { cpusMilli: 1000 } },
    { name: 'more mem', change: { memMilli: 128_000 } },
    { name: 'more disk', change: { diskMilli: 10_000 } },
  ];
  for (const c of cases) {
    const h = new Harness({ options: { defaultRole: 'db' } });
    h.put(resident());
    const [task] = h.offer(makeOffer({ agent: agentA }));
    h.run(task);
    const spec = resident();
    t.ok(h.put({ ...spec, resources: { ...spec.resources, ...c.change } }, { force: true }).ok, `${c.name}: the definition grows`);
    h.status(task.taskId, 'TASK_KILLED');
    h.advance(600_000);
    const before = accepts(h).length;
    t.same(h.offer(reservationOffer(agentA, task.instanceId)), [], `${c.name}: no launch on a reservation too small for it`);
    t.notOk(accepts(h).slice(before).some((a) => a.operations.length > 0), `${c.name}: no LAUNCH in an ACCEPT`);
    t.same(h.instances('/db').map((i) => i.condition), ['Scheduled'], `${c.name}: it waits`);
  }
});

t.test('a resident instance in backoff does not relaunch because another instance waits to release its reservation', async (t) => {
  // Found by the swarm once it drew resident apps (docs/swarm.md): "launch of /web before its
  // backoff deadline". Offers are wanted while a retired instance waits to release its
  // reservation, whatever the backoff; the resident pass and the matcher took that as leave to
  // launch, so a failed instance relaunched at once on its reservation.
  const h = new Harness({ options: { defaultRole: 'db' } });
  h.put(makeApp({ ...resident(2), backoff: { initialMs: 60_000, factor: 1, maxMs: 60_000 } }));
  const tasks = h.offer(makeOffer({ agent: agentA, cpus: 4 }));
  t.equal(tasks.length, 2, 'both launched');
  for (const task of tasks) h.run(task);
  h.scale('/db', 1);
  const retired = h.instances('/db').find((i) => i.goal !== 'Running');
  const kept = h.instances('/db').find((i) => i.goal === 'Running');
  if (retired === undefined || kept === undefined) throw new Error('scale-down retired no instance');
  const taskOf = (id: string) => tasks.find((x) => x.instanceId === id) as (typeof tasks)[number];
  h.status(taskOf(retired.instanceId).taskId, 'TASK_KILLED');
  h.status(taskOf(kept.instanceId).taskId, 'TASK_FAILED');
  h.advance(1000);
  t.same(h.offer(reservationOffer(agentA, kept.instanceId)), [], 'no relaunch within the backoff');
  t.equal(h.instances('/db').find((i) => i.instanceId === kept.instanceId)?.condition, 'Scheduled', 'it waits');
  h.advance(60_000);
  t.equal(h.offer(reservationOffer(agentA, kept.instanceId)).length, 1, 'relaunched once the backoff is over');
});

t.test('a new resident instance in backoff is not placed because another instance waits to release its reservation', async (t) => {
  // The matcher's side of the test above: its first launch (RESERVE, LAUNCH) waits for the backoff too.
  const h = new Harness({ options: { defaultRole: 'db' } });
  h.put(makeApp({ ...resident(2), backoff: { initialMs: 60_000, factor: 1, maxMs: 60_000 } }));
  const [kept, refused] = h.offer(makeOffer({ agent: agentA, cpus: 4 }));
  h.run(kept);
  // Refused by the master (no uuid): its reservation may not exist, so it is placed afresh, after its backoff.
  h.status(refused.taskId, 'TASK_ERROR', { uuid: undefined });
  t.ok(h.kill('/db', [kept.instanceId], { scale: true, force: true }).ok, 'the other one is killed and scaled away');
  h.status(kept.taskId, 'TASK_KILLED');
  h.advance(1000);
  t.same(h.offer(makeOffer({ agent: agentB, cpus: 4 })), [], 'no first launch within the backoff');
  h.advance(60_000);
  t.equal(h.offer(makeOffer({ agent: agentB, cpus: 4 })).length, 1, 'placed once the backoff is over');
});

t.test('a relaunch on a reservation whose agent the definition\'s constraints now refuse does not launch', async (t) => {
  // Found by the swarm once it drew resident apps (docs/swarm.md, seeds 128, 243, 267, 325, 350,
  // 362, 394): a config change brought constraints the reservation's agent does not meet, and the
  // instance was relaunched there all the same. Marathon checks the constraints of a launch on a
  // reservation, leaving the instance itself out of the counts (core/launcher/impl/
  // InstanceOpFactoryImpl.scala `maybeLaunchOnReservation`, `instancesToConsiderForConstraints`):
  // it waits. A constraint the agent meets, UNIQUE hostname included, still relaunches.
  const cases = [
    { name: 'LIKE another hostname', constraints: [{ field: 'hostname', operator: 'LIKE' as const, value: 'b' }], launches: 0 },
    { name: 'UNLIKE its hostname', constraints: [{ field: 'hostname', operator: 'UNLIKE' as const, value: 'a' }], launches: 0 },
    { name: 'LIKE its hostname', constraints: [{ field: 'hostname', operator: 'LIKE' as const, value: 'a' }], launches: 1 },
    { name: 'UNIQUE hostname (itself not counted)', constraints: [{ field: 'hostname', operator: 'UNIQUE' as const }], launches: 1 },
  ];
  for (const c of cases) {
    const h = new Harness({ options: { defaultRole: 'db' } });
    h.put(resident());
    const [task] = h.offer(makeOffer({ agent: agentA }));
    h.run(task);
    t.ok(h.put({ ...resident(), constraints: c.constraints } as never, { force: true }).ok, `${c.name}: the definition takes the constraint`);
    h.status(task.taskId, 'TASK_KILLED');
    h.advance(600_000);
    t.equal(h.offer(reservationOffer(agentA, task.instanceId)).length, c.launches, `${c.name}: ${c.launches === 0 ? 'no launch' : 'relaunched'}`);
    t.same(h.instances('/db').map((i) => i.condition), [c.launches === 0 ? 'Scheduled' : 'Provisioned'], `${c.name}: ${c.launches === 0 ? 'it waits' : 'it starts'}`);
  }
});

t.test('wipe=true of a resident instance forgets it at once, as Marathon does; its reservation is released when next offered', async (t) => {
  // Marathon 1.11's TaskKiller sets the goal Decommissioned and force-expunges every found instance,
  // resident or not (api/TaskKiller.scala `kill`, InstanceUpdater.forceExpunge); the reservation left
  // behind is released by OfferMatcherReconciler when an offer carries it (its instance unknown).
  const h = new Harness({ options: { defaultRole: 'db' } });
  h.put(resident());
  const [task] = h.offer(makeOffer({ agent: agentA }));
  h.run(task);
  h.clearRecords();
  t.same(h.kill('/db', [task.instanceId], { wipe: true }), { ok: true });
  t.notOk(h.instances('/db').some((i) => i.instanceId === task.instanceId), 'forgotten when the command returns');
  t.equal(h.instances('/db').length, 1, 'a replacement (a new instance) is queued');
  t.same(h.calls('kill').map((k) => k.type === 'kill' && k.taskId), [task.taskId], 'its task is killed');
  const changes = h.events('instance_changed_event').filter((e) => e.instanceId === task.instanceId).map((e) => e.condition);
  t.same(changes, ['Running', 'Killed'], 'the goal change, then Killed (the force expunge), as for an instance without a reservation');
  // The replacement is placed elsewhere before the wiped task's kill is answered: nothing else wants
  // offers of the role, but the reservation left behind does.
  const [replacement] = h.offer(makeOffer({ agent: agentB }));
  t.not(replacement?.instanceId, task.instanceId, 'the replacement is a new instance');
  h.run(replacement);
  h.clearRecords();
  h.status(task.taskId, 'TASK_KILLED');
  t.same(h.events('unknown_instance_terminated_event').map((e) => e.instanceId), [task.instanceId], 'its late TASK_KILLED is an unknown instance\'s');
  t.same(h.events('status_update_event').filter((e) => e.taskId === task.taskId), [], 'no status_update_event for the wiped task');
  const lastDemand = (): string | undefined => h.calls().filter((c) => (c.type === 'revive' || c.type === 'suppress') && c.roles.includes('db')).at(-1)?.type;
  t.not(lastDemand(), 'suppress', 'offers of its role are still wanted: its reservation waits to be released');
  h.offer(reservationOffer(agentA, task.instanceId));
  t.same(accepts(h).at(-1)?.reservations.map((r) => r.kind), ['destroy', 'unreserve'], 'destroy then unreserve when offered');
  h.offer(makeOffer({ agent: agentA }));
  t.equal(lastDemand(), 'suppress', 'then nothing wants offers of the role');
});

t.test('a wiped resident instance whose task had ended: forgotten at once, its reservation released when offered', async (t) => {
  const h = new Harness({ options: { defaultRole: 'db' } });
  h.put(resident());
  const [task] = h.offer(makeOffer({ agent: agentA }));
  h.run(task);
  h.status(task.taskId, 'TASK_FAILED');
  t.same(h.conditions('/db'), ['Scheduled'], 'waits to relaunch on its reservation');
  h.kill('/db', [task.instanceId], { wipe: true });
  t.notOk(h.instances('/db').some((i) => i.instanceId === task.instanceId), 'forgotten at once');
  h.offer(reservationOffer(agentA, task.instanceId));
  t.same(accepts(h).at(-1)?.reservations.map((r) => r.kind), ['destroy', 'unreserve'], 'its reservation is released, not relaunched on');
});

t.test('a pacer restarted after a wipe releases the reservation left behind when it is offered (nothing knows it: unknown)', async (t) => {
  const before = new Harness({ options: { defaultRole: 'db' } });
  before.put(resident());
  const [task] = before.offer(makeOffer({ agent: agentA }));
  before.run(task);
  before.kill('/db', [task.instanceId], { wipe: true });
  before.status(task.taskId, 'TASK_KILLED');
  const h = new Harness({ options: { defaultRole: 'db' }, stored: before.store.load() });
  t.notOk(h.instances('/db').some((i) => i.instanceId === task.instanceId), 'the wiped instance is not recovered');
  h.offer(reservationOffer(agentA, task.instanceId));
  t.same(accepts(h).at(-1)?.reservations.filter((r) => r.reservationId === task.instanceId).map((r) => r.kind), ['destroy', 'unreserve'], 'released at the first offer of it');
});
