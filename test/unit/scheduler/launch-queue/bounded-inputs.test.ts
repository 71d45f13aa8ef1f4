import t from 'tap';
import { makeOffer } from '../../../builders/cluster-builders';
import type { Offer } from '../../../../src/scheduler/model/offer';
import type { SchedulerInput } from '../../../../src/scheduler/model/inputs';
import { makeApp } from '../../../builders/run-spec-builders';
import { Harness } from '../../../harness/core-harness';
import { RESEND_REFUSE_MS } from '../../../../src/scheduler/scheduler-options';

// Issue 11 item 4: a big change must not block the loop. One input creates at most
// `instancesPerInput` instances and places at most `launchesPerInput` (one batch of offers at most
// `launchesPerOfferBatch`, over several inputs); the rest follows in later inputs, and what the API
// reads (queue counts, what a deployment waits for) counts it all along.

/** Instances created by each input the core handled, and the queue count seen after each. */
function observeCreation(h: Harness, runSpecId: string): { created: number[]; queued: number[] } {
  const created: number[] = [];
  const queued: number[] = [];
  let before = 0;
  h.observe(() => {
    const now = h.instances(runSpecId).length;
    created.push(now - before);
    before = now;
    queued.push(h.scheduler.queue().find((q) => q.runSpec.id === runSpecId)?.scheduled ?? 0);
  });
  return { created, queued };
}

t.test('a scale-up creates its instances in bounded inputs, counted as queued from the start', async (t) => {
  const cases: [number, number, number[]][] = [
    // [instances, instancesPerInput, instances created per input]
    [10, 3, [3, 3, 3, 1]],
    [10, 10, [10]],
    [7, 100, [7]],
  ];
  for (const [instances, perInput, expected] of cases) {
    const h = new Harness({ options: { instancesPerInput: perInput } });
    const seen = observeCreation(h, '/app');
    h.put(makeApp({ instances }));
    t.strictSame(seen.created.filter((n) => n > 0), expected, `${instances} by ${perInput}: created per input`);
    t.ok(seen.queued.every((n) => n === instances), `${instances} by ${perInput}: the queue counts all ${instances} after every input`);
    t.equal(h.instances('/app').filter((i) => i.condition === 'Scheduled').length, instances, 'all created and Scheduled');
    t.equal(h.timers('continueChanges').length, 0, 'no creation left pending');
    const [status] = h.scheduler.deployments();
    t.equal(status.actions.find((a) => a.action.action === 'ScaleApplication')?.waitingFor.unplaced, instances, 'the deployment waits for all of them');
  }
});

t.test('what is left to create follows later changes: a scale-down or a delete in between cancels it', async (t) => {
  const h = new Harness({ options: { instancesPerInput: 4 } });
  // The put handles its first chunk; the scale is handled before the timer that creates the rest.
  h.scheduler.handle({ type: 'putRunSpec', spec: makeApp({ instances: 20 }) });
  t.equal(h.instances('/app').length, 4, 'the first input created 4');
  t.equal(h.scheduler.queue()[0].scheduled, 20, '20 counted as queued');
  h.scale('/app', 6, { force: true });
  t.equal(h.instances('/app').length, 6, 'scaled to 6: 2 more created, the rest cancelled');
  t.equal(h.scheduler.queue()[0].scheduled, 6);

  h.scheduler.handle({ type: 'scale', runSpecId: '/app', instances: 30, force: true });
  t.equal(h.scheduler.queue()[0].scheduled, 30);
  h.delete('/app');
  t.equal(h.scheduler.runSpec('/app'), undefined, 'deleted');
  t.strictSame(h.scheduler.queue(), [], 'nothing left queued');
  t.equal(h.instances('/app').length, 0, 'nothing created after the delete');
});

