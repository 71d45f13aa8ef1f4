import t from 'tap';
import type { Offer, OfferedPool, Unavailability } from '../../../../src/scheduler/model/offer';
import type { SchedulerOptions } from '../../../../src/scheduler/scheduler-options';
import type { DriverCall } from '../../../harness/recording-driver';
import { makeAgent, makeOffer } from '../../../builders/cluster-builders';
import { makeApp } from '../../../builders/run-spec-builders';
import { Harness, START_MS } from '../../../harness/core-harness';

/*
 * Maintenance mode (Marathon's `--[disable_]maintenance_mode`, on by default, and
 * `--draining_seconds`): an offer of an agent whose maintenance window has started, or starts
 * within the draining time, and has not ended, launches nothing; each waiting run spec records
 * it (as Marathon counts it, UnfulfilledConstraint; UnfulfilledRole when the role refuses it first)
 * and the offer is declined as unused offers are.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** An offer of a fresh agent with the maintenance window `window` (none when undefined). */
function offerWith(window: Unavailability | undefined, hostname = 'h1'): Offer {
  const offer = makeOffer({ offerId: `o-${hostname}`, agent: makeAgent({ hostname }) });
  return window === undefined ? offer : { ...offer, unavailability: window };
}

t.test('one offer, one waiting app: the window decides whether it launches', async (t) => {
  const cases: { name: string; window?: Unavailability; options?: Partial<SchedulerOptions>; refused: boolean }[] = [
    { name: 'window started 60 s ago, 1 h long', window: { startMs: START_MS - MINUTE, durationMs: HOUR }, refused: true },
    { name: 'window without a duration, started a day ago: forever', window: { startMs: START_MS - 24 * HOUR }, refused: true },
    { name: 'window starts in 200 s, draining 300 s', window: { startMs: START_MS + 200_000, durationMs: HOUR }, options: { drainingMs: 300_000 }, refused: true },
    { name: 'window starts in 200 s, no draining (the default)', window: { startMs: START_MS + 200_000, durationMs: HOUR }, refused: false },
    { name: 'window starts exactly at the end of the draining time: not yet', window: { startMs: START_MS + 300_000, durationMs: HOUR }, options: { drainingMs: 300_000 }, refused: false },
    { name: 'window starts now', window: { startMs: START_MS, durationMs: HOUR }, refused: false },
    { name: 'window started 1 ms ago', window: { startMs: START_MS - 1, durationMs: HOUR }, refused: true },
    { name: 'window ends exactly now: still in it', window: { startMs: START_MS - HOUR, durationMs: HOUR }, refused: true },
    { name: 'window ended 1 ms ago', window: { startMs: START_MS - HOUR - 1, durationMs: HOUR }, refused: false },
    { name: 'window ended an hour ago', window: { startMs: START_MS - 2 * HOUR, durationMs: HOUR }, refused: false },
    { name: 'no window', refused: false },
    { name: 'maintenance mode off, window started', window: { startMs: START_MS - MINUTE, durationMs: HOUR }, options: { maintenanceMode: false }, refused: false },
    { name: 'maintenance mode off, window starts within the draining time', window: { startMs: START_MS + 200_000 }, options: { maintenanceMode: false, drainingMs: 300_000 }, refused: false },
  ];
  for (const c of cases) {
    const h = new Harness({ options: c.options ?? {} });
    h.put(makeApp({ id: '/web' }));
    const offer = offerWith(c.window);
    const launched = h.offer(offer);
    const stats = h.scheduler.rejections('/web');
    if (!c.refused) {
      t.equal(launched.length, 1, `${c.name}: launched`);
      t.same(stats?.byReason(), {}, `${c.name}: no rejection`);
      t.same(h.calls('decline'), [], `${c.name}: not declined`);
      continue;
    }
    t.same(launched, [], `${c.name}: nothing launched`);
    t.same(stats?.byReason(), { UnfulfilledConstraint: 1 }, `${c.name}: recorded as Marathon counts it (UnfulfilledConstraint)`);
    t.same(stats?.lastUnused(), [{ offer, reason: 'UnfulfilledConstraint', atMs: START_MS }], `${c.name}: the offer among the last unused`);
    t.same(h.calls('decline'), [{ type: 'decline', offerIds: [offer.offerId], refuseMs: 120_000 }], `${c.name}: declined with the refuse filter`);
    t.equal(h.scheduler.queue()[0]?.scheduled, 1, `${c.name}: the instance still waits`);
  }
});

