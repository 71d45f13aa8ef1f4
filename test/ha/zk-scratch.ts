import type { Test } from 'tap';
import { ZkSession } from '../../src/cluster/mesos/zk/zk-session';
import { parseZkUrl } from '../../src/cluster/mesos/zk/zk-url';
import { PATIENCE_MS } from '../harness/wait';

/**
 * A real ZooKeeper for the HA tests: `PACER_TEST_ZK=host:port` (e.g. from `eval "$(.ci/zookeeper.sh)"`,
 * as test/cluster/mesos/zk/real-zookeeper.test.ts uses it); unset, the tests skip saying so.
 */
export const ZK = process.env.PACER_TEST_ZK ?? '';
export const SKIP_WITHOUT_ZK = ZK === '' ? 'PACER_TEST_ZK (host:port of a running ZooKeeper) is unset; run eval "$(.ci/zookeeper.sh)" to enable' : false;

/** A short session timeout (the server's minimum is 2 ticks = 2 s with .ci/zookeeper.sh), patient requests. */
export const SESSION = { sessionTimeoutMs: 4_000, connectTimeoutMs: PATIENCE_MS, requestTimeoutMs: PATIENCE_MS };

/** An admin session, closed at teardown. */
export async function adminSession(t: Test): Promise<ZkSession> {
  const session = await ZkSession.open(parseZkUrl(`zk://${ZK}/`), SESSION);
  t.teardown(() => session.close());
  return session;
}

/** A fresh znode path for one test (`/pacer-ha-test-<pid>-<seq>`), removed with everything below at teardown. */
export async function scratchPath(t: Test, admin: ZkSession): Promise<string> {
  const root = await admin.create(`/pacer-ha-test-${process.pid}-`, Buffer.alloc(0), 'persistentSequential');
  t.teardown(async () => removeTree(admin, root));
  return root;
}

async function removeTree(admin: ZkSession, path: string): Promise<void> {
  for (const child of await admin.getChildren(path).catch(() => [])) await removeTree(admin, `${path}/${child}`);
  await admin.delete(path).catch(() => undefined);
}
