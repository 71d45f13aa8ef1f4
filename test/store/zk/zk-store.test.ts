import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import t from 'tap';
import { ZkError } from '../../../src/cluster/mesos/zk/zk-error';
import { ZK_CODES, ZkSession } from '../../../src/cluster/mesos/zk/zk-session';
import { parseZkUrl } from '../../../src/cluster/mesos/zk/zk-url';
import { STORE_FORMAT_VERSION } from '../../../src/store/records/store-format-version';
import { formatMarker, keyOfNodeName, nodeName } from '../../../src/store/zk/zk-layout';
import type { HealthCheckProtocol } from '../../../src/scheduler/model/health-check';
import type { AppSpec } from '../../../src/scheduler/model/app';
import { runSpecToRecord } from '../../../src/store/run-spec-record';
import { ZkStore } from '../../../src/store/zk/zk-store';
import { makeApp, makeHealthCheck, versionAt } from '../../builders/run-spec-builders';
import { Harness } from '../../harness/core-harness';
import { repoPath } from '../../harness/repo-path';
import { deployment, rootAt, storeConformance } from '../store-conformance';
import { dumpOf, recordText, type StoreDump } from '../store-dump';
import { freshUrl, openZk, skip, ZK_OPTIONS, zooKeeperOf } from './zk-fixture';

/**
 * The ZooKeeper store (`--zk`) against a real ZooKeeper started for this file (Debian's
 * `zookeeper` package; the file skips, saying so, without it): the Store port's table, the
 * checked-in fixture, a 10,000-app root group past ZooKeeper's 1 MiB node limit, digest ACLs,
 * refusals, migrations, durability and the clean-up of chunks a crash left.
 */
const zookeeper = zooKeeperOf(t);

t.test('the Store port table', { skip }, async (t) => {
  const server = await zookeeper();
  storeConformance(t, {
    name: 'ZooKeeper', copies: true,
    persisted: async (t, write) => {
      const url = freshUrl(server);
      const first = await ZkStore.open(url, ZK_OPTIONS);
      write(first);
      await first.closeAsync();
      return (await openZk(t, url)).load();
    },
    storedDump: async (t, dump) => {
      const url = freshUrl(server);
      const writer = await ZkStore.open(url, ZK_OPTIONS);
      for (const r of dump.records) writer.putRecordText(r.kind, r, recordText(r));
      await writer.closeAsync();
      return (await openZk(t, url)).load();
    },
  });
});

t.test('the checked-in fixture of the current format loads with every record intact', { skip }, async (t) => {
  const server = await zookeeper();
  const dump = JSON.parse(readFileSync(repoPath(`test/fixtures/store/format-${STORE_FORMAT_VERSION}.json`), 'utf8')) as StoreDump;
  const url = freshUrl(server);
  const writer = await ZkStore.open(url, ZK_OPTIONS);
  for (const r of dump.records) writer.putRecordText(r.kind, r, recordText(r));
  await writer.closeAsync();
  const loaded = (await openZk(t, url)).load();
  t.equal(loaded.setAside, undefined, 'no record set aside');
  t.same(dumpOf(loaded, dump.format), dump, 'each record stored again is the fixture, exactly');
  t.same(new Harness({ stored: loaded }).scheduler.setAsideRecords(), [], 'the core recovers every record');
});