t.test('one batch of offers places at most launchesPerOfferBatch; the offers after that are declined to come back soon', async (t) => {
  const h = new Harness({ options: { maxInstancesPerOffer: 100, launchesPerInput: 5, launchesPerOfferBatch: 5 } });
  h.put(makeApp({ instances: 12, cpus: 0.1, mem: 16 }));
  const offers = ['o1', 'o2', 'o3'].map((offerId, k) => makeOffer({ offerId, agent: { agentId: `a${k}`, hostname: `h${k}` }, cpus: 10, mem: 10_000 }));
  h.clearRecords();
  const launched = h.offer(...offers);
  t.equal(launched.length, 5, '5 placed');
  t.strictSame(h.calls('accept').map((c) => c.offerId), ['o1'], 'on the first offer');
  t.strictSame(h.calls('decline'), [{ type: 'decline', offerIds: ['o2', 'o3'], refuseMs: RESEND_REFUSE_MS }], 'the rest declined with the resend filter');
  t.equal(h.scheduler.queue()[0].scheduled, 7, '7 still waiting');
  h.clearRecords();
  t.equal(h.offer(...offers.map((o) => ({ ...o, offerId: `${o.offerId}b` }))).length, 5, 'the next input places 5 more');
  h.clearRecords();
  t.equal(h.offer(makeOffer({ offerId: 'last', cpus: 10, mem: 10_000 }), makeOffer({ offerId: 'unused', cpus: 10, mem: 10_000 })).length, 2, 'then the last 2');
  t.strictSame(h.calls('decline'), [{ type: 'decline', offerIds: ['unused'], refuseMs: 120_000 }], 'an offer nobody needs gets the usual decline filter');
});

t.test('creating the rest of a scale-up in later inputs is not new work: one revive, not one per input', async (t) => {
  const h = new Harness({ options: { instancesPerInput: 3 } });
  h.clearRecords();
  h.put(makeApp({ instances: 10 }));
  t.equal(h.instances('/app').length, 10);
  t.equal(h.calls('revive').length, 1, 'revived once for the scale-up');
  h.clearRecords();
  h.scale('/app', 20, { force: true });
  t.equal(h.calls('revive').length, 1, 'a further scale-up is new work: revived again');
});

t.test('a delete kills at most instancesPerInput instances per input, in creation order, then forgets the app', async (t) => {
  const h = new Harness({ options: { instancesPerInput: 4, maxInstancesPerOffer: 100 } });
  h.put(makeApp({ instances: 10, cpus: 0.1, mem: 16 }));
  // 6 running on one agent, 4 still waiting for an offer.
  const launched = h.offer(makeOffer({ cpus: 0.6, mem: 10_000 }));
  t.equal(launched.length, 6);
  for (const l of launched) h.status(l.taskId, 'TASK_RUNNING');
  const order = h.instances('/app').map((i) => i.instanceId);
  const kills: number[] = [];
  h.observe(() => kills.push(h.calls('kill').length));
  h.clearRecords();
  h.delete('/app');
  const perInput = kills.map((n, i) => n - (kills[i - 1] ?? 0)).filter((n) => n > 0);
  t.strictSame(perInput, [4, 2], 'the running ones killed 4 in the first input, the last 2 in the next');
  const killed = h.calls('kill').map((c) => (c as { taskId: string }).taskId);
  t.ok(order.slice(0, 6).every((id, k) => killed[k].startsWith(id)), 'in creation order');
  t.equal(h.instances('/app').length, 6, 'the 4 waiting ones are gone; the 6 running wait for their kill');
  for (const l of launched) h.status(l.taskId, 'TASK_KILLED');
  t.equal(h.scheduler.runSpec('/app'), undefined, 'forgotten once the last is gone');
  t.equal(h.events().filter((e) => e.eventType === 'app_terminated_event').length, 1, 'app_terminated_event once');
});

/** Three roomy offers on three agents. */
function threeOffers(prefix = 'o'): Offer[] {
  return [1, 2, 3].map((k) => makeOffer({ offerId: `${prefix}${k}`, agent: { agentId: `a${k}`, hostname: `h${k}` }, cpus: 10, mem: 10_000 }));
}

/** Instances placed (tasks launched) by each input the core handled. */
function observeLaunches(h: Harness): number[] {
  const perInput: number[] = [];
  let before = 0;
  h.observe(() => {
    let n = 0;
    for (const c of h.calls('accept')) n += c.operations.length;
    perInput.push(n - before);
    before = n;
  });
  return perInput;
}

