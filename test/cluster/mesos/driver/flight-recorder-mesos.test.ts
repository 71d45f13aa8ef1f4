import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { defaultConfig } from '../../../../src/runtime/config';
import { RECORDING_FILE } from '../../../../src/runtime/recording/recording-format';
import { startMesos } from '../../../../src/runtime/start-mesos';
import { cliMain, type CliIo } from '../../../../sim/runner/cli-main';
import { FakeMaster } from '../fake-master/fake-master';
import { sampleOffer, taskStatus } from '../fake-master/sample-events';
import { waitUntil } from '../fake-master/wait-until';
import { PATIENCE_MS } from '../../../harness/wait';
import { FAST } from './driver-fixture';
import { call } from './mesos-pacer-fixture';

/**
 * The flight recorder (issue 18) on the Mesos driver: `startMesos` with `--record DIR` against the
 * fake master — subscription, offers (one used, one rescinded, one declined), status updates with
 * acknowledgements, a kill through the API, a restart that recovers from the store — and both
 * recordings replay with `npm run sim -- replay DIR` byte for byte.
 */

function sim(argv: readonly string[]): { code: number; out: string } {
  let out = '';
  const io: CliIo = { readFile: (p) => readFileSync(p, 'utf8'), writeFile: (p, text) => writeFileSync(p, text), stdout: (s) => { out += s; }, stderr: (s) => { out += s; } };
  return { code: cliMain(argv, io), out };
}

const quiet = { driver: { ...FAST, logger: { info: () => undefined, warn: () => undefined } } };

t.test('recordings of pacer on the fake Mesos master replay exactly', async (t) => {
  const master = await FakeMaster.start();
  t.teardown(() => master.close());
  const dir = mkdtempSync(join(tmpdir(), 'pacer-mesos-rec-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const config = { ...defaultConfig(dir), cluster: 'mesos' as const, port: 0, master: master.url };

  let pacer = await startMesos({ ...config, recordDir: join(dir, 'rec-1') }, quiet);
  t.teardown(() => pacer.close());
  const frameworkId = await waitUntil(() => pacer.cluster.frameworkId, PATIENCE_MS, 'the subscription');
  t.equal((await call(pacer, 'POST', '/v2/apps', { id: '/web', cmd: 'sleep 100', cpus: 0.1, mem: 32, instances: 1 })).status, 201, 'created');
  master.send({ type: 'OFFERS', offers: { offers: [sampleOffer(frameworkId, 'O-1')] } });
  const accept = await master.waitForCall('ACCEPT');
  const taskId = accept.call.accept?.operations?.[0]?.launch?.taskInfos?.[0]?.taskId.value ?? '';
  t.not(taskId, '', 'launched');
  master.send({ type: 'UPDATE', update: { status: taskStatus(taskId, 'TASK_STARTING') } });
  master.send({ type: 'UPDATE', update: { status: taskStatus(taskId, 'TASK_RUNNING') } });
  await waitUntil(() => pacer.scheduler.instances('/web')[0]?.condition === 'Running' || undefined, PATIENCE_MS, 'the instance running');
  master.send({ type: 'OFFERS', offers: { offers: [sampleOffer(frameworkId, 'O-2')] } });
  master.send({ type: 'RESCIND', rescind: { offerId: { value: 'O-2' } } });
  // A third update after the rescind on the same stream: once it is acknowledged, the rescind
  // before it has been handled (and recorded); waiting for the first two alone raced the close.
  master.send({ type: 'UPDATE', update: { status: taskStatus(taskId, 'TASK_RUNNING') } });
  await waitUntil(() => master.callsOf('ACKNOWLEDGE').length >= 3 || undefined, PATIENCE_MS, 'the updates acknowledged');
  await pacer.close();

  pacer = await startMesos({ ...config, recordDir: join(dir, 'rec-2') }, quiet);
  await master.waitForCall('SUBSCRIBE', 2);
  await waitUntil(() => pacer.cluster.frameworkId, PATIENCE_MS, 'resubscribed');
  master.send({ type: 'UPDATE', update: { status: taskStatus(taskId, 'TASK_RUNNING', { source: 'SOURCE_MASTER', reason: 'REASON_RECONCILIATION', uuid: undefined }) } });
  master.send({ type: 'OFFERS', offers: { offers: [sampleOffer(frameworkId, 'O-3')] } });
  await master.waitForCall('DECLINE');
  t.equal((await call(pacer, 'DELETE', '/v2/apps/web')).status, 200, 'deleted');
  await master.waitForCall('KILL');
  master.send({ type: 'UPDATE', update: { status: taskStatus(taskId, 'TASK_KILLED') } });
  await waitUntil(() => pacer.scheduler.runSpecs().length === 0 || undefined, PATIENCE_MS, 'the app gone');
  await pacer.close();

  for (const rec of ['rec-1', 'rec-2']) {
    const replay = sim(['replay', join(dir, rec)]);
    t.equal(replay.code, 0, `${rec} replays exactly: ${replay.out.split('\n').at(-2) ?? ''}`);
  }
  const text = readFileSync(join(dir, 'rec-2', RECORDING_FILE), 'utf8');
  for (const kind of ['"type":"subscribed"', '"type":"offers"', '"type":"status"', '"type":"deleteRunSpec"', '"op":"kill"', '"op":"decline"', '"op":"reconcile"', '"k":"end"']) {
    t.ok(text.includes(kind), `the second recording holds ${kind}`);
  }
  t.ok(readFileSync(join(dir, 'rec-1', RECORDING_FILE), 'utf8').includes('"type":"rescind"'), 'the first holds the rescind');
});
