import http from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import type { Test } from 'tap';
import { TcpProxy } from '../harness/tcp-proxy';
import { patientSignal, sleep, waitFor, within } from '../harness/wait';
import { agreedLeader, call, haPacer, type HaPacer } from './ha-pacer-kit';
import { adminSession, scratchPath, SKIP_WITHOUT_ZK as skip, ZK } from './zk-scratch';

/**
 * Several pacers on one real ZooKeeper (`--zk`), each an in-process composition (src/ha/start-ha.ts)
 * over real HTTP on 127.0.0.1 with its own embedded store: who schedules, what standbys answer
 * and forward (Marathon's `LeaderProxyFilter.scala` and `forwarder/*RequestForwarder.scala`
 * behaviour), abdication, and a leader that loses ZooKeeper.
 */

const JSON_HEADERS = { 'Content-Type': 'application/json' };

t.test('three pacers: one schedules; standbys answer /ping, forward the rest with X-Marathon-Via, and pass on DELETE /v2/leader', { skip }, async (t) => {
  const admin = await adminSession(t);
  const root = await scratchPath(t, admin);
  const pacers = [await haPacer(t, root), await haPacer(t, root), await haPacer(t, root)];
  const leader = await agreedLeader(pacers);
  const standbys = pacers.filter((p) => p !== leader);
  t.equal(leader, pacers[0], 'the first to join leads');
  t.same(pacers.map((p) => p.record.starts.length), [1, 0, 0], 'only the leader started the scheduler');

  for (const p of pacers) {
    const answer = await call(`${p.url}/v2/leader`);
    t.equal(answer.status, 200);
    t.same(JSON.parse(answer.text), { leader: leader.running.address }, 'every pacer names the leader');
    t.equal(answer.headers.get('x-marathon-leader'), `http://${leader.running.address}`);
    t.equal(answer.headers.get('x-marathon-via'), p === leader ? null : `1.1 ${p.running.address}`, 'standbys forward it');
  }
  const standby = standbys[0] as HaPacer;
  const ping = await call(`${standby.url}/ping`);
  t.equal(ping.text, 'pong');
  t.equal(ping.headers.get('x-marathon-via'), null, 'a standby answers /ping itself');
  t.equal(ping.headers.get('x-marathon-leader'), `http://${leader.running.address}`, 'and names the leader');

  const created = await call(`${standby.url}/v2/apps`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ id: '/via-standby', cmd: 'sleep 100', cpus: 0.1, mem: 16 }) });
  t.equal(created.status, 201, 'a write through a standby reaches the leader');
  t.equal(created.headers.get('x-marathon-via'), `1.1 ${standby.running.address}`);
  t.ok(created.headers.get('marathon-deployment-id'), 'with the leader\'s headers');
  t.ok(leader.running.leadership.current()?.scheduler.runSpec('/via-standby'), 'the leader\'s scheduler has the app');
  const read = await call(`${(standbys[1] as HaPacer).url}/v2/apps/via-standby`);
  t.equal(read.status, 200, 'the other standby reads it from the leader');
  const missing = await call(`${standby.url}/v2/nope`);
  t.equal(missing.status, 404, 'even unknown routes are the leader\'s to answer');
  t.equal(missing.headers.get('x-marathon-via'), `1.1 ${standby.running.address}`);

  const abdicated = await call(`${standby.url}/v2/leader`, { method: 'DELETE' });
  t.equal(abdicated.status, 200);
  t.same(JSON.parse(abdicated.text), { message: 'Leadership abdicated' });
  const next = await agreedLeader(pacers, 'a new leader after the abdication');
  t.not(next, leader, 'another pacer leads');
  t.equal(leader.record.stops.length, 1, 'the old leader stopped its scheduler');
  t.ok(leader.record.stops[0] !== undefined && leader.record.stops[0] <= (next.record.starts[0] ?? 0), 'before the new one started');
  t.equal(next.record.starts.length, 1, 'the new leader started its scheduler from its store');
  t.equal(leader.running.leadership.serving(), false, 'the old leader is a standby now, its process alive');
  const forwarded = await call(`${leader.url}/v2/leader`);
  t.same(JSON.parse(forwarded.text), { leader: next.running.address });
  t.equal(forwarded.headers.get('x-marathon-via'), `1.1 ${leader.running.address}`, 'and forwards like one');
});

