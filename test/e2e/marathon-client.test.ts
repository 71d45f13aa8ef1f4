import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import t from 'tap';
import { tempDir, waitFor, within } from './e2e-kit';
import { spawnMain, startupPort } from './main-kit';

/**
 * A real Marathon client library against a real pacer (issue 10): Debian's python3-marathon
 * (`marathon_client.py`) drives `src/main.ts` on the local cluster (real `sleep` processes):
 * info, ping, leader; create, get, list, scale (to and by), kill a task (with and without
 * scale), kill tasks, restart, update, versions, delete of an app; create, get, scaleBy, delete
 * of a group; a stuck deployment, the queue, reset delay, rollback; and the library's own event
 * stream parsing every event it gets. Each line the script prints is one assertion here.
 * Skipped, saying why, when python3 or its `marathon` module is missing (`.ci/run` installs it).
 */

const SCRIPT = join(__dirname, 'marathon_client.py');

/** The first python3 that can import the library (Debian's lives under /usr/bin/python3). */
function pythonWithMarathon(): string | undefined {
  for (const python of ['python3', '/usr/bin/python3']) {
    const probe = spawnSync(python, ['-c', 'import marathon'], { stdio: 'ignore', timeout: 30_000 });
    if (probe.status === 0) return python;
  }
  return undefined;
}

const python = pythonWithMarathon();

t.test('python3-marathon drives pacer: apps, tasks, groups, deployments, the queue and the event stream', {
  skip: python === undefined ? 'python3 with the marathon module is not installed (apt-get install python3-marathon)' : false,
  timeout: 600_000,
}, async (t) => {
  const dir = tempDir(t);
  const main = spawnMain(t, ['--port', '0', '--store', join(dir, 'pacer.db'), '--sandbox', join(dir, 'sandboxes')]);
  const port = await startupPort(main);
  const base = `http://127.0.0.1:${port}`;
  // Whatever the script left, no task may outlive the test: delete everything, wait, then stop pacer.
  t.teardown(async () => {
    if (main.child.exitCode !== null) return;
    await fetch(`${base}/v2/groups?force=true`, { method: 'DELETE', signal: AbortSignal.timeout(30_000) }).catch(() => undefined);
    await waitFor(async () => {
      const res = await fetch(`${base}/v2/tasks`, { signal: AbortSignal.timeout(30_000) });
      return ((await res.json()) as { tasks: unknown[] }).tasks.length === 0;
    }, 'every task to be killed', 120_000).catch(() => undefined);
    main.child.kill('SIGTERM');
    await within(main.exited, 'pacer to stop', 60_000);
  });

  const run = spawn(python as string, [SCRIPT, base], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  run.stdout.setEncoding('utf8').on('data', (chunk: string) => { out += chunk; });
  run.stderr.setEncoding('utf8').on('data', (chunk: string) => { err += chunk; });
  const exit = await within(new Promise<number | null>((resolve) => run.once('exit', resolve)), 'the client script', 540_000);

  const lines = out.split('\n').filter((line) => /^(not )?ok - /.test(line));
  t.ok(lines.length >= 30, `the script checked ${lines.length} things`);
  for (const line of lines) t.ok(line.startsWith('ok - '), line.replace(/^(not )?ok - /, ''));
  t.match(out, /\ndone\n$/, 'the script ran to its end');
  t.equal(exit, 0, `the script exits 0 ${err === '' ? '' : `(stderr: ${err.slice(-2000)})`}`);
});
