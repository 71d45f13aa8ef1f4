import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { runProbe } from '../../../src/cluster/local/health-probe';
import type { HealthCheckProtocol } from '../../../src/scheduler/model/health-check';
import { makeHealthCheck } from '../../builders/run-spec-builders';
import { waitFor } from '../../harness/wait';

/** A TCP server on 127.0.0.1 that closes every connection at once (no HTTP answer). */
async function tcpOnly(t: Test): Promise<number> {
  const server: Server = createServer((c) => c.end());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.close();
  });
  return (server.address() as AddressInfo).port;
}

t.test('a TCP check passes on a bare TCP server; a state file\'s legacy AGENT_TCP still probes TCP', async (t) => {
  const port = await tcpOnly(t);
  const ctx = { env: {}, cwd: process.cwd() };
  for (const protocol of ['MESOS_TCP', 'AGENT_TCP'] as HealthCheckProtocol[]) {
    const check = makeHealthCheck({ protocol, timeoutMs: 5000 });
    t.equal(await runProbe({ check, port }, ctx, new AbortController().signal), true, protocol);
  }
  const http = makeHealthCheck({ protocol: 'MESOS_HTTP', timeoutMs: 5000 });
  t.equal(await runProbe({ check: http, port }, ctx, new AbortController().signal), false, 'an HTTP check gets no answer there');
});

t.test('an HTTP check of an answer that never ends passes on its status and leaves no connection open', async (t) => {
  // The checked path streams for ever (an event stream, say): each check must close its connection.
  const open = new Set<Socket>();
  const server = createHttpServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(': hello\n\n');
    const tick = setInterval(() => res.write(': tick\n\n'), 20);
    req.socket.once('close', () => clearInterval(tick));
  });
  server.on('connection', (socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  const port = (server.address() as AddressInfo).port;
  const check = makeHealthCheck({ protocol: 'MESOS_HTTP', timeoutMs: 5000 });
  for (let i = 0; i < 5; i++) t.equal(await runProbe({ check, port }, { env: {}, cwd: process.cwd() }, new AbortController().signal), true, `check ${i + 1} passed`);
  await waitFor(() => open.size === 0, 'every check\'s connection closed');
  t.equal(open.size, 0);
});
