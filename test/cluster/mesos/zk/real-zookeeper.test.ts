import net from 'node:net';
import t from 'tap';
import type { Test } from 'tap';
import { ZkError } from '../../../../src/cluster/mesos/zk/zk-error';
import { ZkMasterDetector } from '../../../../src/cluster/mesos/zk/zk-master-detector';
import { digestAcl, ZK_CODES, ZkSession, type ZkWatchEvent } from '../../../../src/cluster/mesos/zk/zk-session';
import { parseZkUrl } from '../../../../src/cluster/mesos/zk/zk-url';
import { waitUntil } from '../fake-master/wait-until';
import { masterInfoJson } from './master-info-json';
import { PATIENCE_MS } from '../../../harness/wait';
import { TcpProxy } from '../../../harness/tcp-proxy';

/**
 * Against a real ZooKeeper (`PACER_TEST_ZK=host:port`, e.g. from `eval "$(.ci/zookeeper.sh)"`): pacer's
 * session wrapper (zk-session.ts, over node-zookeeper-client) operation by operation, and the
 * master detector following the leadership as two sessions play Mesos masters, registering
 * ephemeral sequential `json.info_` znodes as Mesos' contender does.
 */
const zk = process.env.PACER_TEST_ZK;
const skip = zk === undefined || zk === '' ? 'PACER_TEST_ZK (host:port of a running ZooKeeper) is unset; run eval "$(.ci/zookeeper.sh)" to enable' : false;
/** Connect and request bounds a loaded machine does not reach (test/harness/wait.ts). */
const OPTIONS = { sessionTimeoutMs: 4_000, connectTimeoutMs: PATIENCE_MS, requestTimeoutMs: PATIENCE_MS };
const WAIT_MS = PATIENCE_MS;

/** A session to the real ZooKeeper (optionally `user:pass@`), closed at teardown. */
async function session(t: Test, credentials = ''): Promise<ZkSession> {
  const opened = await ZkSession.open(parseZkUrl(`zk://${credentials}${zk}/`), OPTIONS);
  t.teardown(() => opened.close());
  return opened;
}

/** A fresh root for one test, removed (with its children) at teardown. */
async function scratch(t: Test, admin: ZkSession): Promise<string> {
  const root = await admin.create(`/pacer-zk-test-${process.pid}-`, Buffer.alloc(0), 'persistentSequential');
  t.teardown(async () => {
    for (const child of await admin.getChildren(root).catch(() => [])) {
      for (const grandchild of await admin.getChildren(`${root}/${child}`).catch(() => [])) await admin.delete(`${root}/${child}/${grandchild}`).catch(() => undefined);
      await admin.delete(`${root}/${child}`).catch(() => undefined);
    }
    await admin.delete(root).catch(() => undefined);
  });
  return root;
}

const codeOf = (promise: Promise<unknown>): Promise<number | string | undefined> =>
  promise.then(() => 'resolved', (error: unknown) => (error instanceof ZkError ? (error.serverCode ?? error.kind) : String(error)));

/** A closed port on 127.0.0.1. */
async function deadHostPort(): Promise<string> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `127.0.0.1:${port}`;
}

t.test('ZkSession: connect with a session timeout; create, getData, getChildren, exists, setData, delete', { skip }, async (t) => {
  const s = await session(t);
  t.ok(s.sessionTimeoutMs >= 2_000 && s.sessionTimeoutMs <= 4_000, `negotiated session timeout ${s.sessionTimeoutMs} ms`);
  t.match(s.sessionId, /^[0-9a-f]{16}$/);
  const root = await scratch(t, s);
  t.equal(await s.create(`${root}/a`, Buffer.from('one')), `${root}/a`);
  t.equal((await s.getData(`${root}/a`)).toString(), 'one');
  t.equal(await s.exists(`${root}/a`), true);
  t.equal(await s.exists(`${root}/none`), false);
  await s.setData(`${root}/a`, Buffer.from('two'));
  t.equal((await s.getData(`${root}/a`)).toString(), 'two');
  t.equal(await codeOf(s.setData(`${root}/a`, Buffer.from('x'), 0)), ZK_CODES.BADVERSION, 'a stale version is refused');
  t.equal(await codeOf(s.create(`${root}/a`, Buffer.alloc(0))), ZK_CODES.NODEEXISTS);
  t.same(await s.getChildren(root), ['a']);
  await s.delete(`${root}/a`);
  t.equal(await codeOf(s.getData(`${root}/a`)), ZK_CODES.NONODE);
});

