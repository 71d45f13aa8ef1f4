import Fastify from 'fastify';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { leaderProxy } from '../../../src/ha/leader-proxy';
import { within } from '../../harness/wait';

// Found in an operator's trial (2026-12-03: three pacers on ZooKeeper, a create/scale/delete load
// through all of them, `DELETE /v2/leader` twenty times): 2 requests were answered 502 `Detected
// proxying loop.` A standby sent them to the leader that had just abdicated; that pacer, already
// knowing the new leader, forwarded them to it; the new leader, elected an instant before but whose
// watch had not fired yet, still took the old one for the leader and sent them back, where they
// were a loop. Once it went the other way: the new leader, not knowing it yet, sent a request to the
// old one, which sent it back, where it was a loop a millisecond before the election reached it. A
// pacer that gets a request from the very pacer it takes for the leader, or one that already passed
// through it, now reads the election again before it decides: it serves the request once it leads,
// sends it back when the read confirms the other (elected an instant ago, and not knowing it yet)
// leads, or answers the loop.

/**
 * A leadership view whose changes the test makes: `self` is this process, `leader` the leader it
 * knows; `reread` is what reading the election again finds (elected here, or nothing new).
 */
function views(self: string, leader: string, reread: 'elected' | 'unchanged') {
  const state = { leader, serving: false, rereads: 0 };
  let waiters: (() => void)[] = [];
  const view = {
    self,
    state,
    serving: () => state.serving,
    leader: () => (state.serving ? self : state.leader),
    nextChange: (timeoutMs: number) => new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      waiters.push(() => { clearTimeout(timer); resolve(); });
    }),
    refresh: async () => {
      state.rereads++;
      if (reread === 'elected') view.elected();
    },
    onChange: () => undefined,
    /** How many requests wait for a change now. */
    waiting: () => waiters.length,
    elected(): void {
      state.serving = true;
      const woken = waiters;
      waiters = [];
      for (const wake of woken) wake();
    },
  };
  return view;
}

/** An HTTP server standing in for the pacer this process takes for the leader: records what reaches it. */
async function otherPacer(t: Test): Promise<{ address: string; seen: string[] }> {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(`${req.method ?? ''} ${req.url ?? ''}`);
    res.writeHead(502, { 'Content-Type': 'application/json' }).end('{"message":"Detected proxying loop."}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }));
  return { address: `127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

async function pacer(t: Test, leadership: ReturnType<typeof views>): Promise<string> {
  const app = Fastify();
  await app.register(leaderProxy, { scheme: 'http', leadership });
  app.post('/v2/apps', async () => ({ servedBy: 'the new leader' }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  t.teardown(() => app.close());
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

const post = (url: string, via: string): Promise<Response> => fetch(`${url}/v2/apps`, {
  method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Marathon-Via': via }, body: '{"id":"/a","cmd":"sleep 1"}',
});

t.test('a request forwarded by the pacer this one takes for the leader: the election read again finds this one elected, and it serves the request', async (t) => {
  const old = await otherPacer(t);
  const leadership = views('127.0.0.1:1', old.address, 'elected');
  const url = await pacer(t, leadership);
  // A standby sent it to the old leader, which, having abdicated, sent it here.
  const res = await within(post(url, `1.1 127.0.0.1:3, 1.1 ${old.address}`), 'the answer');
  t.equal(res.status, 200, 'served by this pacer, which leads');
  t.same(await res.json(), { servedBy: 'the new leader' });
  t.equal(leadership.state.rereads, 1, 'the election read again once');
  t.same(old.seen, [], 'never sent back to the pacer that forwarded it');
});

t.test('a request forwarded by the pacer this one takes for the leader: the read confirms it leads, and it gets the request back at once', async (t) => {
  const leader = await otherPacer(t);
  const leadership = views('127.0.0.1:1', leader.address, 'unchanged');
  const url = await pacer(t, leadership);
  // The new leader, elected an instant ago, still took this (abdicated) pacer for the leader.
  const res = await within(post(url, `1.1 ${leader.address}`), 'the answer');
  t.equal(res.status, 502, 'the stand-in leader\'s answer');
  t.equal(leadership.state.rereads, 1, 'the election read again once');
  t.same(leader.seen, ['POST /v2/apps'], 'sent back once');
  t.equal(leadership.waiting(), 0, 'without waiting for a change');
});

t.test('a request forwarded by another standby goes to the leader at once, the election not read again', async (t) => {
  const leader = await otherPacer(t);
  const leadership = views('127.0.0.1:1', leader.address, 'elected');
  const url = await pacer(t, leadership);
  const res = await within(post(url, '1.1 127.0.0.1:3'), 'the answer');
  t.equal(res.status, 502, 'the stand-in leader\'s answer');
  t.same(leader.seen, ['POST /v2/apps'], 'forwarded to the leader');
  t.equal(leadership.state.rereads, 0, 'no read');
});

t.test('a request that already passed through this pacer: the election read again; a loop while another leads', async (t) => {
  const leader = await otherPacer(t);
  const leadership = views('127.0.0.1:1', leader.address, 'unchanged');
  const url = await pacer(t, leadership);
  const res = await within(post(url, `1.1 127.0.0.1:1, 1.1 ${leader.address}`), 'the answer');
  t.equal(res.status, 502);
  t.match(await res.json(), { message: 'Detected proxying loop.' });
  t.same(leader.seen, [], 'sent nowhere');
  t.equal(leadership.state.rereads, 1, 'the election read again once');
});

t.test('a request that already passed through this pacer, which the read finds elected: served here', async (t) => {
  // This pacer, not knowing yet that it had been elected, sent it to the one that had just
  // abdicated, which sent it back (found in the same trial).
  const old = await otherPacer(t);
  const leadership = views('127.0.0.1:1', old.address, 'elected');
  const url = await pacer(t, leadership);
  const res = await within(post(url, `1.1 127.0.0.1:1, 1.1 ${old.address}`), 'the answer');
  t.equal(res.status, 200, 'served by this pacer, which leads');
  t.same(old.seen, [], 'sent nowhere');
});
