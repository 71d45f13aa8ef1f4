import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import type { Test } from 'tap';
import { exitOf, spawnMain, type MainProcess } from '../e2e/main-kit';
import { waitFor } from '../harness/wait';
import { call } from './ha-pacer-kit';
import { adminSession, scratchPath, SESSION, SKIP_WITHOUT_ZK as skip, ZK } from './zk-scratch';

/**
 * `npm start -- --zk …` as real processes (src/main.ts) on a real ZooKeeper: two pacers, the
 * leader killed with SIGKILL (its znode lingers until its session expires), the other takes over
 * and serves writes itself; a pacer stopped with SIGTERM leaves the election at once.
 */

const STARTED = /Marathon API on http:\/\/127\.0\.0\.1:(\d+) \(local cluster, one of the pacers at zk:\/\/[^ ]+, store /;

async function pacerProcess(t: Test, root: string): Promise<{ main: MainProcess; url: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'pacer-ha-proc-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const main = spawnMain(t, [
    '--zk', `zk://${ZK}${root}`, '--port', '0', '--store', join(dir, 'pacer.db'), '--sandbox', join(dir, 'sandboxes'),
    '--zk_session_timeout', String(SESSION.sessionTimeoutMs),
  ]);
  const port = await waitFor(() => STARTED.exec(main.stderr())?.[1] ?? (main.child.exitCode !== null && 'exited'), 'the startup line');
  if (port === 'exited') throw new Error(`pacer exited: ${main.stderr()}`);
  return { main, url: `http://127.0.0.1:${port}` };
}

/** The request records in a pacer's JSON log (stderr is not a terminal: JSON lines). */
function requestRecords(stderr: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const line of stderr.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const record = JSON.parse(line) as Record<string, unknown>;
      if (typeof record.method === 'string' && typeof record.path === 'string') out.push(record);
    } catch {
      // not a record
    }
  }
  return out;
}

const leaderOf = async (url: string): Promise<string | undefined> => {
  const answer = await call(`${url}/v2/leader`);
  return answer.status === 200 ? (JSON.parse(answer.text) as { leader: string }).leader : undefined;
};

t.test('two pacer processes: the leader is killed -9, the other leads after its session expired and serves writes', { skip }, async (t) => {
  const admin = await adminSession(t);
  const root = await scratchPath(t, admin);
  const first = await pacerProcess(t, root);
  const second = await pacerProcess(t, root);
  const firstAddress = first.url.slice('http://'.length);
  const secondAddress = second.url.slice('http://'.length);
  await waitFor(async () => (await leaderOf(second.url)) === firstAddress, 'the second pacer to name the first as leader');
  t.match(first.main.stderr(), /elected leader/);

  // A write through the standby is forwarded, body and all, and its request record names the client.
  const forwarded = await call(`${second.url}/v2/apps`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ id: '/through-standby', cmd: 'sleep 10', cpus: 0.01, mem: 8 }),
  });
  t.equal(forwarded.status, 201, 'forwarded to the leader');
  const record = await waitFor(() => requestRecords(second.main.stderr()).find((r) => r.method === 'POST' && r.path === '/v2/apps'), 'the standby\'s record of the forwarded POST');
  t.match(record, { status: 201, client: '127.0.0.1' }, 'the client named (it was logged as undefined)');
  t.notMatch(String(record.msg), /undefined/);

  first.main.child.kill('SIGKILL');
  await exitOf(first.main, 'the killed leader');
  await waitFor(async () => (await leaderOf(second.url)) === secondAddress, 'the second pacer to lead');
  const created = await call(`${second.url}/v2/apps`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ id: '/after-failover', cmd: 'sleep 10', cpus: 0.01, mem: 8 }),
  });
  t.equal(created.status, 201, 'the new leader takes writes');
  t.equal(created.headers.get('x-marathon-via'), null, 'itself');

  second.main.child.kill('SIGTERM');
  t.equal((await exitOf(second.main, 'the stopped pacer')).code, 0);
  t.same(await admin.getChildren(`${root}/leader`), [], 'a stopped pacer leaves the election at once');
});
