import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import type { Test } from 'tap';
import { ZkError } from '../../src/cluster/mesos/zk/zk-error';
import { ZK_CODES, ZkSession } from '../../src/cluster/mesos/zk/zk-session';
import { parseZkUrl } from '../../src/cluster/mesos/zk/zk-url';
import { startHa, type RunningHaPacer } from '../../src/ha/start-ha';
import { parseConfig } from '../../src/runtime/config';
import { waitFor } from '../harness/wait';
import { call } from './ha-pacer-kit';
import { SESSION, SKIP_WITHOUT_ZK as skip, ZK } from './zk-scratch';

/**
 * `--zk zk://user:pass@…` with the default duties (the local cluster over the ZooKeeper store at
 * `<path>/state`), two pacers in this process on PACER_TEST_ZK: the state is in ZooKeeper under
 * the digest ACL (an anonymous session cannot read it), `/v2/info` reports Marathon's
 * `zookeeper_config` without the password, the flight recorder's ring is written on the leader
 * (also through a standby), and the next leader starts from what ZooKeeper holds.
 */

const USER = 'pacer-ha';
const PASSWORD = 'not-to-be-shown';

async function pacer(t: Test, root: string, dir: string): Promise<RunningHaPacer> {
  const parsed = parseConfig([
    '--zk', `zk://${USER}:${PASSWORD}@${ZK}${root}`, '--port', '0', '--store', join(dir, 'pacer.db'), '--sandbox', join(dir, 'sandboxes'),
    '--zk_session_timeout', String(SESSION.sessionTimeoutMs), '--zk_timeout', '30000',
  ], {}, dir);
  if (parsed === 'help' || 'error' in parsed) throw new Error(`bad config: ${JSON.stringify(parsed)}`);
  const running = await startHa(parsed, { onFatal: (error) => t.fail(`fatal: ${error.message}`) });
  t.teardown(() => running.close());
  return running;
}

async function removeTree(session: ZkSession, path: string): Promise<void> {
  for (const child of await session.getChildren(path).catch(() => [])) await removeTree(session, `${path}/${child}`);
  await session.delete(path).catch(() => undefined);
}

t.test('digest credentials, /v2/info zookeeper_config, the ring on the leader, the next leader loads from ZooKeeper', { skip }, async (t) => {
  const authed = await ZkSession.open(parseZkUrl(`zk://${USER}:${PASSWORD}@${ZK}/`), SESSION);
  t.teardown(() => authed.close());
  const anonymous = await ZkSession.open(parseZkUrl(`zk://${ZK}/`), SESSION);
  t.teardown(() => anonymous.close());
  const root = await authed.create(`/pacer-ha-zk-store-${process.pid}-`, Buffer.alloc(0), 'persistentSequential');
  t.teardown(() => removeTree(authed, root));
  const dir = mkdtempSync(join(tmpdir(), 'pacer-ha-zk-store-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));

  const first = await pacer(t, root, dir);
  const second = await pacer(t, root, dir);
  await waitFor(() => first.leadership.serving() && second.leadership.leader() === first.address, 'the first pacer to lead');

  const info = JSON.parse((await call(`http://${second.address}/v2/info`)).text) as { zookeeper_config: Record<string, unknown>; marathon_config: { ha: boolean } };
  t.same(info.zookeeper_config, {
    zk: `zk://xxxxxxxx@${ZK}${root}`, zk_compression: true, zk_compression_threshold: 65_536, zk_connection_timeout: 10_000,
    zk_max_node_size: 524_288, zk_max_versions: 50, zk_session_timeout: SESSION.sessionTimeoutMs, zk_timeout: 30_000,
  }, '/v2/info zookeeper_config: Marathon\'s keys, the password hidden');
  t.equal(info.marathon_config.ha, true);

  const created = await call(`http://${second.address}/v2/apps`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ id: '/zk/kept', cmd: 'sleep 600', cpus: 0.01, mem: 8, instances: 0 }),
  });
  t.equal(created.status, 201, 'a change through the standby');
  t.ok((await authed.getChildren(`${root}/state/runSpec`)).length === 1, 'the app is in ZooKeeper once the 201 is in');
  const refused = await anonymous.getData(`${root}/state/runSpec`).then(() => undefined, (e: unknown) => e);
  t.ok(refused instanceof ZkError && refused.serverCode === ZK_CODES.NOAUTH, 'an anonymous session cannot read the state');
  t.notOk(existsSync(join(dir, 'pacer.db')), 'no SQLite store written');

  const ring = await call(`http://${second.address}/pacer/v1/recording`, { method: 'POST' });
  t.equal(ring.status, 200, 'the ring is written by the leader, through a standby too');
  const dump = JSON.parse(ring.text) as { path: string; inputs: number };
  t.ok(existsSync(dump.path) && dump.inputs > 0, `the ring is in ${dump.path}`);

  const whatIf = await call(`http://${second.address}/v2/apps/zk/kept?dryRun=true&simulate=PT1M`, {
    method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ cmd: 'sleep 600', cpus: 0.01, mem: 8, instances: 1 }),
  });
  t.equal(whatIf.status, 200, `a what-if under --zk, through a standby: ${whatIf.text}`);
  t.ok(Array.isArray((JSON.parse(whatIf.text) as { launched?: unknown }).launched), 'the answer lists the launches');
  const capacity = await call(`http://${second.address}/v2/capacity?app=/zk/kept`);
  t.equal(capacity.status, 200, `capacity under --zk: ${capacity.text}`);
  const unchanged = JSON.parse((await call(`http://${second.address}/v2/apps/zk/kept`)).text) as { app: { instances: number } };
  t.equal(unchanged.app.instances, 0, 'the what-if changed nothing');

  t.equal((await call(`http://${second.address}/v2/leader`, { method: 'DELETE' })).status, 200);
  await waitFor(() => second.leadership.serving(), 'the second pacer to lead');
  const apps = JSON.parse((await call(`http://${second.address}/v2/apps`)).text) as { apps: { id: string }[] };
  t.same(apps.apps.map((a) => a.id), ['/zk/kept'], 'the new leader loaded the app from ZooKeeper');
});
