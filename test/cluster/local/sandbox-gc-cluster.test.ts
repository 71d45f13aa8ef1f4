import t from 'tap';
import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeApp } from '../../builders/run-spec-builders';
import { sandboxOf } from '../../../src/cluster/local/sandbox-of';
import { appLaunch, makeFixture, waitFor } from './local-fixture';

/*
 * The local cluster collects the sandboxes of finished tasks once their terminal update is
 * acknowledged (sandbox-gc.ts; the collector's own bounds on a fake clock are in
 * sandbox-gc.test.ts). Waits are bounded event waits, never a fixed sleep.
 */

t.test('a finished task\'s sandbox goes after the delay (0 here); a running task\'s stays', async (t) => {
  const f = makeFixture(t, { sandboxGcDelayMs: 0 });
  const offer = await f.startAndOffer();
  const done = appLaunch(offer, makeApp({ cmd: 'echo hi > out', hostPorts: [] }));
  const running = appLaunch(offer, makeApp({ cmd: 'sleep 30', hostPorts: [] }));
  f.cluster.accept(offer.offerId, [done.op, running.op], 0);
  await f.waitStatus(running.task.taskId, 'TASK_RUNNING');
  await f.waitStatus(done.task.taskId, 'TASK_FINISHED');
  const root = f.options.sandboxRoot;
  await waitFor(() => !existsSync(sandboxOf(root, done.task.taskId)), undefined, 'the finished sandbox removed');
  t.ok(existsSync(sandboxOf(root, running.task.taskId)), 'the running task keeps its sandbox');
});

t.test('no sandbox goes before the terminal update is acknowledged', async (t) => {
  const f = makeFixture(t, { sandboxGcDelayMs: 0 });
  f.autoAck = false;
  const offer = await f.startAndOffer();
  const done = appLaunch(offer, makeApp({ cmd: 'exit 0', hostPorts: [] }));
  f.cluster.accept(offer.offerId, [done.op], 0);
  const end = await f.waitStatus(done.task.taskId, 'TASK_FINISHED');
  const sandbox = sandboxOf(f.options.sandboxRoot, done.task.taskId);
  t.ok(existsSync(sandbox), 'kept while the update is not acknowledged');
  f.cluster.acknowledge(end.agentId ?? '', done.task.taskId, end.uuid ?? '');
  await waitFor(() => !existsSync(sandbox), undefined, 'the sandbox removed after the acknowledgement');
});

t.test('the count bound keeps the newest finished sandboxes', async (t) => {
  const f = makeFixture(t, { sandboxKeep: 1 });
  f.autoAck = false;
  const root = f.options.sandboxRoot;
  const offer = await f.startAndOffer();
  const a = appLaunch(offer, makeApp({ cmd: 'exit 0', hostPorts: [] }));
  const b = appLaunch(offer, makeApp({ cmd: 'exit 0', hostPorts: [] }));
  f.cluster.accept(offer.offerId, [a.op, b.op], 0);
  const endA = await f.waitStatus(a.task.taskId, 'TASK_FINISHED');
  const endB = await f.waitStatus(b.task.taskId, 'TASK_FINISHED');
  // Handed over in this order: a is the older finished sandbox.
  f.cluster.acknowledge(endA.agentId ?? '', a.task.taskId, endA.uuid ?? '');
  t.ok(existsSync(sandboxOf(root, a.task.taskId)), 'one finished sandbox is within the bound');
  f.cluster.acknowledge(endB.agentId ?? '', b.task.taskId, endB.uuid ?? '');
  t.notOk(existsSync(sandboxOf(root, a.task.taskId)), 'the older sandbox removed at once');
  t.ok(existsSync(sandboxOf(root, b.task.taskId)), 'the newest is kept (a week by default)');
});

t.test('start: sandboxes left from before fall under both bounds; volumes/ is untouched', async (t) => {
  const f = makeFixture(t, { sandboxKeep: 1 });
  const root = f.options.sandboxRoot;
  const dir = (name: string, ageMs: number): string => {
    const d = join(root, name);
    mkdirSync(d, { recursive: true });
    writeFileSync(join(d, 'stdout'), 'x');
    const s = (Date.now() - ageMs) / 1000;
    utimesSync(d, s, s);
    return d;
  };
  const week = 7 * 24 * 3600 * 1000;
  const expired = dir('old-app.1', week + 60_000);
  const older = dir('old-app.2', 120_000);
  const newer = dir('old-app.3', 60_000);
  const volume = join(root, 'volumes', 'agent-1', 'p1');
  mkdirSync(volume, { recursive: true });
  writeFileSync(join(volume, 'data'), 'keep');
  utimesSync(join(root, 'volumes'), 0, 0);
  await f.startAndOffer();
  t.notOk(existsSync(expired), 'older than the delay: removed');
  t.notOk(existsSync(older), 'beyond the count: removed, oldest first');
  t.ok(existsSync(newer), 'the newest kept');
  t.ok(existsSync(join(volume, 'data')), 'volumes/ untouched');
});
