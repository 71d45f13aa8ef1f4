import net from 'node:net';
import t from 'tap';
import type { Test } from 'tap';
import { ZkMasterDetector } from '../../../../src/cluster/mesos/zk/zk-master-detector';
import type { ZkMasterDetectorOptions } from '../../../../src/cluster/mesos/zk/zk-master-detector';
import type { FakeZooKeeperOptions } from './fake-zookeeper';
import { FakeZooKeeper, masterInfoJson } from './fake-zookeeper';
import { PATIENCE_MS, waitFor } from '../../../harness/wait';

/**
 * The detector's bounds in these tests: connect and request bounds that a loaded machine never
 * reaches on 127.0.0.1 (test/harness/wait.ts); the tests of those bounds shorten them.
 */
const BOUNDS: ZkMasterDetectorOptions = { sessionTimeoutMs: 3_000, connectTimeoutMs: PATIENCE_MS, requestTimeoutMs: PATIENCE_MS };
/** A short bound for the tests of a timeout. */
const SHORT_TIMEOUT_MS = 300;

const TWO_MASTERS = {
  '/mesos/json.info_0000000005': masterInfoJson('m2.example', '10.0.0.2', 5050),
  '/mesos/json.info_0000000003': masterInfoJson('m1.example', '10.0.0.1', 5050),
  '/mesos/info_0000000002': '\n\x05proto',
  '/mesos/log_replicas/0000000001': 'x',
};

/** Starts a fake that the test stops at teardown. */
async function startFake(t: Test, options: FakeZooKeeperOptions = { znodes: TWO_MASTERS }): Promise<FakeZooKeeper> {
  const fake = await FakeZooKeeper.start(options);
  t.teardown(() => fake.stop());
  return fake;
}

/** A detector that the test closes at teardown. */
function detector(t: Test, url: string, options: ZkMasterDetectorOptions = BOUNDS): ZkMasterDetector {
  const made = new ZkMasterDetector(url, options);
  t.teardown(() => made.close());
  return made;
}

/** `127.0.0.1:<port>` where nothing listens (the port was free a moment ago). */
async function deadHostPort(): Promise<string> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `127.0.0.1:${port}`;
}

t.test('the leader is the lowest json.info_ sequence; its MasterInfo address is returned', async (t) => {
  const fake = await startFake(t);
  t.equal(await detector(t, `zk://${fake.hostPort}/mesos`).leader(), 'http://m1.example:5050');
  t.strictSame(fake.requests, ['connect', 'getChildren /mesos', 'getData /mesos/json.info_0000000003']);
});

t.test('every leader() call re-reads the group on the same session', async (t) => {
  const fake = await startFake(t);
  const zk = detector(t, `zk://${fake.hostPort}/mesos`);
  t.equal(await zk.leader(), 'http://m1.example:5050');
  fake.znodes.delete('/mesos/json.info_0000000003'); // the leader's session ended
  t.equal(await zk.leader(), 'http://m2.example:5050');
  t.equal(fake.requests.filter((r) => r === 'connect').length, 1, 'one session');
});

t.test('the https scheme option is honoured', async (t) => {
  const fake = await startFake(t);
  t.equal(await detector(t, `zk://${fake.hostPort}/mesos`, { ...BOUNDS, scheme: 'https' }).leader(), 'https://m1.example:5050');
});

t.test('an unreachable first server is skipped for the next one', async (t) => {
  const fake = await startFake(t);
  t.equal(await detector(t, `zk://${await deadHostPort()},${fake.hostPort}/mesos`).leader(), 'http://m1.example:5050');
});

t.test('a server that accepts TCP but never greets is abandoned after connectTimeoutMs', async (t) => {
  const hung = await startFake(t, { silent: true });
  const fake = await startFake(t);
  const startedMs = Date.now();
  t.equal(await detector(t, `zk://${hung.hostPort},${fake.hostPort}/mesos`, { ...BOUNDS, connectTimeoutMs: SHORT_TIMEOUT_MS }).leader(), 'http://m1.example:5050');
  t.ok(Date.now() - startedMs < PATIENCE_MS / 2, 'bounded by the connect timeout, not by any other bound');
});

