import Fastify from 'fastify';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { AnswerWindow, ratePerSecond, runLoad } from '../../bench/lib/load-client';

// bench:api's rates: answers over the time from the first request sent to the last answer, not
// autocannon's `duration`, which a load of a fixed number of requests rounds up to its next
// 1-second tick (200 POSTs answered in well under a second were reported as 198 per second).

t.test('the window runs from the first request sent to the last answer received', async (t) => {
  const w = new AnswerWindow();
  t.equal(w.seconds(), 0, 'no answer, no time');
  t.equal(ratePerSecond(0, w.seconds()), 0);
  w.answered(1000, 5); // sent at 995
  w.answered(1100, 150); // sent at 950: the first sent, answered second
  w.answered(1200, 3);
  t.equal(w.seconds(), 0.25, 'from 950 to 1200 ms');
  t.equal(ratePerSecond(200, w.seconds()), 800);
});

t.test('a fixed-count load of 200 quick requests is rated over its own time, not a 1-second tick', async (t) => {
  const server = Fastify({ logger: false });
  server.get('/ping', async (_req, reply) => reply.type('text/plain').send('pong'));
  await server.listen({ host: '127.0.0.1', port: 0 });
  t.teardown(() => server.close());
  const url = `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  await runLoad({ url, connections: 2, amount: 200, kind: { type: 'get', path: '/ping' } }); // warm-up: both sides' code compiled
  const r = await runLoad({ url, connections: 2, amount: 200, kind: { type: 'get', path: '/ping' } });
  t.equal(r.ok2xx, 200, 'every request answered 2xx');
  // autocannon's own duration for this load is a whole tick, at least 1 s; the load itself takes a
  // small part of that (85 ms on a loaded 2-core machine), so a time under a second is its own.
  t.ok(r.durationS > 0 && r.durationS < 1, `the load's own time, not a whole tick (${r.durationS} s)`);
  t.ok(Math.abs(r.reqPerSec - ratePerSecond(200, r.durationS)) <= 1, 'the rate is the answers over that time (durationS is rounded to the µs)');
  t.ok(r.reqPerSec > 200, `above the 200 per second a one-second tick allows (${r.reqPerSec})`);
});
