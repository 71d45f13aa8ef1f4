import { spawnSync } from 'node:child_process';
import t from 'tap';
import { exitOf, spawnMain } from '../e2e/main-kit';
import { nodeArgsFor } from '../harness/node-entry';
import { REPO_ROOT } from '../harness/repo-path';
import { PATIENCE_MS, waitFor } from '../harness/wait';

/** `npm start`'s entry point: paces a workload and streams events. */
t.test('main runs the workload on the simulated cluster in real time and streams JSON events', async (t) => {
  const main = spawnMain(t, ['--cluster', 'sim', '--port', '0', '--workload', 'scenarios/partition.yaml', '--speed', '100000']);
  await waitFor(() => /PASSED/.test(main.stderr()), 'the workload verdict');
  main.child.kill('SIGINT');
  t.same(await exitOf(main, 'exit'), { code: 0, signal: null }, main.stderr());
  const r = { stdout: main.stdout(), stderr: main.stderr() };
  const events = r.stdout.trim().split('\n').map((line) => JSON.parse(line) as { eventType: string; timestamp: string });
  t.ok(events.some((e) => e.eventType === 'instance_changed_event'));
  for (const e of events) t.match(e.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  t.match(r.stderr, /PASSED/);
});

t.test('unknown clusters and bad flags are refused with the usage', async (t) => {
  for (const args of [['--cluster', 'mesos'], ['--cluster', 'sim', '--speed', '0'], ['--bogus', '1'], ['--port', 'x']]) {
    const r = spawnSync(process.execPath, [...nodeArgsFor('src/main.ts'), ...args], { cwd: REPO_ROOT, encoding: 'utf8', timeout: PATIENCE_MS });
    t.equal(r.status, 2, args.join(' '));
    t.match(r.stderr, /usage: npm start/);
  }
});
