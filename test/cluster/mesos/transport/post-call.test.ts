import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { postCall, type CallRequest } from '../../../../src/cluster/mesos/transport/post-call';
import { within } from '../../../harness/wait';

/** A master on 127.0.0.1 that answers every call through `handle`. */
async function startMaster(t: Test, handle: (res: http.ServerResponse) => void): Promise<string> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => handle(res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function request(t: Test, baseUrl: string, more: Partial<CallRequest> = {}): CallRequest {
  const agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };
  t.teardown(() => {
    agents.http.destroy();
    agents.https.destroy();
  });
  return { baseUrl, body: new Uint8Array([1]), contentType: 'application/x-protobuf', streamId: 's', timeoutMs: 300, agents, ...more };
}

t.test('the call timeout bounds the whole call, not only a silence: a master that drips its answer is given up', async (t) => {
  const drips: NodeJS.Timeout[] = [];
  t.teardown(() => drips.forEach(clearInterval));
  const baseUrl = await startMaster(t, (res) => {
    res.writeHead(202, { 'Content-Type': 'text/plain' });
    drips.push(setInterval(() => res.write('.'), 50)); // never ends, never silent for the timeout
  });
  const answer = await within(postCall(request(t, baseUrl)), 'the dripping call to be given up');
  t.same(answer, { kind: 'failed', reason: 'no answer within 300 ms' });
});

t.test('a silent master is given up at the timeout; an answer before it is returned', async (t) => {
  const silent = await startMaster(t, () => undefined);
  t.same(await within(postCall(request(t, silent)), 'the silent call to be given up'), { kind: 'failed', reason: 'no answer within 300 ms' });
  const prompt = await startMaster(t, (res) => res.writeHead(202).end());
  t.same(await postCall(request(t, prompt, { timeoutMs: 60_000 })), { kind: 'answered', status: 202, body: '' });
});

t.test('an aborted call is given up at once, marked aborted', async (t) => {
  const silent = await startMaster(t, () => undefined);
  const controller = new AbortController();
  const pending = postCall(request(t, silent, { timeoutMs: 60_000, signal: controller.signal }));
  controller.abort();
  t.same(await within(pending, 'the aborted call'), { kind: 'failed', reason: 'given up: its subscription was lost', aborted: true });
  const before = new AbortController();
  before.abort();
  t.same(await within(postCall(request(t, silent, { timeoutMs: 60_000, signal: before.signal })), 'the call aborted before'), { kind: 'failed', reason: 'given up: its subscription was lost', aborted: true });
});

t.test('a huge answer body is read to its end but only its first characters are kept (bounded-text.ts)', async (t) => {
  const mib = Buffer.alloc(1 << 20, 'z');
  const baseUrl = await startMaster(t, (res) => {
    res.writeHead(400, { 'Content-Type': 'text/plain' });
    for (let i = 0; i < 32; i++) res.write(mib);
    res.end();
  });
  const answer = await within(postCall(request(t, baseUrl, { timeoutMs: 60_000 })), 'the call with a 32 MiB answer');
  t.same(answer, { kind: 'answered', status: 400, body: 'z'.repeat(2000) });
});
