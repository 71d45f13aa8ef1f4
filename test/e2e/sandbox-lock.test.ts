import { existsSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { startLocal } from '../../src/runtime/start-local';
import { tempDir, waitFor, within } from './e2e-kit';
import { e2eConfig, isAlive, startPacer, TaskProcesses } from './pacer-kit';

/**
 * Two pacers on one host with their own `--store` but the same `--sandbox` (the default
 * `.pacer/sandboxes` with only `--store` changed, a newcomer's way to run a second one): the second
 * adopted the first one's processes from the sandboxes' state file and killed them as unknown to
 * its own store, and the first one relaunched them. The sandboxes have a lock of their own beside
 * them (`<sandbox>.lock`): the second start is refused, naming the holder's pid and `--sandbox`,
 * and leaves no store file behind; the first pacer's task runs on.
 */
t.test('a second pacer on the same --sandbox with another --store is refused; the first one\'s task runs on', async (t) => {
  const dir = tempDir(t);
  const sandboxRoot = join(dir, 'sandboxes');
  const first = await startPacer(t, e2eConfig(dir, { storePath: join(dir, 'a.db'), sandboxRoot }));
  const tasks = new TaskProcesses(t);
  t.equal((await first.request('POST', '/v2/apps', { id: '/sleeper', cmd: 'sleep 3600', cpus: 0.1, mem: 16, instances: 1 })).status, 201, 'app created');
  // Running as the core counts it (the cluster's TASK_RUNNING reaches the core through its loop, a moment later).
  await waitFor(async () => ((await first.request('GET', '/v2/apps/sleeper')).json.app as { tasksRunning?: number } | undefined)?.tasksRunning === 1, 'the task runs');
  const [pid] = [...tasks.record(first.running).values()];

  const second = e2eConfig(dir, { storePath: join(dir, 'b.db'), sandboxRoot });
  const err = await within(startLocal(second).then(() => undefined, (e: unknown) => e), 'startLocal');
  t.type(err, Error, 'the second start is refused');
  t.equal((err as Error).message, `${sandboxRoot}.lock: another pacer (pid ${process.pid}) is using these sandboxes; stop it first, or use --sandbox for another one`);
  t.notOk(existsSync(second.storePath), 'the refused start left no store file');
  t.notOk(existsSync(`${second.storePath}.lock`), 'nor its store lock');
  t.ok(pid !== undefined && isAlive(pid), 'the first pacer\'s task is still running');
  const app = await first.request('GET', '/v2/apps/sleeper');
  t.equal((app.json.app as { tasksRunning: number }).tasksRunning, 1, 'and it is still the first pacer\'s one running task');

  await first.close();
  t.notOk(existsSync(`${sandboxRoot}.lock`), 'close() releases the sandboxes\' lock');
  const again = await startPacer(t, e2eConfig(dir, { storePath: join(dir, 'a.db'), sandboxRoot }));
  t.equal((await again.request('GET', '/ping')).text, 'pong', 'a pacer starts on the sandboxes once they are free');
  await again.shutdown();
});
