import { join } from 'node:path';
import t from 'tap';
import { freePort, tempDir, waitFor } from './e2e-kit';
import { runMain, spawnMain } from './main-kit';
import { patientSignal } from '../harness/wait';

/**
 * Credentials in `--master` and `--zk` URLs never leave `src/main.ts` (a real process): not in a
 * refusal, not in the startup line or the driver's log lines, not in `/v2/info` (where Marathon's
 * mask `xxxxxxxx` stands in for them, fact 93).
 */

const SECRET = 'hunter2';

t.test('refusals of a URL with credentials show the URL without them', async (t) => {
  const [zk, bareZk, master, httpMaster] = await Promise.all([
    runMain(t, ['--zk', `zk://pacer:${SECRET}@/pacer`]),
    runMain(t, [], { PACER_ZK: `pacer:${SECRET}@zk1:2181/pacer` }),
    runMain(t, ['--cluster', 'mesos', '--master', `ftp://ops:${SECRET}@m:5050`]),
    runMain(t, ['--cluster', 'mesos', '--master', `http://user:${SECRET}@127.0.0.1:5050/some/path`]),
  ]);
  t.equal(zk.code, 2);
  t.match(zk.stderr, /^pacer: --zk zk:\/\/xxxxxxxx@\/pacer: bad ZooKeeper URL zk:\/\/xxxxxxxx@\/pacer: it names no ZooKeeper server\n/);
  t.equal(bareZk.code, 2);
  t.match(bareZk.stderr, /^pacer: PACER_ZK=xxxxxxxx@zk1:2181\/pacer: bad ZooKeeper URL xxxxxxxx@zk1:2181\/pacer: it must start with zk:\/\/\n/);
  t.equal(master.code, 2);
  t.match(master.stderr, /^pacer: --master ftp:\/\/xxxxxxxx@m:5050: expected http:\/\/host:port, https:\/\/host:port or zk:\/\/host:port\/path\n/);
  t.equal(httpMaster.code, 2, 'an http master URL with credentials and a path: refused, not silently cut to host:port');
  t.match(httpMaster.stderr, /^pacer: --master http:\/\/xxxxxxxx@127\.0\.0\.1:5050\/some\/path: credentials in an http\(s\) master URL are not used: expected http:\/\/host:port or https:\/\/host:port, with the credentials in --mesos_authentication_principal and --mesos_authentication_secret_file\n/);
  for (const r of [zk, bareZk, master, httpMaster]) t.notMatch(r.stdout + r.stderr, SECRET, 'no password anywhere in the output');
});

t.test('a Mesos master URL with credentials: the startup line, the driver\'s lines and /v2/info show it masked', async (t) => {
  const dir = tempDir(t);
  const masterPort = await freePort(); // no ZooKeeper listens there: the driver keeps retrying, and says so
  const main = spawnMain(t, ['--cluster', 'mesos', '--master', `zk://ops:${SECRET}@127.0.0.1:${masterPort}/mesos`, '--port', '0', '--store', join(dir, 'pacer.db')]);
  const port = await waitFor(() => /Marathon API on http:\/\/127\.0\.0\.1:(\d+) /.exec(main.stderr())?.[1] ?? (main.child.exitCode !== null && 'exited'), 'the startup line');
  if (port === 'exited') throw new Error(`main exited early: ${main.stderr()}`);
  t.match(main.stderr(), `(Mesos master zk://xxxxxxxx@127.0.0.1:${masterPort}/mesos,`, 'the startup line names the master, masked');
  const res = await fetch(`http://127.0.0.1:${port}/v2/info`, { signal: patientSignal() });
  const info = (await res.json()) as { marathon_config: { master: string } };
  t.equal(info.marathon_config.master, `zk://xxxxxxxx@127.0.0.1:${masterPort}/mesos`, '/v2/info: masked as Marathon masks it');
  await waitFor(() => main.stderr().includes('resubscribing'), 'a line of the driver about the master it cannot reach');
  t.notMatch(main.stderr() + main.stdout(), SECRET, 'no password anywhere in the output');
});
