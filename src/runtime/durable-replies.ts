import type { FastifyInstance } from 'fastify';
import type { Durability } from '../store/durable-driver';

/** Methods that only read: their replies need not wait for the store. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * With a store that writes behind (ZooKeeper), the reply to a change is sent only once every store
 * write made so far is durable: a client never holds a 201 for an app a restart would forget
 * (the SQLite store's writes are durable when the command returns, so it needs no hook).
 */
export function durableReplies(app: FastifyInstance, store: Durability): void {
  app.addHook('onSend', async (request, _reply, payload) => {
    if (!READS.has(request.method)) await store.whenDurable(store.writeSeq);
    return payload;
  });
}