t.test("Marathon's funnel: an offer in maintenance that the role refuses counts as UnfulfilledRole, any other as UnfulfilledConstraint", async (t) => {
  const window = { startMs: START_MS - MINUTE, durationMs: HOUR };
  const cases: { name: string; app: NonNullable<Parameters<typeof makeApp>[0]> & { id: string }; reason: string }[] = [
    { name: 'role refuses it (the offer is allocated to another role)', app: { id: '/dev/web', role: 'dev', acceptedResourceRoles: ['dev'] }, reason: 'UnfulfilledRole' },
    { name: 'too few cpus as well', app: { id: '/web', cpus: 100 }, reason: 'UnfulfilledConstraint' },
    { name: 'a constraint it also fails', app: { id: '/web', constraints: [{ field: 'hostname', operator: 'LIKE', value: 'nomatch' }] }, reason: 'UnfulfilledConstraint' },
  ];
  for (const c of cases) {
    const h = new Harness();
    h.put(makeApp(c.app));
    h.offer(offerWith(window));
    t.same(h.scheduler.rejections(c.app.id)?.byReason(), { [c.reason]: 1 }, c.name);
  }
});

t.test('the trial: two agents in a window and one without, in one event: both instances on the free agent', async (t) => {
  const h = new Harness();
  h.put(makeApp({ id: '/web', instances: 2 }));
  h.put(makeApp({ id: '/api', instances: 1 }));
  const window = { startMs: START_MS - MINUTE, durationMs: HOUR };
  const free = offerWith(undefined, 'free');
  const launched = h.offer(offerWith(window, 'm1'), offerWith(window, 'm2'), free);
  t.same(launched.map((l) => l.agentId), [free.agent.agentId, free.agent.agentId, free.agent.agentId], 'every instance on the free agent');
  for (const id of ['/web', '/api']) t.same(h.scheduler.rejections(id)?.byReason(), { UnfulfilledConstraint: 2 }, `${id}: each agent in maintenance counted once`);
  t.same(h.calls('decline'), [{ type: 'decline', offerIds: ['o-m1', 'o-m2'], refuseMs: 120_000 }], 'the offers in maintenance are declined');
});

t.test('resident instances: the reservation on an agent in maintenance is kept; the instance relaunches on it after the window', async (t) => {
  const agent = makeAgent({ hostname: 'db-1' });
  const app = makeApp({ id: '/db', role: 'db', resident: true, cpus: 0.5, mem: 64, container: { type: 'MESOS', portMappings: [], volumes: [{ kind: 'persistent', containerPath: 'data', mode: 'RW', persistent: { size: 100, constraints: [] } }] } });
  const h = new Harness({ options: { defaultRole: 'db' } });
  h.put(app);
  const [first] = h.offer(makeOffer({ agent }));
  h.run(first);
  h.status(first.taskId, 'TASK_FAILED');
  h.advance(10 * MINUTE);
  const window = { startMs: h.nowMs - MINUTE, durationMs: HOUR };
  const pool: OfferedPool = {
    reservedFor: 'db', reservationId: first.instanceId, cpusMilli: 500, memMilli: 64_000, diskMilli: 100_000, gpus: 0, ports: [],
    volumes: [{ persistenceId: `${first.instanceId}#vol0`, containerPath: 'data', diskMilli: 100_000 }],
  };
  const reservationOffer = (offerId: string): Offer => ({ ...makeOffer({ offerId, agent }), pools: [...makeOffer({ agent }).pools, pool], unavailability: window });
  const acceptsBefore = h.calls('accept').length;
  t.same(h.offer(reservationOffer('in-window')), [], 'no relaunch on the reservation while the agent is in maintenance');
  t.equal(h.calls('accept').length, acceptsBefore, 'no ACCEPT: the reservation is neither used nor released');
  t.same(h.calls('decline').at(-1), { type: 'decline', offerIds: ['in-window'], refuseMs: 120_000 }, 'the offer is declined');
  t.same(h.scheduler.rejections('/db')?.byReason(), { UnfulfilledConstraint: 1 }, 'recorded once, as UnfulfilledConstraint');
  t.same(h.instances('/db').map((i) => [i.condition, i.reservation?.agentId]), [['Scheduled', agent.agentId]], 'the instance waits with its reservation');
  h.advanceTo(window.startMs + window.durationMs + 1);
  const again = h.offer(reservationOffer('after-window'));
  t.same(again.map((l) => l.instanceId), [first.instanceId], 'relaunched on its reservation once the window is over');
  const accept = h.calls('accept').at(-1) as Extract<DriverCall, { type: 'accept' }> | undefined;
  t.same(accept?.reservations, [], 'on the same reservation, nothing reserved or released');
});

t.test('resident: a reservation nobody wants is released even from an agent in maintenance', async (t) => {
  const agent = makeAgent({ hostname: 'db-1' });
  const h = new Harness({ options: { defaultRole: 'db' } });
  const pool: OfferedPool = { reservedFor: 'db', reservationId: 'gone.instance-1', cpusMilli: 500, memMilli: 64_000, diskMilli: 0, gpus: 0, ports: [] };
  h.offer({ ...makeOffer({ agent }), pools: [pool], unavailability: { startMs: START_MS - MINUTE } });
  const accept = h.calls('accept').at(-1) as Extract<DriverCall, { type: 'accept' }> | undefined;
  t.same(accept?.reservations.map((r) => r.kind), ['unreserve'], 'unreserved as usual (Marathon\'s reconciler does not look at the window)');
});
