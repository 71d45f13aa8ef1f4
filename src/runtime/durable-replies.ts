import type { FastifyInstance } from 'fastify';
import type { Durability } from '../store/durable-driver';

/** Methods that only read: their replies need not wait for the store. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * With a store that writes behind (ZooKeeper), the reply to a change is sent only once every store
 * write made so far is durable: a client never holds a 201 for an app a failover or restart would
 * forget (the SQLite store's writes are durable when the command returns, so it needs no hook).
 * `store` may be a function: with `--zk` the store is the current leader term's (none on a standby,
 * whose replies come from the leader). When the writes can never become durable — the store
 * failed for good, or this pacer stopped leading before they were written — the change is answered
 * 503 `Could not determine the current leader` instead: it may or may not have been applied, and
 * the client retries on the new leader (Marathon's answer while leadership changes).
 */
export function durableReplies(app: FastifyInstance, store: Durability | (() => Durability | undefined)): void {
  const current = typeof store === 'function' ? store : (): Durability => store;
  // A callback hook, not an async one: a read (nearly every request) passes with one call, no
  // promise and no extra turn of the microtask queue.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (READS.has(request.method)) return done(null, payload);
    const durability = current();
    if (durability === undefined || !durability.hasPendingWrites()) return done(null, payload);
    durability.whenDurable(durability.writeSeq).then(() => done(null, payload), () => {
      void reply.code(503).header('content-type', 'application/json; charset=utf-8');
      reply.removeHeader('content-length');
      done(null, JSON.stringify({ message: 'Could not determine the current leader' }));
    });
  });
}
