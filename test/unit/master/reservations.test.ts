import t from 'tap';
import type { OfferedPool } from '../../../src/scheduler/model/offer';
import type { ReservationOperation } from '../../../src/scheduler/model/reservation';
import type { MasterAcceptOperation } from '../../../src/master/master-types';
import { agentSpec, masterScalars, masterTask } from '../../builders/master-builders';
import { MasterHarness } from './master-harness';

/*
 * Dynamic reservations and persistent volumes in the master model: RESERVE + CREATE + LAUNCH in
 * one ACCEPT, the reservation offered (labelled, with its volumes) once its task ended, DESTROY +
 * UNRESERVE giving the resources back, and the operations Mesos refuses.
 */

const AMOUNT: OfferedPool = { cpusMilli: 1000, memMilli: 100_000, diskMilli: 50_000, gpus: 0, ports: [[1000, 1000]] };
const VOLUME = { persistenceId: 'i1#vol0', containerPath: 'data', diskMilli: 50_000 };
const reserve: ReservationOperation = { kind: 'reserve', agentId: 'a', reservationId: 'i1', role: 'web', allocation: [AMOUNT] };
const create: ReservationOperation = { kind: 'create', agentId: 'a', reservationId: 'i1', role: 'web', volumes: [VOLUME] };
const destroy: ReservationOperation = { kind: 'destroy', agentId: 'a', reservationId: 'i1', role: 'web', volumes: [VOLUME] };
const unreserve: ReservationOperation = { kind: 'unreserve', agentId: 'a', reservationId: 'i1', role: 'web', allocation: [{ ...AMOUNT, reservedFor: 'web', reservationId: 'i1' }] };
const launchOnIt = (taskId: string): MasterAcceptOperation => ({
  kind: 'launch',
  task: masterTask(taskId, 'a', { ...masterScalars(1, 100), diskMilli: 50_000 }, [1000], 'web'),
  allocation: [{ ...AMOUNT, reservedFor: 'web', reservationId: 'i1' }],
});

function started(): MasterHarness {
  const h = new MasterHarness();
  h.master.addAgent(agentSpec('a', { ports: [[1000, 1009]] }));
  h.master.start();
  h.runUntil(0);
  return h;
}

t.test('RESERVE + CREATE + LAUNCH in one ACCEPT; the reservation comes back with its volume after the task', async (t) => {
  const h = started();
  h.master.accept(h.lastOffer('a').offerId, [reserve, create, launchOnIt('t1')], 0);
  t.same(h.problems, [], 'every operation valid');
  t.equal(h.launched.length, 1, 'the task launched on the reservation');
  h.runUntil(1000);
  const whileRunning = h.lastOffer('a');
  t.notOk(whileRunning.pools.some((p) => p.reservationId === 'i1'), 'a reservation in use is not offered');
  t.equal(whileRunning.pools[0].cpusMilli, 3000, 'the reserved cpus left the unreserved pool');
  h.master.decline([whileRunning.offerId], 0);
  h.master.taskUpdate('t1', 'TASK_RUNNING');
  h.master.taskUpdate('t1', 'TASK_FAILED');
  h.master.executorEnded(h.launched[0].executor);
  h.runUntil(2000);
  const pool = h.lastOffer('a').pools.find((p) => p.reservationId === 'i1');
  t.match(pool, { reservedFor: 'web', reservationId: 'i1', cpusMilli: 1000, diskMilli: 50_000, volumes: [VOLUME] }, 'offered again, labelled, with its volume');
  t.equal(h.lastOffer('a').pools[0].cpusMilli, 3000, 'still not unreserved');
});

t.test('DESTROY + UNRESERVE give the resources back', async (t) => {
  const h = started();
  h.master.accept(h.lastOffer('a').offerId, [reserve, create], 0);
  h.runUntil(1000);
  h.master.accept(h.lastOffer('a').offerId, [destroy, unreserve], 0);
  t.same(h.problems, []);
  h.runUntil(2000);
  const offer = h.lastOffer('a');
  t.same(offer.pools.map((p) => p.reservationId), [undefined], 'no reservation left');
  t.equal(offer.pools[0].cpusMilli, 4000, 'all cpus unreserved again');
});