t.test('ZkSession: ephemeral sequential znodes end with their session; watches fire once', { skip }, async (t) => {
  const admin = await session(t);
  const root = await scratch(t, admin);
  const member = await session(t);
  const first = await member.create(`${root}/json.info_`, Buffer.from('{}'), 'ephemeralSequential');
  const second = await member.create(`${root}/json.info_`, Buffer.from('{}'), 'ephemeralSequential');
  t.match(first, new RegExp(`^${root}/json\\.info_\\d{10}$`), 'the server appended a 10-digit sequence');
  t.ok(first < second);
  const events: ZkWatchEvent[] = [];
  t.same((await admin.getChildren(root, (e) => events.push(e))).sort(), [first, second].map((p) => p.slice(root.length + 1)));
  await admin.getData(first, (e) => events.push(e));
  t.equal(await admin.exists(`${root}/later`, (e) => events.push(e)), false);
  await admin.create(`${root}/later`, Buffer.alloc(0));
  member.close(); // its ephemeral znodes go
  await waitUntil(() => events.length >= 3 || undefined, WAIT_MS, 'three watch events');
  t.same(events.map((e) => `${e.type} ${e.path}`).sort(), [`childrenChanged ${root}`, `created ${root}/later`, `deleted ${first}`].sort());
  t.same(await admin.getChildren(root), ['later'], 'the ephemeral znodes are gone');
});

t.test('ZkSession: a transaction applies every operation or none', { skip }, async (t) => {
  const s = await session(t);
  const root = await scratch(t, s);
  await s.transaction([
    { op: 'create', path: `${root}/x`, data: Buffer.from('1') },
    { op: 'create', path: `${root}/y` },
    { op: 'setData', path: `${root}/x`, data: Buffer.from('2') },
  ]);
  t.equal((await s.getData(`${root}/x`)).toString(), '2');
  const failed = await codeOf(s.transaction([
    { op: 'delete', path: `${root}/y` },
    { op: 'check', path: `${root}/x`, version: 7 },
  ]));
  t.not(failed, 'resolved', `a failing check fails the whole transaction (${String(failed)})`);
  t.equal(await s.exists(`${root}/y`), true, 'nothing of it was applied');
});

t.test('ZkSession: digest auth protects znodes with a digest ACL', { skip }, async (t) => {
  const owner = await session(t, 'pacer:secret@');
  const root = await scratch(t, owner);
  await owner.create(`${root}/private`, Buffer.from('s'), 'persistent', digestAcl('pacer', 'secret'));
  t.equal((await owner.getData(`${root}/private`)).toString(), 's');
  const stranger = await session(t);
  t.equal(await codeOf(stranger.getData(`${root}/private`)), ZK_CODES.NOAUTH);
  const impostor = await session(t, 'pacer:wrong@');
  t.equal(await codeOf(impostor.getData(`${root}/private`)), ZK_CODES.NOAUTH);
  await owner.delete(`${root}/private`);
});

t.test('ZkSession: onState reports a lost connection at once, then the expiry of the session', { skip }, async (t) => {
  const proxy = await TcpProxy.start(zk ?? '');
  t.teardown(() => proxy.close());
  const s = await ZkSession.open(parseZkUrl(`zk://${proxy.address}/`), OPTIONS);
  t.teardown(() => s.close());
  const states: string[] = [];
  s.onState((state) => states.push(state));
  proxy.cut();
  await waitUntil(() => states.includes('disconnected'), WAIT_MS, 'disconnected');
  // Cut for longer than the session timeout: the server expires it; healed, the client learns so.
  await new Promise((resolve) => setTimeout(resolve, s.sessionTimeoutMs + 1_000));
  proxy.heal();
  await waitUntil(() => states.includes('expired'), WAIT_MS, 'expired');
  // (The library may say `disconnected` once more as it drops the expired session's socket.)
  t.same(states.filter((x) => x !== 'connected').slice(0, 2), ['disconnected', 'expired'], 'first the lost connection, then the expiry');
});

