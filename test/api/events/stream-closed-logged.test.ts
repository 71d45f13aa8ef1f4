import http from 'node:http';
import t from 'tap';
import { captureLog } from '../../harness/log-capture';
import { startSseServer } from './sse-server-fixture';
import { waitUntil } from './wait-until';

/**
 * An event stream the client leaves ends by a close, never a finish: before 2026-12-03 it wrote no
 * request record and the HTTP metrics' count of requests in flight (`marathon.http.requests.active`)
 * went up by one for each, for good (request-lifecycle.ts `watchClose`). Over real sockets on 127.0.0.1.
 */
t.test('a stream the client closes: one request record, and the requests in flight count it no more', async (t) => {
  const captured = captureLog('json', 'info');
  const server = await startSseServer({ log: captured.log });
  t.teardown(() => server.app.close());
  const streams = (): Record<string, unknown>[] => captured.records().filter((r) => r.path === '/v2/events');
  const clients = [0, 1, 2].map(() => http.get(`${server.baseUrl}/v2/events`, { headers: { accept: 'text/event-stream' } }, (res) => res.resume()));
  for (const c of clients) c.on('error', () => undefined);
  await waitUntil(() => server.hub.subscriberCount === 3, 'three subscribers attached');
  t.equal(streams().length, 0, 'no record while they stream');
  for (const c of clients) c.destroy();
  await waitUntil(() => streams().length === 3 && server.hub.subscriberCount === 0, 'three records, no subscriber left');
  for (const r of streams()) t.match(r, { method: 'GET', status: 200, ms: Number, client: '127.0.0.1', msg: /^GET \/v2\/events 200 [\d.]+ ms 127\.0\.0\.1$/ });
  const metrics = await server.app.inject({ method: 'GET', url: '/metrics' });
  const gauges = (metrics.json() as { gauges: Record<string, { value: number }> }).gauges;
  t.equal(gauges['marathon.http.requests.active.gauge'].value, 1, 'only the /metrics request itself');
  await new Promise((resolve) => setTimeout(resolve, 50));
  t.equal(streams().length, 3, 'each said once');
});