t.test('a root group of 10,000 apps stores and loads; a record far beyond 1 MiB is compressed, chunked, its old chunks removed', { skip }, async (t) => {
  const server = await zookeeper();
  const url = freshUrl(server);
  // A token per app keeps the JSON from compressing below one znode (7.7 MB of JSON, 0.8 MB gzipped).
  const token = (i: number): string => createHash('sha512').update(`token-${i}`).digest('hex');
  const apps = Array.from({ length: 10_000 }, (_, i) => makeApp({ id: `/g${i % 100}/app-${String(i).padStart(5, '0')}`, version: versionAt(1), env: { TOKEN: token(i) } }));
  const root = rootAt(versionAt(1), ...apps);
  // Since format 4 a root refers to its apps' versions, and since format 6 a deployment refers to
  // them too (small records): the big record here is one app with 10,000 tokens in its env.
  const big = makeApp({ id: '/big/app', version: versionAt(1), env: Object.fromEntries(apps.map((_, i) => [`TOKEN_${i}`, token(i)])) });
  const store = await ZkStore.open(url, ZK_OPTIONS);
  store.saveRoot(root);
  store.saveRootVersion(root);
  store.saveDeployment({ ...deployment('big', 0), target: root });
  store.saveRunSpecVersion(big);
  for (const app of apps) store.saveRunSpec(app);
  for (const app of apps) store.saveRunSpecVersion(app);
  await store.whenDurable();
  const session = await ZkSession.open(parseZkUrl(url), { sessionTimeoutMs: 10_000, connectTimeoutMs: ZK_OPTIONS.timeoutMs, requestTimeoutMs: ZK_OPTIONS.timeoutMs });
  t.teardown(() => session.close());
  const base = parseZkUrl(url).path;
  const chunks = await session.getChildren(`${base}/chunks`);
  t.ok(chunks.length >= 2, `the big app's version is chunked (${chunks.length} chunks)`);
  store.saveRunSpecVersion({ ...big, env: {} });
  await store.closeAsync();
  t.equal((await session.getChildren(`${base}/chunks`)).length, 0, "the replaced record's chunks are removed");
  const loaded = (await openZk(t, url)).load();
  t.equal(loaded.setAside, undefined);
  t.equal(loaded.runSpecs.length, 10_000);
  t.equal(loaded.versions.length, 10_001);
  t.equal(loaded.deployments[0]?.target.groups.get('/g7')?.apps.get('/g7/app-00007'), loaded.versions.find((v) => v.id === '/g7/app-00007'), "the deployment's target refers to the stored versions");
  t.equal(loaded.rootVersions.length, 1);
  t.equal(loaded.rootVersions[0].groups.size, 100, 'the big root version is whole');
  t.equal(loaded.root?.groups.get('/g7')?.apps.get('/g7/app-00007'), loaded.versions.find((v) => v.id === '/g7/app-00007'), 'its apps are the stored versions');
});

t.test('digest credentials: the znodes are readable only with them', { skip }, async (t) => {
  const server = await zookeeper();
  const url = freshUrl(server, 'pacer:s3cret@');
  const store = await ZkStore.open(url, ZK_OPTIONS);
  store.saveFrameworkId('fw-1');
  await store.closeAsync();
  t.equal((await openZk(t, url)).load().frameworkId, 'fw-1', 'with the credentials');
  const anonymous = await ZkSession.open(parseZkUrl(`zk://${server.connect}/`), { sessionTimeoutMs: 10_000, connectTimeoutMs: ZK_OPTIONS.timeoutMs, requestTimeoutMs: ZK_OPTIONS.timeoutMs });
  t.teardown(() => anonymous.close());
  const path = `${parseZkUrl(url).path}/frameworkId/${nodeName({ key: '/' })}`;
  const refused = await anonymous.getData(path).then(() => 'read', (e: unknown) => (e instanceof ZkError ? e.serverCode : String(e)));
  t.equal(refused, ZK_CODES.NOAUTH, 'without them: NOAUTH');
  await t.rejects(ZkStore.open(url.replace('s3cret', 'wrong'), ZK_OPTIONS), 'the wrong password cannot open the store');
});

t.test('refusals: a path holding something else, another marker, a newer format; nothing is written', { skip }, async (t) => {
  const server = await zookeeper();
  const admin = await ZkSession.open(parseZkUrl(`zk://${server.connect}/`), { sessionTimeoutMs: 10_000, connectTimeoutMs: ZK_OPTIONS.timeoutMs, requestTimeoutMs: ZK_OPTIONS.timeoutMs });
  t.teardown(() => admin.close());
  const foreign = freshUrl(server);
  const foreignPath = parseZkUrl(foreign).path;
  await admin.create('/pacer', Buffer.alloc(0)).catch(() => undefined);
  await admin.create(foreignPath, Buffer.alloc(0));
  await admin.create(`${foreignPath}/marathon`, Buffer.alloc(0));
  await t.rejects(ZkStore.open(foreign, ZK_OPTIONS), { message: /holds znodes that are not a pacer store \(marathon\); refusing to use it \(nothing was written\)/ });
  t.same(await admin.getChildren(foreignPath), ['marathon'], 'left as it was');

  const newer = freshUrl(server);
  (await ZkStore.open(newer, ZK_OPTIONS)).close();
  await admin.setData(`${parseZkUrl(newer).path}/format`, formatMarker(STORE_FORMAT_VERSION + 1));
  await t.rejects(ZkStore.open(newer, ZK_OPTIONS), { message: new RegExp(`has store format version ${STORE_FORMAT_VERSION + 1}, this pacer understands up to ${STORE_FORMAT_VERSION}`) });
  await admin.setData(`${parseZkUrl(newer).path}/format`, Buffer.from('{"store":"other"}'));
  await t.rejects(ZkStore.open(newer, ZK_OPTIONS), { message: /is not a pacer store marker/ });
});