t.test('reservation operations Mesos refuses (dropped, reported, nothing changes)', async (t) => {
  const cases: { name: string; before: MasterAcceptOperation[]; ops: MasterAcceptOperation[]; want: RegExp }[] = [
    { name: 'RESERVE for *', before: [], ops: [{ ...reserve, role: '*' }], want: /only a named role/ },
    { name: 'RESERVE of more than offered', before: [], ops: [{ ...reserve, allocation: [{ ...AMOUNT, cpusMilli: 9000 }] }], want: /reserve: cpusMilli 9000 exceeds the 4000 left/ },
    { name: 'RESERVE of reserved resources', before: [], ops: [{ ...reserve, allocation: [{ ...AMOUNT, reservedFor: 'web' }] }], want: /unreserved resources only/ },
    { name: 'RESERVE on another agent', before: [], ops: [{ ...reserve, agentId: 'b' }], want: /targets agent b/ },
    { name: 'CREATE without the reservation', before: [], ops: [create], want: /create: reservation i1 of role web is not offered/ },
    { name: 'CREATE larger than the reservation', before: [reserve], ops: [{ ...create, volumes: [{ ...VOLUME, diskMilli: 60_000 }] }], want: /volumes need diskMilli 60000, the reservation has 50000/ },
    { name: 'CREATE of an existing persistence id', before: [reserve, create], ops: [create], want: /persistence id i1#vol0 already exists/ },
    { name: 'DESTROY of a volume not offered', before: [reserve], ops: [destroy], want: /volume i1#vol0 is not offered/ },
    { name: 'UNRESERVE with a volume left', before: [reserve, create], ops: [unreserve], want: /still has persistent volumes/ },
    { name: 'UNRESERVE of an unknown reservation', before: [], ops: [unreserve], want: /unreserve: reservation i1 of role web is not offered/ },
  ];
  for (const c of cases) {
    const h = started();
    if (c.before.length > 0) {
      h.master.accept(h.lastOffer('a').offerId, c.before, 0);
      h.runUntil(1000);
    }
    const before = h.lastOffer('a').pools;
    h.master.accept(h.lastOffer('a').offerId, c.ops, 0);
    t.match(h.problems.at(-1), c.want, c.name);
    h.runUntil(2000);
    t.same(h.lastOffer('a').pools, before, `${c.name}: the agent's resources are unchanged`);
  }
});

t.test('a volume in use cannot be destroyed (its reservation is not offered while the task runs)', async (t) => {
  const h = started();
  h.master.accept(h.lastOffer('a').offerId, [reserve, create, launchOnIt('t1')], 0);
  h.runUntil(1000);
  h.master.accept(h.lastOffer('a').offerId, [destroy], 0);
  t.match(h.problems.at(-1), /destroy: reservation i1 of role web is not offered/);
});

t.test('a recorded reservation is restored only while the agent\'s unreserved pool holds it', async (t) => {
  const capacity = { ...AMOUNT, reservedFor: 'web', reservationId: 'i1' };
  const cases = [
    { name: 'it fits', capacity, problem: undefined },
    { name: 'more cpus than the agent has', capacity: { ...capacity, cpusMilli: 5000 }, problem: /no longer the unreserved resources of reservation i1/ },
    { name: 'a port outside the agent\'s ranges', capacity: { ...capacity, ports: [[2000, 2000]] as [number, number][] }, problem: /no longer the unreserved resources/ },
    { name: 'a negative amount', capacity: { ...capacity, memMilli: -1 }, problem: /no longer the unreserved resources/ },
  ];
  for (const c of cases) {
    const h = new MasterHarness();
    h.master.addAgent(agentSpec('a', { ports: [[1000, 1009]] }));
    const problem = h.master.restoreReservation({ agentId: 'a', role: 'web', reservationId: 'i1', capacity: c.capacity, volumes: [VOLUME] });
    if (c.problem === undefined) {
      t.equal(problem, undefined, `${c.name}: restored`);
      t.match(h.master.reservation('a', 'web', 'i1'), { reservationId: 'i1', volumes: [VOLUME] }, `${c.name}: booked with its volume`);
    } else {
      t.match(problem, c.problem, `${c.name}: not restored, and why`);
      t.equal(h.master.reservation('a', 'web', 'i1'), undefined, `${c.name}: nothing booked`);
    }
  }
  const h = new MasterHarness();
  t.match(h.master.restoreReservation({ agentId: 'gone', role: 'web', reservationId: 'i1', capacity, volumes: [] }), /agent gone is not registered/, 'an unknown agent');
});
