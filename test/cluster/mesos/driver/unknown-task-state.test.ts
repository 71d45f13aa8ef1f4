import t from 'tap';
import { encodeEvent } from '../../../../src/cluster/mesos/codec/mesos-codec';
import type { Event, MesosFormat } from '../../../../src/cluster/mesos/codec/mesos-model';
import { EVENT_TYPE } from '../../../../src/cluster/mesos/proto/mesos-root';
import { encodeRecord } from '../../../../src/cluster/mesos/recordio/encode-record';
import { makeApp } from '../../../builders/run-spec-builders';
import { MemoryStore } from '../../../harness/memory-store';
import { PATIENCE_MS, sleep } from '../../../harness/wait';
import { FakeMaster } from '../fake-master/fake-master';
import { sampleOffer, taskStatus } from '../fake-master/sample-events';
import { waitUntil } from '../fake-master/wait-until';
import { startCorePacer } from './core-fixture';
import { makeDriver } from './driver-fixture';

/**
 * An UPDATE as a newer master would write it, with a TaskState this pacer's protobuf subset does
 * not declare: number 99 in protobuf, the name TASK_FROM_THE_FUTURE in JSON.
 */
function futureStateUpdate(event: Event, format: MesosFormat): Uint8Array {
  const known = encodeEvent(event, format);
  if (format === 'json') {
    const json = JSON.parse(new TextDecoder().decode(known)) as { update: { status: { state: string } } };
    json.update.status.state = 'TASK_FROM_THE_FUTURE';
    return encodeRecord(new TextEncoder().encode(JSON.stringify(json)));
  }
  const message = EVENT_TYPE.decode(known) as unknown as { update: { status: { state: number } } };
  message.update.status.state = 99;
  return encodeRecord(EVENT_TYPE.encode(message as never).finish());
}

for (const [format, raw] of [['protobuf', '99'], ['json', 'TASK_FROM_THE_FUTURE']] as const) {
  t.test(`${format}: an UPDATE with a TaskState pacer does not know keeps the stream, is acknowledged and not handed to the core`, async (t) => {
    const f = await makeDriver(t, { options: { format } });
    await f.waitInput('subscribed');
    const status = taskStatus('app.instance-1._app.1', 'TASK_RUNNING', { message: 'from a newer agent' });
    const again = taskStatus('app.instance-1._app.1', 'TASK_RUNNING');
    f.master.sendRaw(futureStateUpdate({ type: 'UPDATE', update: { status } }, format));
    f.master.sendRaw(futureStateUpdate({ type: 'UPDATE', update: { status: again } }, format));
    f.master.send({ type: 'UPDATE', update: { status: taskStatus('app.instance-2._app.1', 'TASK_RUNNING') } });
    await f.waitInput('status');
    t.same(f.inputsOf('status').map((i) => i.status.taskId), ['app.instance-2._app.1'], 'only the known state reaches the core: the task keeps its last known state');
    const acks = [await f.master.waitForCall('ACKNOWLEDGE'), await f.master.waitForCall('ACKNOWLEDGE', 2)];
    t.same(acks.map((a) => [a.call.acknowledge?.taskId.value, a.call.acknowledge?.agentId.value]), [['app.instance-1._app.1', 'agent-S0'], ['app.instance-1._app.1', 'agent-S0']]);
    t.same(acks.map((a) => a.call.acknowledge?.uuid), [status.uuid, again.uuid], 'the driver acknowledges each with its uuid, so the agent stops resending it and forwards later updates');
    const warnings = f.logs.filter((l) => l.startsWith('WARN') && l.includes('task state'));
    t.equal(warnings.length, 1, 'one warning per unknown state, not one per update');
    t.match(warnings[0], new RegExp(`unknown Mesos task state ${raw}.*app\\.instance-1\\._app\\.1`), 'it names the state and the task');
    t.equal(f.master.callsOf('SUBSCRIBE').length, 1, 'no resubscription');
    t.equal(f.driver.metrics.reconnects, 0);
    t.equal(f.driver.metrics.updates, 3, 'counted as updates received');
    t.same(f.driver.metrics.updatesByState, { TASK_RUNNING: 1 }, 'but under no state');
  });
}

t.test('with the core: the instance keeps its last known state, then follows the next known one', async (t) => {
  const master = await FakeMaster.start();
  t.teardown(() => master.close());
  const store = new MemoryStore();
  const pacer = startCorePacer(t, master, store, { driver: { logger: { info: () => undefined, warn: () => undefined } } });
  const frameworkId = await waitUntil(() => store.frameworkId, PATIENCE_MS, 'the framework id');
  pacer.loop.submit({ type: 'putRunSpec', spec: makeApp({ id: '/web', instances: 1, cpus: 0.1, mem: 32 }) });
  master.send({ type: 'OFFERS', offers: { offers: [sampleOffer(frameworkId, 'O-1')] } });
  const taskId = (await master.waitForCall('ACCEPT')).call.accept?.operations?.[0]?.launch?.taskInfos?.[0]?.taskId.value ?? '';
  master.send({ type: 'UPDATE', update: { status: taskStatus(taskId, 'TASK_RUNNING') } });
  await master.waitForCall('ACKNOWLEDGE');
  const status = taskStatus(taskId, 'TASK_RUNNING');
  master.sendRaw(futureStateUpdate({ type: 'UPDATE', update: { status } }, 'protobuf'));
  const ack = await master.waitForCall('ACKNOWLEDGE', 2);
  t.same(ack.call.acknowledge?.uuid, status.uuid, 'acknowledged: the agent stops resending it');
  master.send({ type: 'OFFERS', offers: { offers: [sampleOffer(frameworkId, 'O-2')] } });
  await master.waitForCall('DECLINE');
  t.equal(master.callsOf('ACCEPT').length, 1, 'an offer after it launches nothing: the instance is not replaced');
  t.same(pacer.core.instances('/web').map((i) => i.condition), ['Running'], 'still Running, its last known state');
  master.send({ type: 'UPDATE', update: { status: taskStatus(taskId, 'TASK_FAILED') } });
  await master.waitForCall('ACKNOWLEDGE', 3);
  for (let n = 3; master.callsOf('ACCEPT').length < 2 && n < 200; n++) {
    master.send({ type: 'OFFERS', offers: { offers: [sampleOffer(frameworkId, `O-${n}`)] } });
    await sleep(200);
  }
  t.equal(master.callsOf('ACCEPT').length, 2, 'a known terminal state is followed as always: replaced on a later offer');
  t.equal(master.callsOf('SUBSCRIBE').length, 1, 'never resubscribed');
});
