import type { Test } from 'tap';
import { ZkStore, type ZkStoreOptions } from '../../../src/store/zk/zk-store';
import { PATIENCE_MS } from '../../harness/wait';
import { startZooKeeper, ZOOKEEPER_MISSING, type ZooKeeperServer } from '../../harness/zookeeper-server';

/** Generous bounds: the suite runs on a loaded machine (test/harness/wait.ts). */
export const ZK_OPTIONS: ZkStoreOptions = { sessionTimeoutMs: 30_000, timeoutMs: PATIENCE_MS };

/** The skip reason of every real-ZooKeeper test (the package is absent), or false. */
export const skip = ZOOKEEPER_MISSING;

/** One ZooKeeper for the whole test file, started on first use, stopped at the end. */
export function zooKeeperOf(t: Test): () => Promise<ZooKeeperServer> {
  let server: Promise<ZooKeeperServer> | undefined;
  t.teardown(async () => {
    if (server !== undefined) await (await server).stop();
  });
  return () => (server ??= startZooKeeper());
}

let paths = 0;

/** A fresh store path's URL on `server` (`credentials`: `user:pass@`). */
export function freshUrl(server: ZooKeeperServer, credentials = ''): string {
  return `zk://${credentials}${server.connect}/pacer/t${process.pid}-${++paths}`;
}

/** Opens a store that is closed when the test ends. */
export async function openZk(t: Test, url: string, options: ZkStoreOptions = ZK_OPTIONS): Promise<ZkStore> {
  const store = await ZkStore.open(url, options);
  t.teardown(() => store.closeAsync());
  return store;
}
