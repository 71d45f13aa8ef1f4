import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { freePort } from '../../bench/lib/zookeeper';
import { repoPath } from '../harness/repo-path';
import { ZOOKEEPER_MISSING } from '../harness/zookeeper-server';

// .ci/zookeeper.sh (what .ci/run starts the real-ZooKeeper tests' server with): `stop` stops the
// JVM it started and removes the directory it made for it — that one only. The script runs here
// with a TMPDIR of the test's own and a free port, as .ci/run runs it.

function script(args: string[], env: NodeJS.ProcessEnv): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync('bash', [repoPath('.ci', 'zookeeper.sh'), ...args], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 150_000 });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

t.test('.ci/zookeeper.sh stop stops its ZooKeeper and removes the directory it made, and no other', { skip: ZOOKEEPER_MISSING, timeout: 300_000 }, async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'pacer-zk-script-test-'));
  // Every JVM a start made, stopped at the end whatever failed.
  const pids: number[] = [];
  t.teardown(() => {
    for (const p of pids) if (Number.isInteger(p) && p > 0 && alive(p)) process.kill(p, 'SIGKILL');
    rmSync(root, { recursive: true, force: true });
  });
  // A directory of an earlier run, and one named like the script's but not made by it.
  const earlier = join(root, 'pacer-zk.Earlie');
  mkdirSync(earlier);
  writeFileSync(join(earlier, 'zoo.cfg'), `dataDir=${earlier}/data\n`);
  const stranger = join(root, 'pacer-zk.Strang');
  mkdirSync(stranger);
  writeFileSync(join(stranger, 'keep'), '');

  const env = { TMPDIR: root, PACER_ZK_PORT: String(await freePort()), PACER_ZK_PID: '', PACER_ZK_DIR: '' };
  const start = script([], env);
  t.equal(start.status, 0, `started: ${start.stderr}`);
  const exported = new Map([...start.stdout.matchAll(/^export (\w+)=(.*)$/gm)].map((m) => [m[1], m[2]]));
  t.equal(exported.get('PACER_TEST_ZK'), `127.0.0.1:${env.PACER_ZK_PORT}`);
  const pid = Number(exported.get('PACER_ZK_PID'));
  pids.push(pid);
  const dir = exported.get('PACER_ZK_DIR') ?? '';
  t.ok(alive(pid), 'its JVM runs');
  t.match(dir, new RegExp(`^${root}/pacer-zk\\.[A-Za-z0-9]{6}$`), 'the directory it made is exported');
  t.ok(existsSync(join(dir, 'zoo.cfg')), 'and holds its zoo.cfg');

  const stranded = script(['stop'], { PACER_ZK_PID: '', PACER_ZK_DIR: stranger });
  t.equal(stranded.status, 0, 'stop without a PID: nothing to stop');
  t.ok(existsSync(join(stranger, 'keep')), 'and nothing removed');

  const stop = script(['stop'], { PACER_ZK_PID: String(pid), PACER_ZK_DIR: dir });
  t.equal(stop.status, 0, stop.stderr);
  t.notOk(alive(pid), 'its JVM is gone');
  t.notOk(existsSync(dir), 'its directory is removed');
  t.strictSame(readdirSync(root).sort(), ['pacer-zk.Earlie', 'pacer-zk.Strang'], 'the other directories are left alone');

  // Named like the script's, but without its zoo.cfg: left alone even when PACER_ZK_DIR names it.
  const again = script([], { ...env, TMPDIR: root });
  t.equal(again.status, 0, `started again: ${again.stderr}`);
  const againPid = Number(/^export PACER_ZK_PID=(\d+)$/m.exec(again.stdout)?.[1]);
  pids.push(againPid);
  t.ok(Number.isInteger(againPid) && alive(againPid), 'its second JVM runs');
  const againDir = /^export PACER_ZK_DIR=(.*)$/m.exec(again.stdout)?.[1] ?? '';
  const refused = script(['stop'], { PACER_ZK_PID: String(againPid), PACER_ZK_DIR: stranger });
  t.equal(refused.status, 0);
  t.notOk(alive(againPid), 'the JVM is stopped');
  t.ok(existsSync(join(stranger, 'keep')), 'a directory without its zoo.cfg is left alone');
  t.match(refused.stderr, /has no zoo\.cfg of this script: left alone/);
  rmSync(againDir, { recursive: true, force: true });
});
