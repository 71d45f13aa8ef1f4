import t from 'tap';
import { durableDriver, type Durability } from '../../src/store/durable-driver';
import { RecordingDriver } from '../harness/recording-driver';
import { waitFor } from '../harness/wait';

/** A store that writes behind, made durable by hand: `write()` queues one write, `persist(n)` makes the first n durable. */
class ManualDurability implements Durability {
  writeSeq = 0;
  private durable = 0;
  private readonly waiters: { seq: number; resolve: () => void; reject: (e: Error) => void }[] = [];
  private failed: Error | undefined;

  write(): void {
    this.writeSeq++;
  }

  persist(upTo = this.writeSeq): void {
    this.durable = upTo;
    for (const w of this.waiters.filter((x) => x.seq <= upTo)) w.resolve();
  }

  hasPendingWrites(): boolean {
    return this.durable < this.writeSeq;
  }

  whenDurable(seq = this.writeSeq): Promise<void> {
    if (seq <= this.durable) return Promise.resolve();
    if (this.failed !== undefined) return Promise.reject(this.failed);
    return new Promise((resolve, reject) => this.waiters.push({ seq, resolve, reject }));
  }

  /** The store can never write again (a ZooKeeper session expired). */
  fail(): void {
    this.failed = new Error('session expired');
    for (const w of this.waiters.splice(0)) w.reject(this.failed);
  }
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

t.test('with nothing pending, a call goes straight through (synchronously)', async (t) => {
  const store = new ManualDurability();
  const driver = new RecordingDriver();
  durableDriver(driver, store).decline(['o1'], 5);
  t.same(driver.calls.map((c) => c.type), ['decline']);
});

t.test('an ACCEPT waits until the writes before it are durable; later calls wait behind it, in order', async (t) => {
  const store = new ManualDurability();
  const driver = new RecordingDriver();
  const gated = durableDriver(driver, store);
  store.write(); // the instances of the offer
  gated.accept('o1', [], 0);
  gated.kill('t-old', 'a1', 1000); // asked after the accept, with nothing new written
  store.write(); // the next input's write
  gated.revive(['*']);
  await settle();
  t.same(driver.calls, [], 'nothing reaches the cluster before the instances are durable');
  store.persist(1);
  await waitFor(() => driver.calls.length === 2, 'the accept and the kill');
  t.same(driver.calls.map((c) => c.type), ['accept', 'kill'], 'in order; the revive waits for the second write');
  store.persist(2);
  await waitFor(() => driver.calls.length === 3, 'the revive');
  t.same(driver.calls.map((c) => c.type), ['accept', 'kill', 'revive']);
  gated.suppress(['*']);
  t.equal(driver.calls.length, 4, 'all durable again: straight through');
});

t.test('updateFrameworkRoles is gated too, and absent when the driver has none', async (t) => {
  const store = new ManualDurability();
  const driver = new RecordingDriver();
  const gated = durableDriver(driver, store);
  store.write();
  gated.updateFrameworkRoles?.(['a', 'b']);
  await settle();
  t.same(driver.calls, []);
  store.persist();
  await waitFor(() => driver.calls.length === 1, 'the update');
  t.same(driver.calls, [{ type: 'updateFramework', roles: ['a', 'b'] }]);
  const none = (): void => undefined;
  const withoutRoles = { accept: none, decline: none, kill: none, acknowledge: none, reconcile: none, revive: none, suppress: none };
  t.equal(durableDriver(withoutRoles, store).updateFrameworkRoles, undefined);
});

t.test('when the store fails for good, nothing that waits for it reaches the cluster, then or later', async (t) => {
  const store = new ManualDurability();
  const driver = new RecordingDriver();
  const gated = durableDriver(driver, store);
  store.write();
  gated.accept('o1', [], 0);
  await settle();
  store.fail();
  await settle();
  gated.kill('t1', 'a1', 1000);
  await settle();
  await settle();
  t.same(driver.calls, [], 'the accept of instances that were never stored is never sent');
});