t.test('a server that stops answering requests is abandoned after requestTimeoutMs', async (t) => {
  const stuck = await startFake(t, { znodes: TWO_MASTERS, hangRequests: true });
  const fake = await startFake(t);
  t.equal(await detector(t, `zk://${stuck.hostPort},${fake.hostPort}/mesos`, { ...BOUNDS, requestTimeoutMs: SHORT_TIMEOUT_MS }).leader(), 'http://m1.example:5050');
  t.strictSame(stuck.requests, ['connect']);
});

t.test('a lost session moves to the next server on the next call', async (t) => {
  const first = await startFake(t);
  const second = await startFake(t, { znodes: { '/mesos/json.info_0000000009': masterInfoJson('m9', '10.0.0.9', 5050) } });
  const zk = detector(t, `zk://${first.hostPort},${second.hostPort}/mesos`);
  t.equal(await zk.leader(), 'http://m1.example:5050');
  await first.stop();
  t.equal(await zk.leader(), 'http://m9:5050');
});

t.test('a server speaking something else than ZooKeeper is a failure, then the next is tried', async (t) => {
  const replies = [Buffer.from('HTTP/1.1 400 Bad Request\r\n\r\n'), Buffer.from([0, 0, 0, 3, 1, 2, 3])];
  for (const reply of replies) {
    const impostor = await rawServer(t, reply);
    const fake = await startFake(t);
    t.equal(await detector(t, `zk://${impostor},${fake.hostPort}/mesos`).leader(), 'http://m1.example:5050', reply.toString('hex'));
    await t.rejects(detector(t, `zk://${impostor}/mesos`).leader(), { kind: 'UNREACHABLE', message: /ZooKeeper (packet|message)/ });
  }
});

