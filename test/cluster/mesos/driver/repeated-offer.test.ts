import t from 'tap';
import { makeApp } from '../../../builders/run-spec-builders';
import { MemoryStore } from '../../../harness/memory-store';
import { PATIENCE_MS, sleep } from '../../../harness/wait';
import { FakeMaster } from '../fake-master/fake-master';
import { sampleOffer } from '../fake-master/sample-events';
import { waitUntil } from '../fake-master/wait-until';
import { startCorePacer } from './core-fixture';
import { makeDriver } from './driver-fixture';

/**
 * A master offers each offer id once (mesos-v1-scheduler-api.md §2.3: an id can be used by one
 * ACCEPT only). One that offers an id again — twice in one OFFERS event, or again while the first
 * is held — must not make the core place instances on both copies.
 */

t.test('an offer id repeated in one event or in a later one reaches the core once, with one warning per event', async (t) => {
  const f = await makeDriver(t);
  const { frameworkId } = await f.waitInput('subscribed');
  f.master.send({ type: 'OFFERS', offers: { offers: [sampleOffer(frameworkId, 'O-1'), sampleOffer(frameworkId, 'O-1'), sampleOffer(frameworkId, 'O-2')] } });
  await f.waitInput('offers');
  f.master.send({ type: 'OFFERS', offers: { offers: [sampleOffer(frameworkId, 'O-2'), sampleOffer(frameworkId, 'O-3')] } });
  await f.waitInput('offers', 2);
  t.same(f.inputsOf('offers').map((i) => i.offers.map((o) => o.offerId)), [['O-1', 'O-2'], ['O-3']], 'each id once');
  t.same(f.logs.filter((l) => /already holds/.test(l)), [
    'WARN ignoring 1 offer(s) whose id pacer already holds (O-1): the master offered the same id again',
    'WARN ignoring 1 offer(s) whose id pacer already holds (O-2): the master offered the same id again',
  ]);
  t.equal(f.driver.metrics.offersReceived, 5, 'every offer received is counted');
});

t.test('an offer id used by an ACCEPT may come again later (a new offer for the framework to use)', async (t) => {
  const f = await makeDriver(t);
  const { frameworkId } = await f.waitInput('subscribed');
  f.master.send({ type: 'OFFERS', offers: { offers: [sampleOffer(frameworkId, 'O-1')] } });
  await f.waitInput('offers');
  f.driver.decline(['O-1'], 0);
  await f.master.waitForCall('DECLINE');
  f.master.send({ type: 'OFFERS', offers: { offers: [sampleOffer(frameworkId, 'O-1')] } });
  await f.waitInput('offers', 2);
  t.same(f.logs.filter((l) => /already holds/.test(l)), [], 'no longer held: taken as new');
});

t.test('an offer sent twice in one event is used by one ACCEPT: nothing reported dropped, nothing launched twice', async (t) => {
  const master = await FakeMaster.start();
  t.teardown(() => master.close());
  const store = new MemoryStore();
  const pacer = startCorePacer(t, master, store, { driver: { logger: { info: () => undefined, warn: () => undefined } } });
  const frameworkId = await waitUntil(() => store.frameworkId, PATIENCE_MS, 'the framework id');
  // The recorded offer has 2 cpus: room for 2 instances on each copy.
  t.match(pacer.loop.submit({ type: 'putRunSpec', spec: makeApp({ id: '/web', instances: 4, cpus: 1, mem: 32 }) }), { ok: true });
  master.send({ type: 'OFFERS', offers: { offers: [sampleOffer(frameworkId, 'O-1'), sampleOffer(frameworkId, 'O-1')] } });
  const accept = await master.waitForCall('ACCEPT');
  await waitUntil(() => pacer.core.instances('/web').filter((i) => i.tasks.length > 0).length >= 2, PATIENCE_MS, 'two launches');
  await sleep(200);
  t.same(master.callsOf('ACCEPT').map((c) => c.call.accept?.offerIds?.map((o) => o.value)), [['O-1']], 'one ACCEPT of O-1');
  t.equal(accept.call.accept?.operations?.flatMap((op) => op.launch?.taskInfos ?? []).length, 2, 'with the two instances the offer holds');
  const dropped = pacer.inputs.filter((i) => i.type === 'status' && i.status.state === 'TASK_DROPPED');
  t.same(dropped, [], 'no launch reported dropped');
  t.equal(pacer.core.instances('/web').filter((i) => i.tasks.length > 0).length, 2, 'two instances launched, two still waiting for an offer');
});
