import t from 'tap';
import type { Test } from 'tap';
import { ZkError } from '../../../../src/cluster/mesos/zk/zk-error';
import { ZkMasterDetector } from '../../../../src/cluster/mesos/zk/zk-master-detector';
import { waitUntil } from '../fake-master/wait-until';
import { masterInfoJson } from './master-info-json';
import { MemoryZooKeeper } from './memory-zookeeper';

const TWO_MASTERS = {
  '/mesos/json.info_0000000005': masterInfoJson('m2.example', '10.0.0.2', 5050),
  '/mesos/json.info_0000000003': masterInfoJson('m1.example', '10.0.0.1', 5050),
  '/mesos/info_0000000002': '\n\x05proto',
  '/mesos/log_replicas/0000000001': 'x',
};

/** A detector over an in-memory ZooKeeper, closed at teardown. */
function detectorOn(t: Test, zk: MemoryZooKeeper, url = 'zk://zk1:2181/mesos', options: { scheme?: 'https'; maxElectionRetries?: number } = {}): ZkMasterDetector {
  const made = new ZkMasterDetector(url, { ...options, openSession: zk.open });
  t.teardown(() => made.close());
  return made;
}

const kindOf = (promise: Promise<unknown>): Promise<string> =>
  promise.then(() => 'resolved', (error: unknown) => (error instanceof ZkError ? error.kind : String(error)));

t.test('the leader is the lowest json.info_ sequence; its MasterInfo address is returned', async (t) => {
  const zk = new MemoryZooKeeper(TWO_MASTERS);
  t.equal(await detectorOn(t, zk).leader(), 'http://m1.example:5050');
  t.equal(await detectorOn(t, zk, 'zk://zk1/mesos', { scheme: 'https' }).leader(), 'https://m1.example:5050', 'the https scheme option');
});

t.test('the answer is remembered while the watches stand: no read per resubscription (README gap closed)', async (t) => {
  const zk = new MemoryZooKeeper(TWO_MASTERS);
  const d = detectorOn(t, zk);
  await d.leader();
  const reads = zk.reads.length;
  for (let i = 0; i < 5; i++) t.equal(await d.leader(), 'http://m1.example:5050');
  t.equal(zk.reads.length, reads, 'no ZooKeeper read after the first');
  t.equal(zk.watchCount, 2, 'a watch on the group and one on the leader znode');
  t.equal(zk.sessions.length, 1);
});

t.test('the leader leaving fires the watch: the group is read again at once and listeners hear the new leader', async (t) => {
  const zk = new MemoryZooKeeper(TWO_MASTERS);
  const d = detectorOn(t, zk);
  const heard: string[] = [];
  d.onChange((url) => heard.push(url));
  t.equal(await d.leader(), 'http://m1.example:5050');
  zk.remove('/mesos/json.info_0000000003');
  await waitUntil(() => heard[0], 10_000, 'the change');
  t.same(heard, ['http://m2.example:5050'], 'told without being asked');
  const reads = zk.reads.length;
  t.equal(await d.leader(), 'http://m2.example:5050');
  t.equal(zk.reads.length, reads, 'the re-read answer is remembered');
});

t.test('a master joining behind the leader changes nothing; a changed MasterInfo is read again', async (t) => {
  const zk = new MemoryZooKeeper(TWO_MASTERS);
  const d = detectorOn(t, zk);
  const heard: string[] = [];
  d.onChange((url) => heard.push(url));
  await d.leader();
  zk.set('/mesos/json.info_0000000009', masterInfoJson('m3.example', '10.0.0.3', 5050));
  await waitUntil(() => zk.watchCount === 2 || undefined, 10_000, 'the watches set again');
  t.equal(await d.leader(), 'http://m1.example:5050');
  zk.set('/mesos/json.info_0000000003', masterInfoJson('m1.example', '10.0.0.1', 5051));
  await waitUntil(() => heard[0], 10_000, 'the change');
  t.same(heard, ['http://m1.example:5051']);
});

t.test('a disconnected session forgets the answer; an expired one is replaced by a new session', async (t) => {
  const zk = new MemoryZooKeeper(TWO_MASTERS);
  const d = detectorOn(t, zk);
  await d.leader();
  const reads = zk.reads.length;
  zk.sessions[0]!.emit('disconnected');
  await d.leader();
  t.ok(zk.reads.length > reads, 'read again after a disconnection (a watch may have been missed)');
  zk.sessions[0]!.emit('expired');
  t.equal(await d.leader(), 'http://m1.example:5050');
  t.equal(zk.sessions.length, 2, 'a new session after the expiry');
});

t.test('a session that cannot be opened is retried on the next call', async (t) => {
  const zk = new MemoryZooKeeper(TWO_MASTERS);
  zk.openFailures.push(new ZkError('UNREACHABLE', 'no server'));
  const d = detectorOn(t, zk);
  t.equal(await kindOf(d.leader()), 'UNREACHABLE');
  t.equal(await d.leader(), 'http://m1.example:5050');
});

t.test('no master registered: NO_MASTER saying why', async (t) => {
  const cases: [string, Record<string, string>, RegExp][] = [
    ['no group', {}, /the znode \/mesos does not exist/],
    ['only protobuf nodes', { '/mesos/info_0000000001': 'x' }, /only protobuf info_\* znodes/],
    ['other children only', { '/mesos/log_replicas/1': 'x' }, /no json\.info_\* znode under \/mesos/],
  ];
  for (const [name, znodes, why] of cases) {
    const error = await detectorOn(t, new MemoryZooKeeper(znodes)).leader().catch((e: unknown) => e);
    t.match(error, { kind: 'NO_MASTER', message: why }, name);
  }
});