t.test('ZkSession: a reconnection whose handshake is never answered ends as an expiry after one session timeout', { skip }, async (t) => {
  // What a restarting ZooKeeper 3.8 did in CI: the connection accepted, the handshake never read.
  // node-zookeeper-client alone then waits for ever in "connecting", with no further event.
  const proxy = await TcpProxy.start(zk ?? '');
  t.teardown(() => proxy.close());
  const s = await ZkSession.open(parseZkUrl(`zk://${proxy.address}/`), OPTIONS);
  t.teardown(() => s.close());
  const states: { state: string; atMs: number }[] = [];
  s.onState((state) => states.push({ state, atMs: Date.now() }));
  proxy.cut();
  proxy.freeze(); // new connections are accepted, and nothing gets through them
  await waitUntil(() => states.some((x) => x.state === 'disconnected'), WAIT_MS, 'disconnected');
  await waitUntil(() => states.some((x) => x.state === 'expired'), WAIT_MS, 'expired');
  const lostAtMs = states.find((x) => x.state === 'disconnected')?.atMs ?? 0;
  const expiredAtMs = states.find((x) => x.state === 'expired')?.atMs ?? 0;
  t.ok(expiredAtMs - lostAtMs >= s.sessionTimeoutMs - 50, `expired ${expiredAtMs - lostAtMs} ms after the loss: not before the session timeout (${s.sessionTimeoutMs} ms)`);
  t.same(states.map((x) => x.state), ['disconnected', 'expired'], 'the loss, then the expiry, and nothing else');
  t.equal(await codeOf(s.getChildren('/')), 'SESSION_EXPIRED', 'the session refuses requests from then on');
  proxy.heal();
  await new Promise((resolve) => setTimeout(resolve, 500));
  t.notOk(states.some((x) => x.state === 'connected'), 'healing the network does not bring the given-up session back');
});

t.test('ZkSession: no server → UNREACHABLE within connectTimeoutMs; IPv6 is refused up front (no ZooKeeper needed)', async (t) => {
  const started = Date.now();
  t.equal(await codeOf(ZkSession.open(parseZkUrl(`zk://${await deadHostPort()}/`), { ...OPTIONS, connectTimeoutMs: 500 })), 'UNREACHABLE');
  t.ok(Date.now() - started < 30_000);
  t.equal(await codeOf(ZkSession.open(parseZkUrl('zk://[::1]:2181/'), OPTIONS)), 'BAD_URL');
});

// Found in an operator's trial (2026-12-03): ZooKeeper restarted under three HA pacers; two of
// them tried to rejoin while its JVM started, got `cannot join the election: no ZooKeeper server
// … accepted a session within 10000 ms`, joined on the next try, and on SIGTERM logged `stopped`
// but never exited: the failed attempt's socket, whose handshake the starting server never
// answered, stayed open (the library's close() only queues a close request behind it).
t.test('ZkSession: a server that accepts the connection and never answers: UNREACHABLE, and the socket is closed (no ZooKeeper needed)', async (t) => {
  let accepted = 0;
  let closed = 0;
  const silent = net.createServer((socket) => {
    accepted++;
    socket.resume(); // reads (and drops) the handshake, so that the client's end is seen
    socket.on('close', () => { closed++; });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => { silent.close(() => resolve()); }));
  const { port } = silent.address() as net.AddressInfo;
  t.equal(await codeOf(ZkSession.open(parseZkUrl(`zk://127.0.0.1:${port}/`), { ...OPTIONS, connectTimeoutMs: 300 })), 'UNREACHABLE');
  t.equal(accepted, 1, 'the connection was accepted');
  await waitUntil(() => closed === 1, WAIT_MS, 'the client to close its socket');
  t.pass('the socket of the attempt given up on is closed: nothing keeps the process alive');
});

t.test('the detector follows the leading Mesos master in a real ZooKeeper, by watches', { skip }, async (t) => {
  const admin = await session(t);
  const root = await scratch(t, admin);
  const group = `${root}/mesos`;
  const detector = new ZkMasterDetector(`zk://${await deadHostPort()},${zk}${group}`, OPTIONS);
  t.teardown(() => detector.close());
  const heard: string[] = [];
  detector.onChange((url) => heard.push(url));
  t.match(await detector.leader().catch((e: unknown) => e), { kind: 'NO_MASTER' }, 'no group yet');
  await admin.create(group, Buffer.alloc(0));
  const masterA = await session(t);
  const masterB = await session(t);
  await masterA.create(`${group}/json.info_`, Buffer.from(masterInfoJson('127.0.0.1', '127.0.0.1', 5050)), 'ephemeralSequential');
  await masterA.create(`${group}/info_`, Buffer.from('\n\x05proto'), 'ephemeralSequential');
  await masterB.create(`${group}/json.info_`, Buffer.from(masterInfoJson('localhost', '127.0.0.1', 5051)), 'ephemeralSequential');
  t.equal(await detector.leader(), 'http://127.0.0.1:5050', 'the first registered master leads');
  masterA.close(); // A's session ends: its ephemeral znodes go, B is elected
  await waitUntil(() => heard[0], WAIT_MS, 'the watch to report the new leader');
  t.same(heard, ['http://localhost:5051'], 'B leads after A left, reported by the watch');
  t.equal(await detector.leader(), 'http://localhost:5051');
});
