import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { freePort, tempDir } from './e2e-kit';
import { exitOf, logRecords, ping, runMain, spawnMain, startupPort } from './main-kit';

/**
 * `src/main.ts` as a real process (what `npm start` runs, from source through tsx instead of the
 * build): flags and environment, the startup line, /ping, SIGTERM/SIGINT shutdown with exit 0 and
 * "stopped", and `--cluster mesos` refused with exit 2. Refusals before serving are in
 * main-refusals.test.ts, `--cluster sim` in main-sim.test.ts.
 */

// The tests are independent processes on their own ports and dirs: run them side by side.
t.jobs = 3;

t.test('npm start serves on the port it was given, and SIGTERM stops it: exit 0, "stopped"', async (t) => {
  const dir = tempDir(t);
  const port = await freePort();
  const storePath = join(dir, 'state', 'pacer.db');
  const main = spawnMain(t, ['--port', String(port), '--store', storePath, '--sandbox', join(dir, 'sandboxes')]);
  t.equal(await startupPort(main), port, 'the startup line names the port');
  t.match(main.stderr(), `store ${storePath};`, 'and the store');
  t.equal(await ping(port), 'pong', '/ping → pong');
  main.child.kill('SIGTERM');
  const exit = await exitOf(main, 'exit after SIGTERM');
  t.same(exit, { code: 0, signal: null }, 'exits 0 on SIGTERM');
  t.match(logRecords(main.stderr()).at(-1), { level: 30, component: 'pacer', msg: 'stopped' }, 'says stopped, last');
  t.ok(main.stderr().split('\n').filter((l) => l !== '').every((l) => l.startsWith('{')), 'every line a JSON record (stderr is not a terminal)');
  t.equal(main.stdout(), '', 'nothing on stdout');
  t.ok(readFileSync(storePath).length > 0, 'the store file was created');
});

t.test('PACER_PORT=0 picks a free port and the startup line prints the real one; SIGINT stops it too', async (t) => {
  const dir = tempDir(t);
  const main = spawnMain(t, [], { PACER_PORT: '0', PACER_STORE: join(dir, 'pacer.db'), PACER_SANDBOX: join(dir, 'sandboxes') });
  const port = await startupPort(main);
  t.ok(port > 0, `a real port (${port})`);
  t.equal(await ping(port), 'pong');
  main.child.kill('SIGINT');
  t.same(await exitOf(main, 'exit after SIGINT'), { code: 0, signal: null }, 'exits 0 on SIGINT');
  t.match(logRecords(main.stderr()).at(-1), { component: 'pacer', msg: 'stopped' });
});

t.test('--cluster mesos without --master exits 2 saying what is needed, with the usage', async (t) => {
  const mesos = await runMain(t, ['--cluster', 'mesos']);
  t.equal(mesos.code, 2, 'exit 2');
  t.match(mesos.stderr, /^pacer: --cluster mesos needs --master http:\/\/host:5050 or zk:\/\/host:2181\/mesos \(or PACER_MASTER\)\n/, 'says what it needs');
  t.match(mesos.stderr, /usage: npm start -- \[options\]/, 'with the usage');
  t.equal(mesos.stdout, '');
});