t.test('a format 1 store is migrated (AGENT_* protocols), written back, and stamped with the current format', { skip }, async (t) => {
  const server = await zookeeper();
  const url = freshUrl(server);
  const legacy = 'AGENT_HTTP' as HealthCheckProtocol;
  const store = await ZkStore.open(url, ZK_OPTIONS);
  store.saveRunSpec(makeApp({ id: '/web', hostPorts: [0], healthChecks: [makeHealthCheck({ protocol: legacy })] }));
  await store.closeAsync();
  const admin = await ZkSession.open(parseZkUrl(url), { sessionTimeoutMs: 10_000, connectTimeoutMs: ZK_OPTIONS.timeoutMs, requestTimeoutMs: ZK_OPTIONS.timeoutMs });
  t.teardown(() => admin.close());
  const base = parseZkUrl(url).path;
  await admin.setData(`${base}/format`, formatMarker(1));
  t.equal(((await openZk(t, url)).load().runSpecs[0] as AppSpec).healthChecks[0].protocol, 'MESOS_HTTP', 'migrated on load');
  t.same(JSON.parse((await admin.getData(`${base}/format`)).toString()), { store: 'pacer', format: STORE_FORMAT_VERSION });
  const raw = (await admin.getData(`${base}/runSpec/${nodeName({ key: '/web' })}`)).subarray(1).toString();
  t.notOk(raw.includes('AGENT_HTTP'), 'the migrated record was written back');
});

t.test('a format 2 store (run specs and groups as the codec\'s tree) is migrated record by record to the current format (3, then 4: roots by reference, then 6: deployments by reference, then 7: a taskFailure znode, then 8, then 9: running instances proven) and written back', { skip }, async (t) => {
  const server = await zookeeper();
  const read = (format: number): StoreDump => JSON.parse(readFileSync(repoPath(`test/fixtures/store/format-${format}.json`), 'utf8')) as StoreDump;
  // Format 8 changes no record (a deployment written since may refer to its roots by version; a
  // migrated one keeps them whole): format 7's records are the migration's result, with format
  // 9's `proven: true` on each instance that had started (format-9.json's instances).
  const [two, seven, nine] = [read(2), read(7), read(9)];
  const ninth = new Map(nine.records.filter((r) => r.kind === 'instance').map((r) => [r.key, r]));
  const current = { ...seven, format: STORE_FORMAT_VERSION, records: seven.records.map((r) => (r.kind === 'instance' ? ninth.get(r.key) ?? r : r)) };
  const url = freshUrl(server);
  const writer = await ZkStore.open(url, ZK_OPTIONS);
  for (const r of two.records) writer.putRecordText(r.kind, r, recordText(r));
  await writer.closeAsync();
  const admin = await ZkSession.open(parseZkUrl(url), { sessionTimeoutMs: 10_000, connectTimeoutMs: ZK_OPTIONS.timeoutMs, requestTimeoutMs: ZK_OPTIONS.timeoutMs });
  t.teardown(() => admin.close());
  const base = parseZkUrl(url).path;
  await admin.setData(`${base}/format`, formatMarker(2));
  // A store of format 6 or older has no znode of the kinds added since (format 7: taskFailure).
  await admin.delete(`${base}/taskFailure`);
  const reopened = await openZk(t, url);
  const loaded = reopened.load();
  t.equal(loaded.setAside, undefined, 'no record set aside');
  // Both fixtures come from the same core run; format 3's also holds a resident reservation, which format 2 could not.
  const inTwo = new Set(two.records.map((r) => `${r.kind} ${r.key} ${r.version}`));
  const expected = { ...current, records: current.records.filter((r) => inTwo.has(`${r.kind} ${r.key} ${r.version}`)) };
  t.equal(expected.records.length, two.records.length);
  t.same(dumpOf(loaded, STORE_FORMAT_VERSION), expected, 'every record is the current fixture\'s');
  t.same(JSON.parse((await admin.getData(`${base}/format`)).toString()), { store: 'pacer', format: STORE_FORMAT_VERSION });
  const root = current.records.find((r) => r.kind === 'root');
  t.equal((await admin.getData(`${base}/root/${nodeName({ key: '/' })}`)).subarray(1).toString(), root === undefined ? '' : recordText(root), 'the migrated root was written back');
  t.same(await admin.getChildren(`${base}/taskFailure`), [], "format 7's taskFailure znode is made");
  reopened.saveTaskFailure({ appId: '/prod/web', taskId: 't1', state: 'TASK_FAILED', message: '', host: 'h', version: 'v', timestamp: 'ts' });
  await reopened.whenDurable();
  t.same(await admin.getChildren(`${base}/taskFailure`), [nodeName({ key: '/prod/web' })], 'and holds task failures');
});

