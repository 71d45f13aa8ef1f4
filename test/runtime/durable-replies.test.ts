import Fastify from 'fastify';
import t from 'tap';
import { durableReplies } from '../../src/runtime/durable-replies';
import type { Durability } from '../../src/store/durable-driver';
import { waitFor } from '../harness/wait';

/** Writes made durable by hand. */
class ManualDurability implements Durability {
  writeSeq = 0;
  private durable = 0;
  private readonly waiters: { seq: number; resolve: () => void }[] = [];

  hasPendingWrites(): boolean {
    return this.durable < this.writeSeq;
  }

  whenDurable(seq = this.writeSeq): Promise<void> {
    return seq <= this.durable ? Promise.resolve() : new Promise((resolve) => this.waiters.push({ seq, resolve }));
  }

  get held(): number {
    return this.waiters.length;
  }

  persist(): void {
    this.durable = this.writeSeq;
    for (const w of this.waiters.splice(0)) w.resolve();
  }
}

t.test('a change is answered only once the store holds what it wrote; reads are not held', async (t) => {
  const store = new ManualDurability();
  const app = Fastify();
  app.post('/v2/apps', async () => {
    store.writeSeq++;
    return { id: '/a' };
  });
  app.get('/v2/apps', async () => ({ apps: [] }));
  durableReplies(app, store);
  t.teardown(() => app.close());
  let answered = false;
  const reply = app.inject({ method: 'POST', url: '/v2/apps', payload: {} }).then((r) => {
    answered = true;
    return r;
  });
  await waitFor(() => store.held === 1, 'the POST reply to wait for its write');
  t.equal((await app.inject({ method: 'GET', url: '/v2/apps' })).statusCode, 200, 'a read is answered while the write is pending');
  t.notOk(answered, 'the POST is held while its write is not durable');
  store.persist();
  t.equal((await reply).statusCode, 200);
  t.same((await reply).json(), { id: '/a' }, 'the body is unchanged');
});

t.test('with --zk the store is the current term\'s; writes that never become durable are answered 503, not with the change\'s success', async (t) => {
  const store = new ManualDurability();
  let current: Durability | undefined;
  const failing: Durability = {
    writeSeq: 1, hasPendingWrites: () => true, whenDurable: () => Promise.reject(new Error('session expired')),
  };
  const app = Fastify();
  app.post('/v2/apps', async () => {
    store.writeSeq++;
    return { id: '/a' };
  });
  durableReplies(app, () => current);
  t.teardown(() => app.close());
  t.equal((await app.inject({ method: 'POST', url: '/v2/apps', payload: {} })).statusCode, 200, 'no term (a standby forwards): nothing to wait for');
  current = store;
  const held = app.inject({ method: 'POST', url: '/v2/apps', payload: {} });
  await waitFor(() => store.held === 1, 'the reply to wait for the term\'s store');
  store.persist();
  t.equal((await held).statusCode, 200);
  current = failing;
  const refused = await app.inject({ method: 'POST', url: '/v2/apps', payload: {} });
  t.equal(refused.statusCode, 503);
  t.same(refused.json(), { message: 'Could not determine the current leader' });
});
