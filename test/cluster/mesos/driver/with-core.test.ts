import t from 'tap';
import type { Test } from 'tap';
import { makeApp } from '../../../builders/run-spec-builders';
import { MemoryStore } from '../../../harness/memory-store';
import { FakeMaster } from '../fake-master/fake-master';
import { sampleOffer, taskStatus } from '../fake-master/sample-events';
import { waitUntil } from '../fake-master/wait-until';
import { startCorePacer } from './core-fixture';
import { PATIENCE_MS } from '../../../harness/wait';

function startPacer(t: Test, master: FakeMaster, store: MemoryStore) {
  return startCorePacer(t, master, store, { driver: { logger: { info: () => undefined, warn: () => undefined } } });
}

t.test('the core launches an app through the fake master and survives a restart without relaunching', async (t) => {
  const master = await FakeMaster.start();
  t.teardown(() => master.close());
  const store = new MemoryStore();
  const first = startPacer(t, master, store);
  await waitUntil(() => store.frameworkId, PATIENCE_MS, 'the framework id to be saved');
  const frameworkId = master.frameworkId!;
  t.equal(store.frameworkId, frameworkId, 'the core saved the framework id from SUBSCRIBED');
  t.match(first.loop.submit({ type: 'putRunSpec', spec: makeApp({ id: '/web', instances: 1, cpus: 0.5, mem: 64 }) }), { ok: true });

  master.send({ type: 'OFFERS', offers: { offers: [sampleOffer(frameworkId, 'O-1')] } });
  const accept = await master.waitForCall('ACCEPT');
  const task = accept.call.accept?.operations?.[0]?.launch?.taskInfos?.[0];
  t.ok(task, 'the core launched one task');
  const taskId = task!.taskId.value;
  t.match(first.core.instances('/web')[0]?.tasks[0], { taskId });

  const running = taskStatus(taskId, 'TASK_RUNNING');
  master.send({ type: 'UPDATE', update: { status: taskStatus(taskId, 'TASK_STARTING') } });
  master.send({ type: 'UPDATE', update: { status: running } });
  master.send({ type: 'UPDATE', update: { status: taskStatus(taskId, 'TASK_RUNNING', { source: 'SOURCE_MASTER', reason: 'REASON_RECONCILIATION', uuid: undefined }) } });
  await waitUntil(() => first.core.instances('/web')[0]?.condition === 'Running', PATIENCE_MS, 'the instance to run');
  await master.waitForCall('ACKNOWLEDGE', 2);
  await new Promise((resolve) => setTimeout(resolve, 50));
  const acks = master.callsOf('ACKNOWLEDGE');
  t.equal(acks.length, 2, 'exactly the two updates with a uuid were acknowledged');
  t.same(acks[1]?.call.acknowledge?.uuid, running.uuid);

  first.stop();
  const second = startPacer(t, master, store);
  const resub = await master.waitForCall('SUBSCRIBE', 2);
  t.same(resub.call.frameworkId, { value: frameworkId }, 'resubscribed with the stored id');
  // RECONCILE #1 was the first session's implicit one; after resubscribing: explicit, then implicit.
  const reconcile = await master.waitForCall('RECONCILE', 2);
  t.same(reconcile.call.reconcile?.tasks?.map((x) => x.taskId.value), [taskId], 'the core reconciles its task on subscribed');
  t.equal(reconcile.streamId, master.streamId);
  const implicit = await master.waitForCall('RECONCILE', 3);
  t.same(implicit.call.reconcile?.tasks ?? [], [], 'then implicitly, to find strays');
  master.send({ type: 'UPDATE', update: { status: taskStatus(taskId, 'TASK_RUNNING', { source: 'SOURCE_MASTER', reason: 'REASON_RECONCILIATION', uuid: undefined }) } });
  master.send({ type: 'OFFERS', offers: { offers: [sampleOffer(frameworkId, 'O-2')] } });
  await master.waitForCall('DECLINE');
  t.equal(master.callsOf('ACCEPT').length, 1, 'no relaunch after the restart');
  t.equal(second.core.instances('/web').length, 1);
  t.equal(second.core.instances('/web')[0]?.condition, 'Running');
});

/** A fake master and a pacer subscribed to it (its framework id stored) that has just been given app `/web` of `instances`. */
async function subscribedWithApp(t: Test, instances: number) {
  const master = await FakeMaster.start();
  t.teardown(() => master.close());
  const store = new MemoryStore();
  const first = startPacer(t, master, store);
  await waitUntil(() => store.frameworkId, PATIENCE_MS, 'the framework id');
  first.loop.submit({ type: 'putRunSpec', spec: makeApp({ id: '/web', instances }) });
  return { master, store, first };
}

t.test('a pacer with instances but no framework id refuses to start', async (t) => {
  const { master, store, first } = await subscribedWithApp(t, 1);
  master.send({ type: 'OFFERS', offers: { offers: [sampleOffer(master.frameworkId!, 'O-1')] } });
  await master.waitForCall('ACCEPT');
  first.stop();
  store.frameworkId = undefined;
  t.throws(() => startPacer(t, master, store), /refusing to register a new Mesos framework/);
  t.equal(master.callsOf('SUBSCRIBE').length, 1);
});

t.test('instances that never launched do not stop a start without a framework id: it registers, then launches them', async (t) => {
  // An app created while the master could not be reached: its instances are Scheduled, no task
  // exists anywhere, and no framework id was ever stored. Counting them made every later start
  // refuse (an operator's trial, 2026-12-02).
  const { master, store, first } = await subscribedWithApp(t, 2);
  await waitUntil(() => first.core.instances('/web').length === 2 || undefined, PATIENCE_MS, 'two Scheduled instances');
  first.stop();
  store.frameworkId = undefined;
  const second = startPacer(t, master, store);
  const sub = await master.waitForCall('SUBSCRIBE', 2);
  t.equal(sub.call.frameworkId, undefined, 'registered as a new framework');
  t.equal(second.core.instances('/web').length, 2, 'the instances were kept');
  t.ok(second.core.instances('/web').every((i) => i.condition === 'Scheduled' && i.incarnation === 0), 'never launched');
  await waitUntil(() => store.frameworkId, PATIENCE_MS, 'the new framework id stored');
  master.send({ type: 'OFFERS', offers: { offers: [sampleOffer(store.frameworkId!, 'O-9')] } });
  await master.waitForCall('ACCEPT');
  await waitUntil(() => second.core.instances('/web').some((i) => i.condition === 'Provisioned') || undefined, PATIENCE_MS, 'a launch');
});
