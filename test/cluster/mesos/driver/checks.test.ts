import t from 'tap';
import { makeApp } from '../../../builders/run-spec-builders';
import { MemoryStore } from '../../../harness/memory-store';
import { FakeMaster } from '../fake-master/fake-master';
import { checkOfMesos } from '../fake-master/check-of-mesos';
import { sampleOffer, taskStatus } from '../fake-master/sample-events';
import { waitUntil } from '../fake-master/wait-until';
import { startCorePacer } from './core-fixture';
import { PATIENCE_MS } from '../../../harness/wait';

/**
 * Marathon's `check` over a Mesos master, end to end through the driver: the core's launch
 * carries the app's check to ACCEPT's TaskInfo.check, and an UPDATE's `check_status` becomes the
 * task's latest check result (what `checkResult` shows); the result survives updates without one.
 */

t.test('an app\'s check goes out in TaskInfo.check; check_status updates come back as the task\'s result', async (t) => {
  const master = await FakeMaster.start();
  t.teardown(() => master.close());
  const store = new MemoryStore();
  const pacer = startCorePacer(t, master, store, { driver: { logger: { info: () => undefined, warn: () => undefined } } });
  await waitUntil(() => store.frameworkId, PATIENCE_MS, 'the framework id to be saved');
  const app = makeApp({ id: '/web', instances: 1, cpus: 0.5, mem: 64, check: { exec: { command: { shell: 'test -f /tmp/ready' } }, intervalSeconds: 5, timeoutSeconds: 2, delaySeconds: 1 } });
  t.match(pacer.loop.submit({ type: 'putRunSpec', spec: app }), { ok: true });
  master.send({ type: 'OFFERS', offers: { offers: [sampleOffer(master.frameworkId!, 'O-1')] } });
  const accept = await master.waitForCall('ACCEPT');
  const info = accept.call.accept?.operations?.[0]?.launch?.taskInfos?.[0];
  t.strictSame(info?.check, { type: 'COMMAND', command: { command: { shell: true, value: 'test -f /tmp/ready' } }, delaySeconds: 1, intervalSeconds: 5, timeoutSeconds: 2 });
  t.strictSame(checkOfMesos(info!.check!), { delayMs: 1000, intervalMs: 5000, timeoutMs: 2000, kind: 'command', command: { shell: 'test -f /tmp/ready' } },
    'the sim-backed master reads back what was sent');
  const taskId = info!.taskId.value;
  const task = () => pacer.core.instances('/web')[0]?.tasks[0];

  master.send({ type: 'UPDATE', update: { status: taskStatus(taskId, 'TASK_RUNNING', { checkStatus: { type: 'COMMAND', command: {} } }) } });
  await waitUntil(() => task()?.state === 'TASK_RUNNING', PATIENCE_MS, 'the task to run');
  t.equal(task()?.checkResult, undefined, 'an empty check status: no result yet');
  master.send({ type: 'UPDATE', update: { status: taskStatus(taskId, 'TASK_RUNNING', { reason: 'REASON_TASK_CHECK_STATUS_UPDATED', checkStatus: { type: 'COMMAND', command: { exitCode: 1 } } }) } });
  await waitUntil(() => task()?.checkResult !== undefined, PATIENCE_MS, 'the check result');
  t.same(task()?.checkResult, { command: { exitCode: 1 } });
  master.send({ type: 'UPDATE', update: { status: taskStatus(taskId, 'TASK_RUNNING', { reason: 'REASON_TASK_HEALTH_CHECK_STATUS_UPDATED', healthy: true }) } });
  master.send({ type: 'UPDATE', update: { status: taskStatus(taskId, 'TASK_RUNNING', { reason: 'REASON_TASK_CHECK_STATUS_UPDATED', checkStatus: { type: 'COMMAND', command: { exitCode: 0 } } }) } });
  await waitUntil(() => JSON.stringify(task()?.checkResult) === '{"command":{"exitCode":0}}', PATIENCE_MS, 'the new result');
  t.same(task()?.checkResult, { command: { exitCode: 0 } });
});

t.test('checkOfMesos: a check no executor runs is named', async (t) => {
  const table: [string, Parameters<typeof checkOfMesos>[0], string | object][] = [
    ['no type', {}, 'a check of type (none), which no executor runs'],
    ['HTTP without http', { type: 'HTTP' }, 'an HTTP check without `http`'],
    ['TCP with Mesos\'s default timing', { type: 'TCP', tcp: { port: 80 } }, { delayMs: 15_000, intervalMs: 10_000, timeoutMs: 20_000, kind: 'tcp', port: 80 }],
    ['COMMAND argv', { type: 'COMMAND', command: { command: { shell: false, value: '/bin/true', arguments: ['/bin/true'] } } }, { delayMs: 15_000, intervalMs: 10_000, timeoutMs: 20_000, kind: 'command', command: { argv: ['/bin/true'] } }],
  ];
  for (const [name, info, want] of table) t.same(checkOfMesos(info), want, name);
});
