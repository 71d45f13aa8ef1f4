import t from 'tap';
import type { Test } from 'tap';
import type { Call } from '../../../../src/cluster/mesos/codec/mesos-model';
import { makeApp } from '../../../builders/run-spec-builders';
import { MemoryStore } from '../../../harness/memory-store';
import { PATIENCE_MS, sleep } from '../../../harness/wait';
import { FakeMaster } from '../fake-master/fake-master';
import { sampleOffer, taskStatus } from '../fake-master/sample-events';
import { waitUntil } from '../fake-master/wait-until';
import { startCorePacer, type CorePacer, type CorePacerSetup } from './core-fixture';

/**
 * A RESCIND racing the ACCEPT of the same offer (spec §3.4, §7.3): the instance must end up
 * launched once, on another offer — nothing lost, nothing counted twice.
 */

const quiet = { info: () => undefined, warn: () => undefined };
const offerOf = (call: Call): string | undefined => call.accept?.offerIds?.[0]?.value;

async function withApp(t: Test, setup: CorePacerSetup, hangWhen: ((call: Call) => boolean)[] = []): Promise<{ master: FakeMaster; pacer: CorePacer; frameworkId: string }> {
  const master = await FakeMaster.start();
  t.teardown(() => master.close());
  master.hangWhen.push(...hangWhen); // before pacer starts: its first calls follow SUBSCRIBED at once
  const store = new MemoryStore();
  return { master, pacer: startCorePacer(t, master, store, setup), frameworkId: await waitUntil(() => store.frameworkId, PATIENCE_MS, 'the framework id') };
}

/** Offers fresh offers, one at a time, until the core accepts one (its launch delay may decline the first). */
async function offerUntilAccepted(master: FakeMaster, frameworkId: string, acceptsBefore: number): Promise<Call> {
  for (let n = 2; ; n++) {
    master.send({ type: 'OFFERS', offers: { offers: [sampleOffer(frameworkId, `O-${n}`)] } });
    const deadline = Date.now() + 500;
    while (Date.now() < deadline && master.callsOf('ACCEPT').length === acceptsBefore) await sleep(20);
    const accept = master.callsOf('ACCEPT')[acceptsBefore];
    if (accept !== undefined) return accept.call;
    if (n > 200) throw new Error('no offer was accepted');
  }
}

t.test('an ACCEPT still queued when its offer is rescinded is not sent; its instance launches on another offer', async (t) => {
  // One call in flight at a time and an unanswered RECONCILE: the ACCEPT of O-1 stays queued.
  const { master, pacer, frameworkId } = await withApp(t, {
    driver: { logger: quiet, maxConcurrentCalls: 1, callTimeoutMs: 10 * PATIENCE_MS },
  }, [(call) => call.type === 'RECONCILE']);
  t.equal((await master.waitForCall('RECONCILE')).status, 0, 'the first RECONCILE hangs');
  t.match(pacer.loop.submit({ type: 'putRunSpec', spec: makeApp({ id: '/web', instances: 1, cpus: 0.1, mem: 32 }) }), { ok: true });
  master.send({ type: 'OFFERS', offers: { offers: [sampleOffer(frameworkId, 'O-1')] } });
  const first = await waitUntil(() => pacer.core.instances('/web')[0]?.tasks[0]?.taskId, PATIENCE_MS, 'the launch on O-1');
  master.send({ type: 'RESCIND', rescind: { offerId: { value: 'O-1' } } });
  await waitUntil(() => pacer.inputs.find((i) => i.type === 'status' && i.status.taskId === first), PATIENCE_MS, 'the launch on O-1 reported dropped');
  t.equal(master.releaseHung(), 1);
  const accept = await offerUntilAccepted(master, frameworkId, 0);
  t.not(offerOf(accept), 'O-1');
  await sleep(50);
  t.same(master.callsOf('ACCEPT').map((c) => offerOf(c.call)), [offerOf(accept)], 'one ACCEPT, and never one of the rescinded offer');
  const instances = pacer.core.instances('/web');
  t.equal(instances.length, 1, 'one instance');
  const launched = accept.accept?.operations?.[0]?.launch?.taskInfos?.[0]?.taskId.value;
  t.same(instances[0]?.tasks.map((task) => task.taskId), [launched], 'its task is the one launched on the new offer');
  t.not(launched, first);
  const dropped = pacer.inputs.filter((i) => i.type === 'status' && i.status.taskId === first);
  t.match(dropped, [{ status: { state: 'TASK_DROPPED', reason: 'REASON_INVALID_OFFERS' } }], 'the launch on O-1 was reported dropped once');
});

t.test('an ACCEPT sent before the RESCIND is answered TASK_DROPPED by the master; its instance launches on another offer', async (t) => {
  const { master, pacer, frameworkId } = await withApp(t, { driver: { logger: quiet } });
  t.match(pacer.loop.submit({ type: 'putRunSpec', spec: makeApp({ id: '/web', instances: 1, cpus: 0.1, mem: 32 }) }), { ok: true });
  master.send({ type: 'OFFERS', offers: { offers: [sampleOffer(frameworkId, 'O-1')] } });
  const sent = await master.waitForCall('ACCEPT');
  const first = sent.call.accept?.operations?.[0]?.launch?.taskInfos?.[0]?.taskId.value ?? '';
  // What a master answers an ACCEPT of an offer it rescinded (master.cpp `accept`, §7.3): no uuid.
  master.send({ type: 'RESCIND', rescind: { offerId: { value: 'O-1' } } });
  master.send({
    type: 'UPDATE', update: {
      status: taskStatus(first, 'TASK_DROPPED', {
        source: 'SOURCE_MASTER', reason: 'REASON_INVALID_OFFERS', uuid: undefined, message: 'Task launched with invalid offers: Offer O-1 is no longer valid',
      }),
    },
  });
  const accept = await offerUntilAccepted(master, frameworkId, 1);
  await sleep(50);
  t.equal(master.callsOf('ACCEPT').length, 2, 'launched once more, on the new offer');
  const launched = accept.accept?.operations?.[0]?.launch?.taskInfos?.[0]?.taskId.value;
  const instances = pacer.core.instances('/web');
  t.equal(instances.length, 1, 'still one instance');
  t.same(instances[0]?.tasks.map((task) => task.taskId), [launched]);
  t.same(master.callsOf('ACKNOWLEDGE'), [], 'the master\'s update carries no uuid: nothing to acknowledge');
});
