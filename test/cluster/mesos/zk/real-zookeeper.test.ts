import net from 'node:net';
import t from 'tap';
import { ZkClient } from '../../../../src/cluster/mesos/zk/zk-client';
import { ZkMasterDetector } from '../../../../src/cluster/mesos/zk/zk-master-detector';
import { parseZkUrl } from '../../../../src/cluster/mesos/zk/zk-url';
import { PATIENCE_MS } from '../../../harness/wait';
import { masterInfoJson } from './fake-zookeeper';
import { createZnode, CreateMode, deleteZnode } from './zk-test-ops';

/**
 * Against a real ZooKeeper (`PACER_ZK=host:port`, e.g. from `eval "$(.ci/zookeeper.sh)"`): two
 * clients play Mesos masters, registering ephemeral sequential `json.info_` znodes as Mesos'
 * contender does, and the detector must follow the leadership as their sessions end.
 */
const zk = process.env.PACER_ZK;
const skip = zk === undefined || zk === '' ? 'PACER_ZK (host:port of a running ZooKeeper) is unset; run eval "$(.ci/zookeeper.sh)" to enable' : false;
/** Connect and request bounds a loaded machine does not reach (test/harness/wait.ts). */
const OPTIONS = { sessionTimeoutMs: 4_000, connectTimeoutMs: PATIENCE_MS, requestTimeoutMs: PATIENCE_MS };

/** Polls `read` every 50 ms until it yields `expected` or `limitMs` passes; returns the last value. */
async function eventually<T>(read: () => Promise<T>, expected: T, limitMs: number): Promise<T> {
  let last = await read();
  for (let waitedMs = 0; last !== expected && waitedMs < limitMs; waitedMs += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    last = await read();
  }
  return last;
}

const errorKind = (promise: Promise<unknown>): Promise<string> =>
  promise.then(() => 'resolved', (error: unknown) => (error as { kind?: string }).kind ?? String(error));

/** A closed port on 127.0.0.1, to put a dead server ahead of the real one. */
async function deadHostPort(): Promise<string> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `127.0.0.1:${port}`;
}

t.test('detects and follows the leading Mesos master in a real ZooKeeper', { skip }, async (t) => {
  const root = `/pacer-zk-test-${process.pid}-${Date.now()}`;
  const group = `${root}/mesos`;
  const url = parseZkUrl(`zk://${zk}${group}`);
  const admin = new ZkClient(url, OPTIONS);
  const masterA = new ZkClient(url, OPTIONS);
  const masterB = new ZkClient(url, OPTIONS);
  const detector = new ZkMasterDetector(`zk://${await deadHostPort()},${zk}${group}`, OPTIONS);
  t.teardown(async () => {
    for (const client of [masterA, masterB]) client.close();
    detector.close();
    await deleteZnode(admin, group).catch(() => undefined);
    await deleteZnode(admin, root).catch(() => undefined);
    admin.close();
  });

  t.equal(await errorKind(detector.leader()), 'NO_MASTER', 'no group yet');
  await createZnode(admin, root, '', CreateMode.persistent);
  await createZnode(admin, group, '', CreateMode.persistent);
  t.equal(await errorKind(detector.leader()), 'NO_MASTER', 'empty group');

  const nodeA = await createZnode(masterA, `${group}/json.info_`, masterInfoJson('127.0.0.1', '127.0.0.1', 5050), CreateMode.ephemeralSequential);
  await createZnode(masterA, `${group}/info_`, '\n\x05proto', CreateMode.ephemeralSequential);
  const nodeB = await createZnode(masterB, `${group}/json.info_`, masterInfoJson('localhost', '127.0.0.1', 5051), CreateMode.ephemeralSequential);
  t.match(nodeA, new RegExp(`^${group}/json\\.info_\\d{10}$`), 'the server appended a 10-digit sequence');
  t.ok(nodeA < nodeB, 'A registered first');

  t.equal(await detector.leader(), 'http://127.0.0.1:5050', 'the first registered master leads');
  masterA.close(); // A's session ends: its ephemeral znodes go, B is elected
  t.equal(await eventually(() => detector.leader(), 'http://localhost:5051', PATIENCE_MS), 'http://localhost:5051', 'B leads after A left');
  masterB.close();
  t.equal(await eventually(() => errorKind(detector.leader()), 'NO_MASTER', PATIENCE_MS), 'NO_MASTER', 'no master after B left');
});

t.test('digest credentials are accepted by a real ZooKeeper', { skip }, async (t) => {
  const detector = new ZkMasterDetector(`zk://pacer:secret@${zk}/zookeeper`, OPTIONS);
  t.teardown(() => detector.close());
  // `/zookeeper` always exists and holds no masters: the session and auth worked if we get there.
  t.equal(await errorKind(detector.leader()), 'NO_MASTER');
});
