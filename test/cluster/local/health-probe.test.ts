import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { runProbe } from '../../../src/cluster/local/health-probe';
import type { HealthCheckProtocol } from '../../../src/scheduler/model/health-check';
import { makeHealthCheck } from '../../builders/run-spec-builders';

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