t.test('records that cannot be loaded are set aside (kept under set-aside/), the rest loads', { skip }, async (t) => {
  const server = await zookeeper();
  const url = freshUrl(server);
  const store = await ZkStore.open(url, ZK_OPTIONS);
  store.saveRunSpec(makeApp({ id: '/good' }));
  store.putRecordText('instance', { key: 'bad' }, '{"instanceId":"bad"}');
  store.putRecordText('runSpec', { key: '/other' }, JSON.stringify(runSpecToRecord(makeApp({ id: '/elsewhere' }))));
  await store.closeAsync();
  const reopened = await openZk(t, url);
  const loaded = reopened.load();
  t.same(loaded.runSpecs.map((s) => s.id), ['/good']);
  t.match(loaded.setAside, [
    { kind: 'runSpec', key: '/other', reason: 'is not the record its key names' },
    { kind: 'instance', key: 'bad', reason: /^does not match StoredInstanceV1: must have required property/ },
  ]);
  await reopened.closeAsync();
  const admin = await ZkSession.open(parseZkUrl(url), { sessionTimeoutMs: 10_000, connectTimeoutMs: ZK_OPTIONS.timeoutMs, requestTimeoutMs: ZK_OPTIONS.timeoutMs });
  t.teardown(() => admin.close());
  const base = parseZkUrl(url).path;
  const entries = await admin.getChildren(`${base}/set-aside`);
  t.equal(entries.length, 2, 'both kept');
  const entry = JSON.parse((await admin.getData(`${base}/set-aside/${entries.sort()[1]}`)).toString()) as { kind: string; data: string };
  t.match(Buffer.from(entry.data, 'base64').subarray(1).toString(), /"instanceId":"bad"/, 'with the stored data as it was');
  t.equal((await openZk(t, url)).load().setAside, undefined, 'the next load is clean');
});

t.test('writes are durable when whenDurable resolves; a store reopened then sees them', { skip }, async (t) => {
  const server = await zookeeper();
  const url = freshUrl(server);
  const store = await openZk(t, url);
  store.saveFrameworkId('fw');
  const seq = store.writeSeq;
  t.ok(store.hasPendingWrites(), 'queued, not yet durable');
  await store.whenDurable(seq);
  t.notOk(store.hasPendingWrites());
  t.equal((await openZk(t, url)).load().frameworkId, 'fw', 'another session reads it');
});

t.test('a fenced store (the leader\'s election znode): once the fence is gone, no write lands and the store fails for good', { skip }, async (t) => {
  const server = await zookeeper();
  const url = freshUrl(server);
  const admin = await ZkSession.open(parseZkUrl(`zk://${server.connect}/`), { sessionTimeoutMs: 10_000, connectTimeoutMs: ZK_OPTIONS.timeoutMs, requestTimeoutMs: ZK_OPTIONS.timeoutMs });
  t.teardown(() => admin.close());
  const fence = `/pacer-fence-${process.pid}-${Date.now()}`;
  await admin.create(fence, Buffer.alloc(0), 'persistent');
  const fatal: string[] = [];
  const store = await openZk(t, url, { ...ZK_OPTIONS, fence, onFatal: (e) => void fatal.push(e.message) });
  store.saveFrameworkId('fw-1');
  await store.whenDurable();
  t.equal((await openZk(t, url)).load().frameworkId, 'fw-1', 'written while the fence stands');
  await admin.delete(fence);
  store.saveFrameworkId('fw-2');
  await t.rejects(store.whenDurable(), /is gone \(this pacer no longer leads\)/, 'the write never becomes durable');
  t.match(fatal, [/is gone/], 'the store failed for good');
  t.equal((await openZk(t, url)).load().frameworkId, 'fw-1', 'what the next leader reads is unchanged');
});

t.test('closing writes what is queued first; writes after the close are refused', { skip }, async (t) => {
  const server = await zookeeper();
  const url = freshUrl(server);
  const store = await ZkStore.open(url, ZK_OPTIONS);
  store.saveFrameworkId('fw-closing');
  const closed = store.closeAsync();
  t.throws(() => store.saveFrameworkId('fw-late'), /is closed/);
  await closed;
  t.equal((await openZk(t, url)).load().frameworkId, 'fw-closing', 'the queued write landed before the session ended');
});

t.test('znode names: every key round-trips, none holds a slash', async (t) => {
  for (const at of [{ key: '/' }, { key: '/a/b.c-d' }, { key: 'x,y%z' }, { key: '/a', version: '2026-01-01T00:00:00.000Z' }]) {
    const name = nodeName(at);
    t.notOk(name.includes('/'), name);
    t.same(keyOfNodeName(name), at);
  }
  t.equal(keyOfNodeName('a,b,c'), undefined);
  t.equal(keyOfNodeName('%E0%A4%A'), undefined);
});
