import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import type { Test } from 'tap';
import { exitOf, KILLED_UNCOVERED, spawnMain, type MainProcess } from '../e2e/main-kit';
import { startZooKeeper, ZOOKEEPER_MISSING as skip, type RestartableZooKeeper } from '../harness/zookeeper-server';
import { TcpProxy } from '../harness/tcp-proxy';
import { waitFor } from '../harness/wait';
import { call } from './ha-pacer-kit';

/**
 * Failover of three pacer processes (`npm start -- --zk …`, the local cluster) on a real ZooKeeper
 * started for this file (Debian's package, test/harness/zookeeper-server.ts: the test restarts it,
 * so it cannot use a shared one). The three share `--sandbox` and `--store` (only the lock lives
 * there with `--zk`): they stand for three pacers on one host, and a new leader takes over the
 * tasks the last one launched from the sandboxes' state file, as a restart does. Each reaches
 * ZooKeeper through a TCP relay of its own, so the test can cut one from it.
 *
 * One cluster goes through three failures in turn: the leader killed with SIGKILL in the middle of
 * a deployment, the next leader cut from ZooKeeper, then ZooKeeper restarted. After each: one
 * leader that every live pacer names, serving writes; the deployment not lost (same id, finished
 * by the new leader); the tasks not relaunched (same ids, same processes) and none launched twice
 * (the processes of the sandboxes counted with `ps`).
 */