/** A TCP server on 127.0.0.1 answering every connection with `reply`; returns its host:port. */
async function rawServer(t: Test, reply: Buffer): Promise<string> {
  const server = net.createServer((socket) => {
    socket.on('error', () => undefined);
    socket.resume(); // consume the ConnectRequest, so that the client's close is seen
    socket.end(reply);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `127.0.0.1:${(server.address() as net.AddressInfo).port}`;
}

t.test('no reachable server: UNREACHABLE naming each server and why', async (t) => {
  const [a, b] = [await deadHostPort(), await deadHostPort()];
  await t.rejects(detector(t, `zk://${a},${b}/mesos`).leader(), {
    name: 'ZkError', kind: 'UNREACHABLE', message: new RegExp(`cannot reach ZooKeeper at zk://${a},${b}/mesos: .*${a}.*ECONNREFUSED.*${b}`),
  });
});

t.test('a server refusing the session counts as unreachable', async (t) => {
  const fake = await startFake(t, { znodes: TWO_MASTERS, refuseSession: true });
  await t.rejects(detector(t, `zk://${fake.hostPort}/mesos`).leader(), { kind: 'UNREACHABLE', message: /refused the session/ });
});

t.test('no master registered: NO_MASTER saying why', async (t) => {
  const cases: Array<{ name: string; znodes: Record<string, string>; reason: RegExp }> = [
    { name: 'group znode absent', znodes: { '/other/x': '' }, reason: /the znode \/mesos does not exist/ },
    { name: 'group empty', znodes: { '/mesos': '' }, reason: /no json\.info_\* znode under \/mesos/ },
    { name: 'only protobuf members', znodes: { '/mesos/info_0000000001': 'p' }, reason: /only protobuf info_\* znodes/ },
  ];
  for (const c of cases) {
    const fake = await startFake(t, { znodes: c.znodes });
    await t.rejects(detector(t, `zk://${fake.hostPort}/mesos`).leader(), { kind: 'NO_MASTER', message: c.reason }, c.name);
  }
});

t.test('the leader znode vanishing between list and read (an election) is retried', async (t) => {
  let elections = 0;
  const fake = await startFake(t, {
    znodes: TWO_MASTERS,
    beforeGetData: (path, server) => {
      if (elections === 0) server.znodes.delete(path);
      elections += 1;
    },
  });
  t.equal(await detector(t, `zk://${fake.hostPort}/mesos`).leader(), 'http://m2.example:5050');
});

t.test('a leader znode that keeps vanishing ends in NO_MASTER after maxElectionRetries', async (t) => {
  let sequence = 1;
  const fake = await startFake(t, {
    znodes: { '/mesos/json.info_0000000001': masterInfoJson('m', '10.0.0.1', 5050) },
    beforeGetData: (path, server) => { // each read finds the master re-registered under a new znode
      sequence += 1;
      server.znodes.delete(path);
      server.znodes.set(`/mesos/json.info_${String(sequence).padStart(10, '0')}`, Buffer.from('{}'));
    },
  });
  await t.rejects(detector(t, `zk://${fake.hostPort}/mesos`, { ...BOUNDS, maxElectionRetries: 2 }).leader(), {
    kind: 'NO_MASTER', message: /kept vanishing/,
  });
  t.equal(fake.requests.filter((r) => r.startsWith('getData')).length, 2, 'bounded by maxElectionRetries');
});

t.test('unusable MasterInfo data: MALFORMED_MASTER_INFO naming the znode', async (t) => {
  const fake = await startFake(t, { znodes: { '/mesos/json.info_0000000001': 'not json' } });
  await t.rejects(detector(t, `zk://${fake.hostPort}/mesos`).leader(), {
    kind: 'MALFORMED_MASTER_INFO', message: /\/mesos\/json\.info_0000000001 .*not JSON/,
  });
});

t.test('digest credentials are sent as an AuthPacket', async (t) => {
  const fake = await startFake(t, { znodes: TWO_MASTERS, digest: 'mesos:hunter2' });
  t.equal(await detector(t, `zk://mesos:hunter2@${fake.hostPort}/mesos`).leader(), 'http://m1.example:5050');
  t.strictSame(fake.requests.slice(0, 2), ['connect', 'auth digest']);
});

t.test('rejected credentials: AUTH_FAILED without the password, and no other server is tried', async (t) => {
  const fake = await startFake(t, { znodes: TWO_MASTERS, digest: 'mesos:right' });
  const other = await startFake(t);
  const error = await detector(t, `zk://mesos:wrong@${fake.hostPort},${other.hostPort}/mesos`).leader().catch((e: unknown) => e);
  t.match(error, { name: 'ZkError', kind: 'AUTH_FAILED', message: /rejected the digest credentials of user "mesos": AUTHFAILED \(-115\)/ });
  t.notMatch(String(error), /wrong/);
  t.strictSame(other.requests, []);
});

t.test('the root path works as a group', async (t) => {
  const fake = await startFake(t, { znodes: { '/json.info_0000000001': masterInfoJson('r', '10.0.0.1', 5050) } });
  t.equal(await detector(t, `zk://${fake.hostPort}`).leader(), 'http://r:5050');
});

t.test('close() ends the session and later calls reject with CLOSED', async (t) => {
  const fake = await startFake(t);
  const zk = new ZkMasterDetector(`zk://${fake.hostPort}/mesos`, BOUNDS);
  await zk.leader();
  zk.close();
  await t.rejects(zk.leader(), { name: 'ZkError', kind: 'CLOSED' });
  await waitFor(() => fake.requests.includes('closeSession'), 'closeSession');
  t.pass('closeSession sent');
});

t.test('a bad URL throws BAD_URL from the constructor', async (t) => {
  t.throws(() => new ZkMasterDetector('zk://'), { name: 'ZkError', kind: 'BAD_URL' });
});
