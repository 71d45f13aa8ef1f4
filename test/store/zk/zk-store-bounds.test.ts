import t from 'tap';
import { ZkError } from '../../../src/cluster/mesos/zk/zk-error';
import { ZkLayout } from '../../../src/store/zk/zk-layout';
import { ZkStore, type ZkStoreOptions } from '../../../src/store/zk/zk-store';
import { waitFor } from '../../harness/wait';

/*
 * Every wait of a ZooKeeper store's write is bounded by --zk_timeout (`ZkStore.writeRetrying`):
 * after an attempt that fails fast, the check of the leader's fence is part of the attempt. On a
 * silent connection that check gets no answer; without the bound the store waited for the
 * session's end (a session timeout later), and the leader kept its term that long. Built from
 * stubs (no server): a writer whose write fails at once, and a session whose `exists` never answers.
 */

type StoreCtor = new (session: unknown, layout: ZkLayout, writer: unknown, options: ZkStoreOptions, loaded: unknown, where: string) => ZkStore;

function storeWith(exists: () => Promise<boolean>, options: Partial<ZkStoreOptions>): { store: ZkStore; fatal: Error[]; writes: () => number } {
  let writes = 0;
  const session = { onState: () => undefined, exists, close: () => undefined };
  const writer = {
    write: () => {
      writes++;
      return Promise.reject(new ZkError('CONNECTION_LOSS', 'the connection closed'));
    },
    resync: () => Promise.resolve(),
  };
  const fatal: Error[] = [];
  const store = new (ZkStore as unknown as StoreCtor)(session, new ZkLayout('/pacer'), writer, {
    sessionTimeoutMs: 60_000, timeoutMs: 300, fence: '/pacer/leader/me', onFatal: (e) => void fatal.push(e), ...options,
  }, { runSpecs: [], versions: [], rootVersions: [], deployments: [], instances: [] }, 'zk://127.0.0.1:1/pacer');
  return { store, fatal, writes: () => writes };
}

t.test('a fence check that gets no answer ends the attempt at --zk_timeout: the store fails with that reason', async (t) => {
  const { store, fatal } = storeWith(() => new Promise<boolean>(() => undefined), {});
  store.saveFrameworkId('fw-1');
  await waitFor(() => fatal.length > 0, 'the store to fail');
  t.match(fatal[0].message, /a write got no answer within --zk_timeout \(300 ms\)/);
  await store.closeAsync(0);
});

t.test('a fence check that answers "held" lets the write be retried; "gone" fails the store as fenced', async (t) => {
  const held = storeWith(() => Promise.resolve(true), { timeoutMs: 60_000 });
  held.store.saveFrameworkId('fw-1');
  await waitFor(() => held.writes() >= 2, 'a second attempt');
  t.same(held.fatal, [], 'not failed: retrying');
  const gone = storeWith(() => Promise.resolve(false), { timeoutMs: 60_000 });
  gone.store.saveFrameworkId('fw-1');
  await waitFor(() => gone.fatal.length > 0, 'the store to fail');
  t.match(gone.fatal[0].message, /\/pacer\/leader\/me is gone/);
  await held.store.closeAsync(0);
  await gone.store.closeAsync(0);
});
