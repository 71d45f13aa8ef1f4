import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import type { Test } from 'tap';
import { startHa, type RunningHaPacer } from '../../src/ha/start-ha';
import { parseConfig } from '../../src/runtime/config';
import { FakeMaster } from '../cluster/mesos/fake-master/fake-master';
import { waitFor } from '../harness/wait';
import { call } from './ha-pacer-kit';
import { adminSession, scratchPath, SESSION, SKIP_WITHOUT_ZK as skip, ZK } from './zk-scratch';

/**
 * `--zk --cluster mesos`: only the leader subscribes to the master (a fake one on 127.0.0.1,
 * test/cluster/mesos/fake-master); an abdication closes its subscription before the new leader
 * subscribes, as the same framework (the id is in the ZooKeeper store both use); `/v2/info`
 * through a standby shows the new leader's framework.
 */

async function mesosPacer(t: Test, root: string, master: FakeMaster): Promise<RunningHaPacer> {
  const dir = mkdtempSync(join(tmpdir(), 'pacer-ha-mesos-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const parsed = parseConfig([
    '--zk', `zk://${ZK}${root}`, '--cluster', 'mesos', '--master', master.url, '--port', '0', '--store', join(dir, 'pacer.db'),
    '--zk_session_timeout', String(SESSION.sessionTimeoutMs),
  ], {}, dir);
  if (parsed === 'help' || 'error' in parsed) throw new Error(`bad config: ${JSON.stringify(parsed)}`);
  const running = await startHa(parsed, { onFatal: (error) => t.fail(`fatal: ${error.message}`) });
  t.teardown(() => running.close());
  return running;
}

t.test('on Mesos, only the leader is subscribed; after an abdication the new leader subscribes', { skip }, async (t) => {
  const admin = await adminSession(t);
  const root = await scratchPath(t, admin);
  const master = await FakeMaster.start();
  t.teardown(() => master.close());
  const first = await mesosPacer(t, root, master);
  const second = await mesosPacer(t, root, master);
  await waitFor(() => first.leadership.serving() && second.leadership.leader() === first.address, 'the first pacer to lead');
  const firstStream = await master.waitForStream();
  t.equal(master.callsOf('SUBSCRIBE').length, 1, 'one subscription: the leader\'s');
  t.equal(second.leadership.current(), undefined, 'the standby runs no driver');

  const info = JSON.parse((await call(`http://${second.address}/v2/info`)).text) as { leader: string; frameworkId: string | null; marathon_config: { master: string } };
  t.match(info, { leader: first.address, marathon_config: { master: master.url } }, '/v2/info through the standby is the leader\'s');
  await waitFor(async () => (JSON.parse((await call(`http://${second.address}/v2/info`)).text) as { frameworkId: string | null }).frameworkId !== null, 'the leader\'s framework id');

  t.equal((await call(`http://${second.address}/v2/leader`, { method: 'DELETE' })).status, 200);
  await waitFor(() => second.leadership.serving(), 'the second pacer to lead');
  t.equal(first.leadership.serving(), false, 'the first stopped leading');
  const secondStream = await waitFor(() => master.streamId !== firstStream && master.streamId, 'the new leader\'s subscription');
  t.not(secondStream, firstStream);
  t.equal(master.callsOf('SUBSCRIBE').length, 2, 'the new leader subscribed once');
  const [firstSubscribe, secondSubscribe] = master.callsOf('SUBSCRIBE');
  t.ok(firstSubscribe?.call.frameworkId === undefined, 'the first leader registered a new framework');
  t.equal(secondSubscribe?.call.frameworkId?.value, master.frameworkId, 'the new leader resubscribed as the same framework (its id from the ZooKeeper store)');
  const late = master.calls.slice(master.calls.indexOf(master.callsOf('SUBSCRIBE')[1] as (typeof master.calls)[number]) + 1).filter((c) => c.streamId === firstStream);
  t.same(late.map((c) => c.call.type), [], 'no call on the old leader\'s stream after the new one subscribed');
});
