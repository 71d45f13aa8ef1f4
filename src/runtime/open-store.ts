import type { Store } from '../scheduler/ports/store';
import type { Durability } from '../store/durable-driver';
import { SqliteStore } from '../store/sqlite/sqlite-store';
import { ZkStore } from '../store/zk/zk-store';
import type { PacerConfig } from './config';
import type { PacerLog } from './pacer-log';

/** The store a real-time composition runs on: the port, command transactions, closing, and — when it writes behind — its durability. */
export interface RuntimeStore extends Store {
  atomically<T>(fn: () => T): T;
  close(): void;
  /** Present when writes become durable after the call returns (ZooKeeper): the driver and replies wait for it. */
  readonly durability?: Durability;
}

/**
 * The embedded SQLite file (default), or ZooKeeper with `--zk`. A ZooKeeper store that can never
 * write again (session expired, credentials refused) stops the process with a message: the
 * tasks keep running and a restart recovers from what ZooKeeper holds (Marathon exits too).
 */
export async function openStore(config: PacerConfig, log: PacerLog): Promise<RuntimeStore> {
  if (config.zk === undefined) return SqliteStore.open(config.storePath, { synchronous: config.storeSynchronous });
  const storeLog = log.child({ component: 'store' });
  return ZkStore.open(config.zk, {
    timeoutMs: config.zkTimeoutMs, sessionTimeoutMs: config.zkSessionTimeoutMs,
    log: (line) => storeLog.warn(line),
    onFatal: (error) => {
      storeLog.fatal(`${error.message}; stopping (a restart recovers from ZooKeeper)`);
      process.exit(1);
    },
  });
}
