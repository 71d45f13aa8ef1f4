import t from 'tap';
import { waitFor } from '../harness/wait';
import { agreedLeader, call, haPacer, type HaPacer } from './ha-pacer-kit';
import { adminSession, scratchPath, SKIP_WITHOUT_ZK as skip } from './zk-scratch';

/**
 * `/v2/info` `elected` and `leader` on pacers sharing a real ZooKeeper: the leader reports itself
 * elected; a standby forwards the request (as Marathon's LeaderProxyFilter does), so its answer is
 * the leader's, naming the leader; after an abdication both name the new leader
 * (test/api/system/info-elected.test.ts: what a pacer that does not lead would answer).
 */

interface Info {
  readonly elected: boolean;
  readonly leader: string | null;
  readonly marathon_config: { readonly ha: boolean };
}

async function infoOf(p: HaPacer): Promise<{ info: Info; via: string | null; leaderHeader: string | null }> {
  const answer = await call(`${p.url}/v2/info`);
  return { info: JSON.parse(answer.text) as Info, via: answer.headers.get('x-marathon-via'), leaderHeader: answer.headers.get('x-marathon-leader') };
}

t.test('/v2/info elected and leader follow the election, through a standby too', { skip }, async (t) => {
  const admin = await adminSession(t);
  const root = await scratchPath(t, admin);
  const pacers = [await haPacer(t, root), await haPacer(t, root)];
  const first = await agreedLeader(pacers);
  const standby = pacers.find((p) => p !== first) as HaPacer;

  const onLeader = await infoOf(first);
  t.match(onLeader.info, { elected: true, leader: first.running.address, marathon_config: { ha: true } }, 'the leader: elected, naming itself');
  t.equal(onLeader.via, null, 'answered by the leader itself');
  t.equal(onLeader.leaderHeader, `http://${first.running.address}`);

  const throughStandby = await infoOf(standby);
  t.match(throughStandby.info, { elected: true, leader: first.running.address }, 'through the standby: the leader\'s answer, naming the leader');
  t.equal(throughStandby.via, `1.1 ${standby.running.address}`, 'forwarded by the standby');
  t.equal(standby.running.leadership.serving(), false, 'the standby does not lead');

  t.equal((await call(`${first.url}/v2/leader`, { method: 'DELETE' })).status, 200, 'the leader abdicates');
  const second = await waitFor(() => standby.running.leadership.serving() && standby, 'the standby to lead');
  t.equal(second, standby);
  const newLeader = await waitFor(async () => {
    const answers = await Promise.all(pacers.map(infoOf));
    return answers.every((a) => a.info.leader === second.running.address) && answers;
  }, 'both pacers to report the new leader');
  for (const a of newLeader) t.equal(a.info.elected, true, 'the answer is the new leader\'s: elected');
  const onNew = newLeader[pacers.indexOf(second)];
  t.equal(onNew?.via, null, 'the new leader answers itself');
  t.equal(newLeader[pacers.indexOf(first)]?.via, `1.1 ${first.running.address}`, 'the old leader now forwards');
});