t.test('a batch of offers is matched launchesPerInput at a time, in later inputs, up to launchesPerOfferBatch', async (t) => {
  const cases: { name: string; perInput: number; perBatch: number; placed: number[]; accepted: string[]; resent: string[] }[] = [
    { name: 'the whole batch, 5 per input', perInput: 5, perBatch: 2000, placed: [5, 5, 2], accepted: ['o1', 'o2', 'o3'], resent: [] },
    { name: 'the batch bound cuts the second input short', perInput: 5, perBatch: 8, placed: [5, 3], accepted: ['o1', 'o2'], resent: ['o3'] },
    { name: 'equal bounds: one input, the rest resent', perInput: 5, perBatch: 5, placed: [5], accepted: ['o1'], resent: ['o2', 'o3'] },
    { name: 'a batch bound below the input bound', perInput: 10, perBatch: 4, placed: [4], accepted: ['o1'], resent: ['o2', 'o3'] },
  ];
  for (const c of cases) {
    const h = new Harness({ options: { maxInstancesPerOffer: 100, launchesPerInput: c.perInput, launchesPerOfferBatch: c.perBatch } });
    h.put(makeApp({ instances: 12, cpus: 0.1, mem: 16 }));
    h.clearRecords();
    const placed = observeLaunches(h);
    h.offer(...threeOffers());
    t.strictSame(placed.filter((n) => n > 0), c.placed, `${c.name}: placed per input`);
    t.strictSame(h.calls('accept').map((a) => a.offerId), c.accepted, `${c.name}: accepted`);
    t.strictSame(h.calls('decline').flatMap((d) => d.offerIds), c.resent, `${c.name}: declined`);
    t.ok(h.calls('decline').every((d) => d.refuseMs === RESEND_REFUSE_MS), `${c.name}: declined to come back soon`);
    t.equal(h.timers('continueOffers').length, 0, `${c.name}: nothing kept`);
  }
});

t.test('kept offers: matched by a continueOffers timer due at once, after what is already due; older batches first', async (t) => {
  const h = new Harness({ options: { maxInstancesPerOffer: 100, launchesPerInput: 5 } });
  h.put(makeApp({ instances: 30, cpus: 0.1, mem: 16 }));
  h.clearRecords();
  h.scheduler.handle({ type: 'offers', offers: threeOffers('a') });
  t.strictSame(h.calls('accept').map((a) => a.offerId), ['a1'], 'the first input used a1');
  const [timer] = h.timers('continueOffers');
  t.equal(timer?.dueMs, h.nowMs, 'a continueOffers timer due now');
  // A new batch while a2 and a3 are kept: it queues behind them.
  h.scheduler.handle({ type: 'offers', offers: threeOffers('b') });
  t.strictSame(h.calls('accept').map((a) => a.offerId), ['a1', 'a2'], 'the next input went on with the kept a2, not with b1');
  t.equal(h.timers('continueOffers').length, 1, 'one timer, not one per batch');
  h.advance(0);
  t.strictSame(h.calls('accept').map((a) => a.offerId), ['a1', 'a2', 'a3', 'b1', 'b2', 'b3'], 'then the rest, in order');
  t.equal(h.instances('/app').filter((i) => i.condition === 'Scheduled').length, 0, 'all 30 placed');
  t.strictSame(h.calls('decline'), [], 'nothing declined');
});

t.test('a kept offer leaves when rescinded, when its agent is lost, and all of them on a disconnection or a new subscription', async (t) => {
  const cases: { name: string; input: SchedulerInput; accepted: string[] }[] = [
    { name: 'rescind o2', input: { type: 'rescind', offerId: 'o2' }, accepted: ['o1', 'o3'] },
    { name: 'agent of o3 lost', input: { type: 'agentLost', agentId: 'a3' }, accepted: ['o1', 'o2'] },
    { name: 'disconnected', input: { type: 'disconnected' }, accepted: ['o1'] },
    { name: 'subscribed again', input: { type: 'subscribed', frameworkId: 'fw-2' }, accepted: ['o1'] },
  ];
  for (const c of cases) {
    const h = new Harness({ options: { maxInstancesPerOffer: 100, launchesPerInput: 5 } });
    h.put(makeApp({ instances: 15, cpus: 0.1, mem: 16 }));
    h.clearRecords();
    h.scheduler.handle({ type: 'offers', offers: threeOffers() });
    h.scheduler.handle(c.input);
    h.advance(0);
    t.strictSame(h.calls('accept').map((a) => a.offerId), c.accepted, `${c.name}: accepted`);
    t.strictSame(h.calls('decline'), [], `${c.name}: a withdrawn offer is not declined`);
    t.equal(h.timers('continueOffers').length, 0, `${c.name}: nothing left kept`);
  }
});