const SESSION_TIMEOUT_MS = 3_000;
const STARTED = /Marathon API on http:\/\/127\.0\.0\.1:(\d+) \(local cluster, one of the pacers at zk:\/\/[^ ]+, store zk:\/\/[^ ]+\/state;/;

interface PacerProcess {
  readonly main: MainProcess;
  readonly url: string;
  readonly address: string;
  readonly proxy: TcpProxy;
}

interface AppView {
  readonly tasks: readonly { id: string; state: string; healthCheckResults?: readonly { alive: boolean }[] }[];
  readonly deployments: readonly { id: string }[];
}

const json = (body: unknown): RequestInit => ({ method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

async function startPacer(t: Test, zk: RestartableZooKeeper, dir: string): Promise<PacerProcess> {
  const proxy = await TcpProxy.start(zk.connect);
  t.teardown(() => proxy.close());
  const main = spawnMain(t, [
    '--zk', `zk://${proxy.address}/pacer`, '--port', '0', '--store', join(dir, 'pacer.db'), '--sandbox', join(dir, 'sandboxes'),
    '--zk_session_timeout', String(SESSION_TIMEOUT_MS), '--zk_timeout', '10000',
    // Each ends with SIGKILL (the test's or the teardown's): it writes no coverage, so it collects none.
  ], KILLED_UNCOVERED);
  const port = await waitFor(() => STARTED.exec(main.stderr())?.[1] ?? (main.child.exitCode !== null && 'exited'), 'a pacer\'s startup line');
  if (port === 'exited') throw new Error(`pacer exited: ${main.stderr()}`);
  return { main, url: `http://127.0.0.1:${port}`, address: `127.0.0.1:${port}`, proxy };
}

/** `GET /v2/leader` of one pacer: the leader it names, undefined when it names none (or does not answer). */
async function leaderNamedBy(p: PacerProcess): Promise<string | undefined> {
  const answer = await call(`${p.url}/v2/leader`).catch(() => undefined);
  return answer?.status === 200 ? (JSON.parse(answer.text) as { leader: string }).leader : undefined;
}

/** The one pacer of `pacers` that every one of them names as leader. */
async function agreedLeader(pacers: readonly PacerProcess[], what: string): Promise<PacerProcess> {
  return waitFor(async () => {
    const named = await Promise.all(pacers.map(leaderNamedBy));
    const first = named[0];
    return first !== undefined && named.every((n) => n === first) && pacers.find((p) => p.address === first);
  }, what, 120_000, 100);
}

/** The first accepted write (an app of no instances: it launches nothing) on `pacer`, retried until it is accepted. */
async function firstWrite(pacer: PacerProcess, id: string): Promise<void> {
  await waitFor(async () => (await call(`${pacer.url}/v2/apps`, json({ id, cmd: 'sleep 1', cpus: 0.01, mem: 8, instances: 0 })).catch(() => undefined))?.status === 201,
    `${id} to be accepted`, 120_000, 100);
}

async function appOf(pacer: PacerProcess, id: string): Promise<AppView | undefined> {
  const answer = await call(`${pacer.url}/v2/apps${id}?embed=apps.tasks&embed=apps.deployments`).catch(() => undefined);
  return answer?.status === 200 ? (JSON.parse(answer.text) as { app: AppView }).app : undefined;
}

async function deploymentIds(pacer: PacerProcess): Promise<string[]> {
  const answer = await call(`${pacer.url}/v2/deployments`);
  return (JSON.parse(answer.text) as { id: string }[]).map((d) => d.id);
}

/** Process groups of the tasks of this test (their command carries `marker`). */
function taskGroups(marker: string): number[] {
  const out = execFileSync('ps', ['-eo', 'pid=,pgid=,args='], { encoding: 'utf8' });
  const groups = new Set<number>();
  for (const line of out.split('\n')) {
    const m = /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line);
    if (m !== null && m[3]?.includes(marker) === true && !m[3].includes('ps -eo')) groups.add(Number(m[2]));
  }
  return [...groups].sort((a, b) => a - b);
}

t.test('three pacers: leader killed -9 mid-deployment, next leader cut from ZooKeeper, ZooKeeper restarted', { skip }, async (t) => {
  const zk = await startZooKeeper();
  t.teardown(() => zk.stop());
  const dir = mkdtempSync(join(tmpdir(), 'pacer-ha-failover-'));
  const marker = `pacer-ha-failover-${process.pid}-${Date.now()}`;
  t.teardown(() => {
    for (const group of taskGroups(marker)) {
      try {
        process.kill(-group, 'SIGKILL');
      } catch {
        // gone already
      }
    }
    rmSync(dir, { recursive: true, force: true });
  });
  const ready = join(dir, 'ready');
  const pacers = [await startPacer(t, zk, dir), await startPacer(t, zk, dir), await startPacer(t, zk, dir)];
  const first = await agreedLeader(pacers, 'one leader named by all three');
  const standby = pacers.find((p) => p !== first) as PacerProcess;

  // 1. A deployment that lasts: two instances, healthy only once `ready` exists.
  const app = {
    id: '/ha/web', cmd: `sh -c 'sleep 3600; : ${marker}'`, cpus: 0.01, mem: 8, instances: 2, portDefinitions: [],
    healthChecks: [{ protocol: 'COMMAND', command: { value: `test -f ${ready}` }, gracePeriodSeconds: 600, intervalSeconds: 1, timeoutSeconds: 5, maxConsecutiveFailures: 0 }],
  };
  const created = await call(`${standby.url}/v2/apps`, json(app));
  t.equal(created.status, 201, 'a standby forwards the POST; the leader accepts it');
  const running = await waitFor(async () => {
    const view = await appOf(first, '/ha/web');
    return view !== undefined && view.tasks.length === 2 && view.tasks.every((x) => x.state === 'TASK_RUNNING') && view;
  }, 'both tasks running, the deployment waiting for health', 120_000, 100);
  const deployment = (await deploymentIds(first))[0];
  t.ok(deployment, 'the deployment is in progress');
  const taskIds = running.tasks.map((x) => x.id).sort();
  const groups = await waitFor(() => taskGroups(marker).length === 2 && taskGroups(marker), 'two task processes');

  first.main.child.kill('SIGKILL');
  const killedAtMs = Date.now();
  await exitOf(first.main, 'the killed leader');
  const live = pacers.filter((p) => p !== first);
  const second = await agreedLeader(live, 'a new leader named by both live pacers');
  await firstWrite(second, '/ha/after-kill');
  const firstWriteMs = Date.now() - killedAtMs;
  t.ok(firstWriteMs < 120_000, `the new leader accepted a write ${firstWriteMs} ms after the kill`);
  t.same(await deploymentIds(second), [deployment], 'the deployment is not lost: the new leader has it');
  t.same((await appOf(second, '/ha/web'))?.tasks.map((x) => x.id).sort(), taskIds, 'the same tasks: none relaunched');
  t.same(taskGroups(marker), groups, 'the same processes, none launched twice');
  writeFileSync(ready, '');
  await waitFor(async () => (await deploymentIds(second)).length === 0, 'the new leader to finish the deployment', 120_000, 100);
  const healthy = await appOf(second, '/ha/web');
  t.same(healthy?.tasks.map((x) => x.id).sort(), taskIds, 'finished with the same tasks');
  t.ok(healthy?.tasks.every((x) => x.healthCheckResults?.[0]?.alive === true), 'both healthy');

  // 2. The new leader cut from ZooKeeper: it stops leading, the last pacer takes over.
  const third = live.find((p) => p !== second) as PacerProcess;
  second.proxy.cut();
  const cutAtMs = Date.now();
  await waitFor(async () => (await leaderNamedBy(third)) === third.address, 'the last pacer to lead', 120_000, 100);
  await firstWrite(third, '/ha/after-cut');
  t.pass(`the last pacer accepted a write ${Date.now() - cutAtMs} ms after the cut`);
  const cutOff = await call(`${second.url}/v2/apps`);
  t.equal(cutOff.status, 503, 'the pacer cut from ZooKeeper does not serve: it knows no leader');
  t.same((await appOf(third, '/ha/web'))?.tasks.map((x) => x.id).sort(), taskIds, 'the same tasks after the cut');
  t.same(taskGroups(marker), groups, 'no process launched or lost');
  second.proxy.heal();
  t.equal((await agreedLeader(live, 'the cut pacer back, as a standby')).address, third.address);

  // 3. ZooKeeper restarted: a leader again, nothing lost, writes and launches work. (This step once
  // found no leader: every pacer's session hung in a handshake the restarting server never read;
  // src/cluster/mesos/zk/zk-session.ts now expires a session lost for a whole timeout.)
  await t.test('ZooKeeper restarted: a leader again, nothing lost', async (t) => {
    await zk.halt();
    await zk.resume();
    const after = await agreedLeader(live, 'a leader after ZooKeeper restarted');
    await firstWrite(after, '/ha/after-zk-restart');
    const apps = JSON.parse((await call(`${after.url}/v2/apps`)).text) as { apps: { id: string }[] };
    t.same(apps.apps.map((a) => a.id).sort(), ['/ha/after-cut', '/ha/after-kill', '/ha/after-zk-restart', '/ha/web'], 'every app kept');
    t.same((await appOf(after, '/ha/web'))?.tasks.map((x) => x.id).sort(), taskIds, 'the same tasks after the restart');
    const scaled = await call(`${after.url}/v2/apps/ha/web`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ instances: 3 }) });
    t.equal(scaled.status, 200, 'a scale-up is accepted');
    await waitFor(async () => (await deploymentIds(after)).length === 0, 'the scale-up to finish', 120_000, 100);
    const three = await appOf(after, '/ha/web');
    t.equal(three?.tasks.length, 3, 'three tasks');
    t.ok(taskIds.every((id) => three?.tasks.some((x) => x.id === id)), 'the first two among them');
    t.equal(taskGroups(marker).length, 3, 'exactly one process launched for the scale-up');
  });
  t.notOk(existsSync(join(dir, 'pacer.db')), 'no SQLite store was written: the state is in ZooKeeper');
});
