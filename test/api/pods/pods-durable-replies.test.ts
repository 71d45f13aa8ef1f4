import t from 'tap';
import { durableReplies } from '../../../src/runtime/durable-replies';
import type { Durability } from '../../../src/store/durable-driver';
import { minimalPodEcho, podApi, podBody, send } from './pod-api-builders';

/**
 * A store that writes behind, as the ZooKeeper store under `--zk` does: every change has a write
 * pending until a later turn, so the reply waits in `durableReplies`' onSend hook.
 */
function writingBehind(): Durability {
  return { writeSeq: 1, hasPendingWrites: () => true, whenDurable: () => new Promise((resolve) => setImmediate(resolve)) };
}

// An outside trial with two pacers on ZooKeeper: the first POST /v2/pods (and later a PUT) killed
// the leader with ERR_HTTP_HEADERS_SENT. The pod routes sent their reply and returned nothing; the
// what-if wrapper makes every write handler async, so fastify sent a second, empty reply while the
// first one waited for the store, and the first then wrote its headers again.
t.test('pod writes are answered once while the reply waits for the store (--zk)', async (t) => {
  const api = podApi(t);
  durableReplies(api.app, writingBehind());
  const created = await send(api.app, 'POST', '/v2/pods', podBody());
  t.equal(created.status, 201);
  t.strictSame(created.json, minimalPodEcho(), 'the pod, not an empty body');
  const replaced = await send(api.app, 'PUT', '/v2/pods/p?force=true', podBody({ labels: { a: 'b' } }));
  t.equal(replaced.status, 200);
  t.strictSame(replaced.json.labels, { a: 'b' });
  const deleted = await send(api.app, 'DELETE', '/v2/pods/p?force=true');
  t.equal(deleted.status, 202);
  // A crash of the second reply surfaces as a rejection on a later turn: give it the turns it needs.
  await new Promise((resolve) => setTimeout(resolve, 50));
});