t.test('kept offers nobody needs any more are declined with the usual filter', async (t) => {
  const h = new Harness({ options: { maxInstancesPerOffer: 100, launchesPerInput: 5 } });
  h.put(makeApp({ instances: 15, cpus: 0.1, mem: 16 }));
  h.clearRecords();
  h.scheduler.handle({ type: 'offers', offers: threeOffers() });
  h.scheduler.handle({ type: 'scale', runSpecId: '/app', instances: 5, force: true });
  h.advance(0);
  t.strictSame(h.calls('accept').map((a) => a.offerId), ['o1'], 'only the first input placed');
  t.strictSame(h.calls('decline'), [{ type: 'decline', offerIds: ['o2', 'o3'], refuseMs: 120_000 }], 'the kept ones declined as unused');
});

t.test('reconciliation asks about at most instancesPerInput tasks per input, then implicitly once, after the last part', async (t) => {
  const cases: { perInput: number; parts: number[] }[] = [
    { perInput: 3, parts: [3, 3, 1, 0] },
    { perInput: 7, parts: [7, 0] },
    { perInput: 100, parts: [7, 0] },
    { perInput: 1, parts: [1, 1, 1, 1, 1, 1, 1, 0] },
  ];
  for (const c of cases) {
    const h = new Harness({ options: { instancesPerInput: c.perInput, maxInstancesPerOffer: 100 } });
    h.put(makeApp({ instances: 7, cpus: 0.1, mem: 16 }));
    const launched = h.offer(makeOffer({ cpus: 10, mem: 10_000 }));
    h.clearRecords();
    const perInput = observeCalls(h, 'reconcile');
    h.handle({ type: 'subscribed', frameworkId: 'fw-1' });
    const calls = h.calls('reconcile').map((r) => r.tasks);
    t.strictSame(calls.map((tasks) => tasks.length), c.parts, `${c.perInput} per input: the parts`);
    t.strictSame(perInput.filter((n) => n > 0), c.parts.length === 2 ? [2] : [...c.parts.slice(0, -2).map(() => 1), 2], `${c.perInput} per input: one part per input, the implicit one with the last`);
    t.strictSame(calls.flat().map((x) => x.taskId), launched.map((l) => l.taskId), `${c.perInput} per input: every task once, in creation order`);
    t.equal(h.timers('continueReconcile').length, 0, 'nothing left');
  }
});

t.test('a reconciliation in progress walks the instances as they are: one expunged meanwhile is not asked about', async (t) => {
  const h = new Harness({ options: { instancesPerInput: 2, maxInstancesPerOffer: 100 } });
  h.put(makeApp({ instances: 6, cpus: 0.1, mem: 16 }));
  const launched = h.offer(makeOffer({ cpus: 10, mem: 10_000 }));
  h.run(launched);
  h.clearRecords();
  h.scheduler.handle({ type: 'subscribed', frameworkId: 'fw-1' });
  t.equal(h.calls('reconcile').length, 1, 'the first part only, in the first input');
  // The last instance goes away before the walk reaches it (killed and wiped).
  const last = h.instances('/app')[5];
  h.scheduler.handle({ type: 'killInstances', runSpecId: '/app', instanceIds: [last.instanceId], scale: true, wipe: true, force: true });
  h.scheduler.handle({ type: 'status', status: { taskId: launched[5].taskId, state: 'TASK_KILLED' } });
  h.advance(0);
  t.equal(h.scheduler.instance(last.instanceId), undefined, 'the instance is gone');
  const asked = h.calls('reconcile').flatMap((r) => r.tasks.map((x) => x.taskId));
  t.notOk(asked.includes(launched[5].taskId), 'the expunged task is not asked about');
  t.equal(h.calls('reconcile').at(-1)?.tasks.length, 0, 'the implicit request comes last');
});

/** Driver calls of one type made by each input the core handled. */
function observeCalls(h: Harness, type: 'reconcile'): number[] {
  const perInput: number[] = [];
  let before = 0;
  h.observe(() => {
    const n = h.calls(type).length;
    perInput.push(n - before);
    before = n;
  });
  return perInput;
}
