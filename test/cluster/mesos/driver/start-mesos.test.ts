import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import type { Test } from 'tap';
import { defaultConfig, type PacerConfig } from '../../../../src/runtime/config';
import { startMesos } from '../../../../src/runtime/start-mesos';
import { FakeMaster } from '../fake-master/fake-master';
import { sampleOffer } from '../fake-master/sample-events';
import { waitUntil } from '../fake-master/wait-until';
import { captureLog } from '../../../harness/log-capture';
import { PATIENCE_MS } from '../../../harness/wait';
import { FAST } from './driver-fixture';

function configFor(t: Test, master: string | undefined): PacerConfig {
  const dir = mkdtempSync(join(tmpdir(), 'pacer-mesos-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return { ...defaultConfig(dir), cluster: 'mesos', port: 0, ...(master === undefined ? {} : { master }) };
}

const quiet = { driver: { ...FAST, logger: { info: () => undefined, warn: () => undefined } } };

t.test('startMesos serves the API, subscribes, and launches through the master', async (t) => {
  const master = await FakeMaster.start();
  t.teardown(() => master.close());
  const pacer = await startMesos(configFor(t, master.url), quiet);
  t.teardown(() => pacer.close());
  await waitUntil(() => pacer.cluster.frameworkId, PATIENCE_MS, 'the subscription');
  const info = await (await fetch(`http://${pacer.address}/v2/info`)).json() as { frameworkId?: string };
  t.equal(info.frameworkId, master.frameworkId);
  const created = await fetch(`http://${pacer.address}/v2/apps`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ id: '/web', cmd: 'sleep 100', cpus: 0.1, mem: 32, instances: 1 }),
  });
  t.equal(created.status, 201);
  master.send({ type: 'OFFERS', offers: { offers: [sampleOffer(master.frameworkId!, 'O-1')] } });
  const accept = await master.waitForCall('ACCEPT');
  t.equal(accept.call.accept?.operations?.[0]?.type, 'LAUNCH');
});

t.test('startMesos refuses a missing or unsupported --master', async (t) => {
  for (const master of [undefined, 'mesos.example:5050']) {
    await t.rejects(startMesos(configFor(t, master), quiet), /--master/);
  }
});

t.test('an ERROR from the master reaches onFatal', async (t) => {
  const master = await FakeMaster.start();
  t.teardown(() => master.close());
  const fatal: Error[] = [];
  const pacer = await startMesos(configFor(t, master.url), { ...quiet, onFatal: (err, running) => { fatal.push(err); void running?.close(); } });
  t.teardown(() => pacer.close());
  await master.waitForStream();
  master.send({ type: 'ERROR', error: { message: 'Framework has been removed' } });
  await waitUntil(() => fatal[0], PATIENCE_MS, 'onFatal');
  t.match(fatal[0]?.message, /Framework has been removed/);
});

t.test('an ERROR that stops pacer is said once: one error record naming it, not a driver warning too', async (t) => {
  const master = await FakeMaster.start();
  t.teardown(() => master.close());
  const captured = captureLog('json');
  const exitCode = process.exitCode;
  t.teardown(() => { process.exitCode = exitCode; }); // the default onFatal sets 1, as pacer exits
  const pacer = await startMesos(configFor(t, master.url), { log: captured.log, driver: FAST });
  t.teardown(() => pacer.close());
  await master.waitForStream();
  master.send({ type: 'ERROR', error: { message: 'Framework has been removed' } });
  await waitUntil(() => pacer.cluster.state === 'stopped' && captured.records().some((r) => /Framework has been removed/.test(String(r.msg))), PATIENCE_MS, 'the driver stopped and said why');
  const said = captured.records().filter((r) => /Framework has been removed/.test(String(r.msg)));
  t.equal(said.length, 1, 'one record');
  t.match(said[0], { level: 50, component: 'mesos', subscription: 'stopped', msg: /^the Mesos driver stopped: the Mesos master sent ERROR: Framework has been removed: / });
});
