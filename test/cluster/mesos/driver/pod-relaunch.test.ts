import t from 'tap';
import type { TaskInfo } from '../../../../src/cluster/mesos/codec/mesos-model';
import { makePod } from '../../../builders/run-spec-builders';
import { MemoryStore } from '../../../harness/memory-store';
import { FakeMaster } from '../fake-master/fake-master';
import { sampleOffer, taskStatus } from '../fake-master/sample-events';
import { waitUntil } from '../fake-master/wait-until';
import { startCorePacer } from './core-fixture';

const WAIT_MS = 60_000;

/** The executor id and tasks of the n-th LAUNCH_GROUP the master received (1-based). */
async function nthLaunchGroup(master: FakeMaster, nth: number): Promise<{ executorId: string; tasks: readonly TaskInfo[] }> {
  const accept = await master.waitForCall('ACCEPT', nth, WAIT_MS);
  const group = accept.call.accept?.operations?.find((op) => op.type === 'LAUNCH_GROUP')?.launchGroup;
  if (group === undefined) throw new Error(`ACCEPT #${nth} holds no LAUNCH_GROUP`);
  return { executorId: group.executor.executorId.value, tasks: group.taskGroup.tasks ?? [] };
}

/** Offers the agent again every 100 ms (past the backoff) until the n-th ACCEPT arrives. */
async function offerUntilAccepted(master: FakeMaster, frameworkId: string, nth: number): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  for (let i = 2; master.callsOf('ACCEPT').length < nth; i++) {
    if (Date.now() > deadline) throw new Error(`no ACCEPT #${nth} within ${WAIT_MS} ms`);
    master.send({ type: 'OFFERS', offers: { offers: [sampleOffer(frameworkId, `O-${i}`)] } });
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

t.test('a failed pod instance is relaunched on a fresh executor while the old one still shuts down (issue 15.1)', async (t) => {
  const master = await FakeMaster.start();
  t.teardown(() => master.close());
  master.executors.shutdownMs = 120_000; // the old default executor outlives the whole test
  const store = new MemoryStore();
  const pacer = startCorePacer(t, master, store);
  await waitUntil(() => store.frameworkId, WAIT_MS, 'the subscription');
  const frameworkId = master.frameworkId!;
  const pod = makePod({ id: '/pod', containers: [{ name: 'a' }, { name: 'b' }], backoff: { initialMs: 50, factor: 1, maxMs: 50 } });
  t.match(pacer.loop.submit({ type: 'putRunSpec', spec: pod }), { ok: true });

  master.send({ type: 'OFFERS', offers: { offers: [sampleOffer(frameworkId, 'O-1')] } });
  const first = await nthLaunchGroup(master, 1);
  for (const task of first.tasks) master.send({ type: 'UPDATE', update: { status: taskStatus(task.taskId.value, 'TASK_RUNNING') } });
  await waitUntil(() => pacer.core.instances('/pod')[0]?.condition === 'Running', WAIT_MS, 'the instance to run');
  const [failed, sibling] = first.tasks;
  // One container fails; the default executor kills its sibling and then shuts itself down.
  master.send({ type: 'UPDATE', update: { status: taskStatus(failed!.taskId.value, 'TASK_FAILED') } });
  master.send({ type: 'UPDATE', update: { status: taskStatus(sibling!.taskId.value, 'TASK_KILLED') } });
  t.ok(master.executors.exists('agent-S0', first.executorId), 'the old executor is still shutting down');

  await offerUntilAccepted(master, frameworkId, 2);
  const second = await nthLaunchGroup(master, 2);
  t.not(second.executorId, first.executorId, 'the relaunch names a new executor');
  t.same(master.executors.refused, [], 'the agent refused no task group');
  for (const task of second.tasks) master.send({ type: 'UPDATE', update: { status: taskStatus(task.taskId.value, 'TASK_RUNNING') } });
  await waitUntil(() => pacer.core.instances('/pod')[0]?.condition === 'Running', WAIT_MS, 'the relaunched instance to run');
  const dropped = pacer.inputs.filter((i) => i.type === 'status' && i.status.state === 'TASK_DROPPED');
  t.same(dropped, [], 'no task of the relaunch was dropped');
});

t.test('the fake agent refuses a task group for an executor that is still shutting down', async (t) => {
  const master = await FakeMaster.start();
  t.teardown(() => master.close());
  master.executors.shutdownMs = 200;
  const store = new MemoryStore();
  const pacer = startCorePacer(t, master, store);
  await waitUntil(() => store.frameworkId, WAIT_MS, 'the subscription');
  const frameworkId = master.frameworkId!;
  pacer.loop.submit({ type: 'putRunSpec', spec: makePod({ id: '/pod', containers: [{ name: 'a' }] }) });
  master.send({ type: 'OFFERS', offers: { offers: [sampleOffer(frameworkId, 'O-1')] } });
  const first = await nthLaunchGroup(master, 1);
  const accept = (await master.waitForCall('ACCEPT', 1, WAIT_MS)).call;
  master.send({ type: 'UPDATE', update: { status: taskStatus(first.tasks[0]!.taskId.value, 'TASK_FAILED') } });
  // The same ACCEPT again (as a framework reusing the executor id would send it) is refused while shutting down…
  t.same(master.executors.onCall(accept).map((e) => [e.update?.status.state, e.update?.status.reason]), [['TASK_DROPPED', 'REASON_EXECUTOR_TERMINATED']]);
  // …and accepted once the executor is gone, which the master reports as a FAILURE with the executor id.
  await waitUntil(() => !master.executors.exists('agent-S0', first.executorId), WAIT_MS, 'the executor to terminate');
  t.same(master.executors.onCall(accept), []);
});