t.test('the group appearing after NO_MASTER is found on the next call', async (t) => {
  const zk = new MemoryZooKeeper({ '/mesos/log_replicas/1': 'x' });
  const d = detectorOn(t, zk);
  t.equal(await kindOf(d.leader()), 'NO_MASTER');
  const heard: string[] = [];
  d.onChange((url) => heard.push(url));
  zk.set('/mesos/json.info_0000000001', masterInfoJson('m1.example', '10.0.0.1', 5050));
  t.equal(await d.leader(), 'http://m1.example:5050', 'the watch on the (empty) group fired a re-read');
});

t.test('the leader znode vanishing between list and read (an election) is retried', async (t) => {
  const zk = new MemoryZooKeeper(TWO_MASTERS);
  zk.beforeGetData = (path) => {
    if (path.endsWith('0000000003')) zk.znodes.delete(path);
  };
  t.equal(await detectorOn(t, zk).leader(), 'http://m2.example:5050');
});

t.test('a leader znode that keeps vanishing ends in NO_MASTER after maxElectionRetries', async (t) => {
  const zk = new MemoryZooKeeper(TWO_MASTERS);
  zk.beforeGetData = (path) => {
    // The read leader goes just before its data is read, and a new one registers ahead of it.
    zk.znodes.delete(path);
    zk.znodes.set(path.replace(/\d+$/, (n) => String(Number(n) - 1).padStart(10, '0')), Buffer.from('{}'));
  };
  const error = await detectorOn(t, zk, undefined, { maxElectionRetries: 2 }).leader().catch((e: unknown) => e);
  t.match(error, { kind: 'NO_MASTER', message: /kept vanishing/ });
  t.equal(zk.reads.filter((r) => r.startsWith('getData')).length, 2);
});

t.test('unusable MasterInfo data: MALFORMED_MASTER_INFO naming the znode', async (t) => {
  const zk = new MemoryZooKeeper({ '/mesos/json.info_0000000001': 'not json' });
  t.match(await detectorOn(t, zk).leader().catch((e: unknown) => e), { kind: 'MALFORMED_MASTER_INFO', message: /json\.info_0000000001/ });
});

t.test('the root path works as a group', async (t) => {
  const zk = new MemoryZooKeeper({ '/json.info_0000000001': masterInfoJson('m1.example', '10.0.0.1', 5050) });
  t.equal(await detectorOn(t, zk, 'zk://zk1:2181').leader(), 'http://m1.example:5050');
});

t.test('close() ends the session and later calls reject with CLOSED', async (t) => {
  const zk = new MemoryZooKeeper(TWO_MASTERS);
  const d = detectorOn(t, zk);
  await d.leader();
  d.close();
  await new Promise((resolve) => setImmediate(resolve));
  t.ok(zk.sessions[0]!.closed);
  t.equal(await kindOf(d.leader()), 'CLOSED');
});

t.test('a bad URL throws BAD_URL from the constructor', async (t) => {
  for (const url of ['zk://', 'http://m:5050']) {
    const error = (() => { try { new ZkMasterDetector(url); return undefined; } catch (e) { return e; } })();
    t.match(error, { kind: 'BAD_URL' }, url);
  }
});

t.test('a watch that fires while a read waits for its answer is not lost: the group is read again after it', async (t) => {
  const leader = '/mesos/json.info_0000000003';
  const zk = new MemoryZooKeeper({ [leader]: masterInfoJson('m1.example', '10.0.0.1', 5050) });
  const d = detectorOn(t, zk);
  const heard: string[] = [];
  d.onChange((url) => heard.push(url));
  t.equal(await d.leader(), 'http://m1.example:5050');
  // The leader's MasterInfo is rewritten (its data watch fires: the group is read again), and while
  // that read waits for its getChildren answer the leader leaves the group, whose notification (the
  // group watch the read counted on) is delivered then. The read finds no master.
  zk.beforeGetChildren = () => {
    zk.beforeGetChildren = undefined;
    zk.remove(leader);
  };
  zk.set(leader, masterInfoJson('m1.example', '10.0.0.1', 5051));
  await waitUntil(() => zk.watchCount === 1 || undefined, 10_000, 'a group watch standing again');
  // A master that joins later is heard of, as the driver needs while it stays subscribed elsewhere.
  zk.set('/mesos/json.info_0000000007', masterInfoJson('m3.example', '10.0.0.3', 5050));
  await waitUntil(() => heard[0], 10_000, 'the new leader');
  t.same(heard, ['http://m3.example:5050']);
  t.equal(await d.leader(), 'http://m3.example:5050');
});

t.test('a read made after a watch fired that finds no usable leader is told to onTrouble; the caller\'s own reads are not', async (t) => {
  const leader = '/mesos/json.info_0000000003';
  const zk = new MemoryZooKeeper({ [leader]: masterInfoJson('m1.example', '10.0.0.1', 5050), '/mesos/log_replicas/0000000001': 'x' });
  const d = detectorOn(t, zk);
  const trouble: string[] = [];
  d.onTrouble((message) => trouble.push(message));
  await d.leader();
  zk.set(leader, 'not json {'); // the leader's MasterInfo rewritten as garbage: its data watch fires
  await waitUntil(() => trouble[0], 10_000, 'the malformed MasterInfo told');
  t.match(trouble[0], /json\.info_0000000003.*not JSON/);
  zk.remove(leader); // the group empty
  await waitUntil(() => trouble[1], 10_000, 'the empty group told');
  t.match(trouble[1], /no Mesos master is registered/);
  await waitUntil(() => zk.watchCount === 1 || undefined, 10_000, 'the group watch set again');
  const told = trouble.length;
  await t.rejects(d.leader(), /no Mesos master is registered/, 'the caller hears of its own read');
  t.equal(trouble.length, told, 'which is not told to onTrouble');
});
