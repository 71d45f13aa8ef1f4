import t from 'tap';
import Fastify from 'fastify';
import type { ApiDeps } from '../../../src/api/api-deps';
import { installWhatIf } from '../../../src/api/whatif/install-what-if';
import { durableReplies } from '../../../src/runtime/durable-replies';
import type { Durability } from '../../../src/store/durable-driver';

/**
 * The what-if wrapper (src/api/whatif/install-what-if.ts) runs every app, pod and group write
 * handler inside an async function. A handler that sends its reply and returns nothing must keep
 * meaning "sent" there: while the reply waited for a store that writes behind (`--zk`), the
 * resolved undefined made fastify send a second, empty reply, and the first one then crashed the
 * process (ERR_HTTP_HEADERS_SENT; the pod routes did this until an outside trial found it).
 */

/** A store that writes behind: every reply to a change waits a turn in durableReplies' onSend hook. */
function writingBehind(): Durability {
  return { writeSeq: 1, hasPendingWrites: () => true, whenDurable: () => new Promise((resolve) => setImmediate(resolve)) };
}

const cases = [
  { method: 'POST' as const, url: '/v2/apps', route: '/v2/apps', code: 201 },
  { method: 'PUT' as const, url: '/v2/groups/g', route: '/v2/groups/*', code: 200 },
  { method: 'DELETE' as const, url: '/v2/pods/p', route: '/v2/pods/*', code: 202 },
];

for (const c of cases) {
  t.test(`${c.method} ${c.route}: a handler that sends and returns nothing is answered once`, async (t) => {
    const app = Fastify();
    t.teardown(() => app.close());
    durableReplies(app, writingBehind());
    installWhatIf(app, {} as ApiDeps);
    const errors: string[] = [];
    app.setErrorHandler((err: Error, _request, reply) => {
      errors.push(err.message);
      void reply.code(500).send({ message: err.message });
    });
    app.route({ method: c.method, url: c.route, handler: (_request, reply) => void reply.code(c.code).send({ answered: c.url }) });
    const res = await app.inject({ method: c.method, url: c.url, payload: c.method === 'DELETE' ? undefined : {} });
    t.equal(res.statusCode, c.code);
    t.same(res.json(), { answered: c.url }, 'the handler\'s own body, not an empty one');
    // A second reply would fail on a later turn: give it the turns it needs.
    await new Promise((resolve) => setTimeout(resolve, 50));
    t.same(errors, [], 'no second reply');
  });
}