/** An HTTP server standing in for the leader: records what reaches it; `bounce` sends requests back to `bounceTo`. */
async function fakeLeader(t: Test): Promise<{ address: string; seen: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[]; bounceTo?: string; server: http.Server }> {
  const state: { address: string; seen: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[]; bounceTo?: string; server: http.Server } = { address: '', seen: [], server: http.createServer() };
  state.server.on('request', (req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => { body += chunk; }).on('end', () => {
      state.seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      if (state.bounceTo !== undefined) {
        // A leader that believes the standby leads: it forwards the request back, headers and all.
        const headers = { ...req.headers, 'x-marathon-via': `${String(req.headers['x-marathon-via'])}, 1.1 ${state.address}` };
        void fetch(`http://${state.bounceTo}${req.url ?? ''}`, { method: req.method ?? 'GET', headers: headers as unknown as Record<string, string>, signal: patientSignal() })
          .then(async (back) => res.writeHead(back.status, { 'content-type': 'application/json' }).end(await back.text()));
        return;
      }
      res.writeHead(207, { 'content-type': 'application/json', 'x-from': 'fake-leader' }).end(JSON.stringify({ echoed: body }));
    });
  });
  await new Promise<void>((resolve) => state.server.listen(0, '127.0.0.1', resolve));
  state.address = `127.0.0.1:${(state.server.address() as AddressInfo).port}`;
  t.teardown(() => new Promise<void>((resolve) => { state.server.closeAllConnections(); state.server.close(() => resolve()); }));
  return state;
}

/** Holds the lowest election znode with `data` (a leader elected before any pacer joined). */
async function holdLeadership(admin: Awaited<ReturnType<typeof adminSession>>, root: string, data: string): Promise<string> {
  await admin.create(`${root}/leader`, Buffer.alloc(0)).catch(() => undefined);
  return admin.create(`${root}/leader/latch-`, Buffer.from(data), 'ephemeralSequential');
}

t.test('a forwarded request: method, path, query, body and headers untouched, plus Marathon\'s Via and X-Forwarded-For; the answer comes back whole', { skip }, async (t) => {
  const admin = await adminSession(t);
  const root = await scratchPath(t, admin);
  const leader = await fakeLeader(t);
  await holdLeadership(admin, root, leader.address);
  const standby = await haPacer(t, root);
  await waitFor(() => standby.running.leadership.leader() === leader.address, 'the standby to know the leader');
  const body = '{"id":"/x", "cmd":"sleep 1"}';
  const answer = await call(`${standby.url}/v2/apps?force=true&embed=a&embed=b`, {
    method: 'PUT', headers: { ...JSON_HEADERS, Authorization: 'Basic dTpw', 'X-Forwarded-For': '10.1.1.1' }, body,
  });
  t.equal(answer.status, 207, 'the leader\'s status');
  t.same(JSON.parse(answer.text), { echoed: body }, 'the leader\'s body');
  t.equal(answer.headers.get('x-from'), 'fake-leader', 'the leader\'s headers');
  t.equal(answer.headers.get('x-marathon-via'), `1.1 ${standby.running.address}`);
  t.equal(answer.headers.get('x-marathon-leader'), `http://${leader.address}`, 'X-Marathon-Leader names the leader');
  const seen = leader.seen[0];
  t.match(seen, { method: 'PUT', url: '/v2/apps?force=true&embed=a&embed=b', body }, 'method, path, query and body as sent');
  t.match(seen?.headers, { authorization: 'Basic dTpw', 'content-type': 'application/json', 'x-marathon-via': `1.1 ${standby.running.address}`, 'x-forwarded-for': '10.1.1.1,127.0.0.1' });

  const looped = await call(`${standby.url}/v2/apps`, { headers: { 'X-Marathon-Via': `1.1 elsewhere:1, 1.1 ${standby.running.address}` } });
  t.equal(looped.status, 502, 'a request that already passed through this pacer is not forwarded again');
  t.same(JSON.parse(looped.text), { message: 'Detected proxying loop.' });
  t.equal(leader.seen.length, 1, 'it never reached the leader');

  leader.bounceTo = standby.running.address;
  const roundTrip = await call(`${standby.url}/v2/groups`);
  t.equal(roundTrip.status, 502, 'a request sent back here by a confused leader stops at once');
  t.same(JSON.parse(roundTrip.text), { message: 'Detected proxying loop.' });
  t.equal(leader.seen.length, 2, 'after one round');

  await new Promise<void>((resolve) => { leader.server.closeAllConnections(); leader.server.close(() => resolve()); });
  const refused = await call(`${standby.url}/v2/apps`);
  t.equal(refused.status, 502, 'a leader that cannot be reached');
  t.same(JSON.parse(refused.text), { message: 'Connection to leader refused.' });
});

t.test('no leader known: 503 after a bounded wait, GET /v2/leader 404, /ping still pong; once elected it serves itself', { skip }, async (t) => {
  const admin = await adminSession(t);
  const root = await scratchPath(t, admin);
  const port = await freePort();
  // The lowest znode names this pacer's own address: a stale one of an earlier run whose session has not expired.
  const stale = await holdLeadership(admin, root, `127.0.0.1:${port}`);
  const pacer = await haPacer(t, root, { port, noLeaderWaitMs: 300 });
  await waitFor(() => pacer.running.leadership.leader() === pacer.running.address, 'the stale znode to be seen');
  const apps = await call(`${pacer.url}/v2/apps`);
  t.equal(apps.status, 503);
  t.same(JSON.parse(apps.text), { message: 'Could not determine the current leader' });
  t.equal(apps.headers.get('x-marathon-leader'), null, 'no leader to name');
  const leaderAnswer = await call(`${pacer.url}/v2/leader`);
  t.equal(leaderAnswer.status, 404);
  t.same(JSON.parse(leaderAnswer.text), { message: 'There is no leader', details: [] });
  t.equal((await call(`${pacer.url}/ping`)).text, 'pong');
  t.equal(pacer.record.starts.length, 0, 'no scheduler without leadership');

  await admin.delete(stale);
  await agreedLeader([pacer], 'the pacer to lead once the stale znode is gone');
  const served = await call(`${pacer.url}/v2/apps`);
  t.equal(served.status, 200);
  t.equal(served.headers.get('x-marathon-via'), null, 'served by itself');
});

t.test('a leader that loses its ZooKeeper connection stops scheduling at once: no launch, no call to the cluster after it', { skip }, async (t) => {
  const admin = await adminSession(t);
  const root = await scratchPath(t, admin);
  const proxy = await TcpProxy.start(ZK);
  t.teardown(() => proxy.close());
  const first = await haPacer(t, root, { zk: proxy.address });
  const second = await haPacer(t, root);
  t.equal(await agreedLeader([first, second]), first);
  const created = await call(`${second.url}/v2/apps`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ id: '/many', cmd: 'sleep 100', cpus: 0.01, mem: 1, instances: 5000 }) });
  t.equal(created.status, 201);
  await waitFor(() => first.record.calls.filter((c) => c.call.type === 'accept').length >= 3, 'the leader to be launching');

  const cutAtMs = Date.now();
  proxy.cut();
  const stoppedAtMs = await waitFor(() => first.record.stops[0], 'the leader to stop its scheduler');
  t.ok(stoppedAtMs - cutAtMs < 4_000 * (2 / 3), `stopped ${stoppedAtMs - cutAtMs} ms after the cut, as soon as the session said so`);
  await waitFor(() => first.record.offersAfterStop >= 5, 'the cluster to go on offering after the stop');
  const late = first.record.calls.filter((c) => c.atMs > stoppedAtMs);
  t.same(late.map((c) => c.call.type), [], 'no launch, kill or any other call to the cluster after the stop');
  t.ok(first.record.calls.some((c) => c.call.type === 'accept'), 'it had launched before');

  const next = await agreedLeader([second], 'the other pacer to lead');
  t.ok((next.record.starts[0] ?? 0) >= stoppedAtMs, 'the new leader started after the old one stopped');
  await sleep(200);
  t.same(first.record.calls.filter((c) => c.atMs > stoppedAtMs).map((c) => c.call.type), [], 'and still none');
  const cutOff = await call(`${first.url}/v2/apps`);
  t.equal(cutOff.status, 503, 'cut off, it serves nothing itself: it knows no leader but its stale self');

  proxy.heal();
  await agreedLeader([first, second], 'both to agree again after healing');
  t.equal(first.record.starts.length, 1, 'the cut-off pacer did not lead again');
  const healed = await call(`${first.url}/v2/apps`);
  t.equal(healed.headers.get('x-marathon-via'), `1.1 ${first.running.address}`, 'healed, it forwards to the new leader');
});

t.test('/v2/events on a standby streams the leader\'s events; the stream ends when the leader abdicates', { skip }, async (t) => {
  const admin = await adminSession(t);
  const root = await scratchPath(t, admin);
  const pacers = [await haPacer(t, root), await haPacer(t, root)];
  const leader = await agreedLeader(pacers);
  const standby = pacers.find((p) => p !== leader) as HaPacer;
  const controller = new AbortController();
  t.teardown(() => controller.abort());
  const res = await fetch(`${standby.url}/v2/events?event_type=group_change_success&event_type=event_stream_attached`, { headers: { Accept: 'text/event-stream' }, signal: controller.signal });
  t.equal(res.status, 200);
  t.equal(res.headers.get('content-type'), 'text/event-stream;charset=UTF-8');
  t.equal(res.headers.get('x-marathon-via'), `1.1 ${standby.running.address}`);
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  let text = '';
  let ended = false;
  const reading = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += Buffer.from(value).toString('utf8');
    }
    ended = true;
  })().catch(() => { ended = true; });
  await waitFor(() => text.includes('event_stream_attached'), 'the leader\'s attach event through the standby');
  await call(`${standby.url}/v2/apps`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ id: '/evented', cmd: 'sleep 100', cpus: 0.1, mem: 16 }) });
  await waitFor(() => text.includes('group_change_success'), 'the leader\'s group_change_success through the standby');
  t.equal(leader.running.events.subscriberCount, 1, 'the leader holds the stream');

  t.equal((await call(`${leader.url}/v2/leader`, { method: 'DELETE' })).status, 200);
  await within(reading, 'the proxied stream to end');
  t.ok(ended, 'the stream ended with the term, so the client reconnects to the new leader');
  await agreedLeader(pacers, 'the standby to lead');
});

async function freePort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
