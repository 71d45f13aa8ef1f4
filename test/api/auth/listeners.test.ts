import t, { type Test } from 'tap';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EventStreamHub } from '../../../src/api/events/event-stream-hub';
import { buildServer } from '../../../src/api/server';
import { ApiListeners } from '../../../src/runtime/api-listeners';
import { defaultConfig, type PacerConfig } from '../../../src/runtime/config';
import { withListenerFacts } from '../../../src/runtime/runtime-parts';
import { waitUntil } from '../events/wait-until';
import { makeApi, TEST_API_CONFIG } from '../api-fixture';
import { basic, openAuth, selfSignedCertificate, tempDir } from './auth-kit';
import { openStream, request } from './tls-client';

/**
 * The API on real sockets through the runtime's listeners (src/runtime/api-listeners.ts): HTTP,
 * HTTPS with a certificate made for the test, or both, over one fastify instance and one
 * event-stream hub, behind basic authentication.
 */
async function serve(tt: Test, overrides: Partial<PacerConfig>) {
  const config: PacerConfig = { ...defaultConfig(process.cwd()), address: '127.0.0.1', port: 0, httpsPort: 0, ...overrides };
  const listeners = new ApiListeners(config);
  const api = makeApi();
  const hub = new EventStreamHub({ subscribe: (listener) => api.harness.scheduler.subscribe(listener), clock: api.deps.clock });
  const auth = openAuth({ httpCredentials: 'admin:s3cret' });
  const deps = { ...api.deps, events: hub, config: withListenerFacts(TEST_API_CONFIG, listeners) };
  const app = buildServer({ deps, stream: hub, auth, serverFactory: listeners.serverFactory });
  const listening = await listeners.listen(app);
  tt.teardown(async () => {
    auth.close();
    await Promise.all([app.close(), listeners.close()]);
    await api.app.close();
  });
  const url = (scheme: 'http' | 'https') => {
    const found = listening.find((l) => l.scheme === scheme);
    if (found === undefined) throw new Error(`no ${scheme} listener`);
    return `${scheme}://${found.address}`;
  };
  return { listeners, listening, url, api };
}

/** One certificate for the file, made by openssl; the TLS tests skip, saying why, without it. */
const made = selfSignedCertificate(tempDir(t));
const skip = made === undefined ? 'openssl is not available to make a test certificate' : false;

function certificate(): NonNullable<typeof made> {
  if (made === undefined) throw new Error(String(skip));
  return made;
}

const ADMIN = { authorization: basic('admin', 's3cret') };

t.test('HTTP and HTTPS together: one route table, real ports in /v2/info, credentials on both', { skip }, async (tt) => {
  const cert = certificate();
  const { listening, url } = await serve(tt, { sslCert: cert.cert, sslKey: cert.key });
  tt.same(listening.map((l) => l.scheme), ['http', 'https']);
  const httpPort = Number(new URL(url('http')).port);
  const httpsPort = Number(new URL(url('https')).port);
  tt.not(httpPort, httpsPort);
  for (const base of [url('http'), url('https')]) {
    const info = await request(`${base}/v2/info`, { ca: cert.pem, headers: ADMIN });
    tt.equal(info.status, 200, base);
    const body = JSON.parse(info.body) as { http_config: unknown; leader: string };
    tt.same(body.http_config, { http_port: httpPort, https_port: httpsPort }, `${base}: the real ports`);
    tt.equal(body.leader, `127.0.0.1:${httpPort}`, 'the leader is the HTTP listener while HTTP is on (Marathon)');
    tt.equal(info.headers['x-marathon-leader'], `http://127.0.0.1:${httpPort}`);
    const denied = await request(`${base}/v2/apps`, { ca: cert.pem });
    tt.equal(denied.status, 401, `${base} without credentials`);
    tt.equal(denied.headers['www-authenticate'], 'Basic realm="Mesosphere"');
    tt.equal((await request(`${base}/ping`, { ca: cert.pem })).body, 'pong');
  }
  const created = await request(`${url('https')}/v2/apps`, {
    ca: cert.pem, method: 'POST', headers: { ...ADMIN, 'content-type': 'application/json' }, body: JSON.stringify({ id: '/web', cmd: 'sleep 100' }),
  });
  tt.equal(created.status, 201);
  tt.equal(created.headers.location, `https://${new URL(url('https')).host}/web`, 'Location keeps the scheme the client came in on');
  const listed = await request(`${url('http')}/v2/apps`, { headers: ADMIN });
  tt.match(JSON.parse(listed.body), { apps: [{ id: '/web' }] }, 'the two listeners serve the same state');
});

t.test('an HTTPS client that does not trust the certificate is refused by TLS itself', { skip }, async (tt) => {
  const cert = certificate();
  const { url } = await serve(tt, { sslCert: cert.cert, sslKey: cert.key });
  await tt.rejects(request(`${url('https')}/ping`), /self[- ]signed|unable to verify/i);
});

t.test('--disable_http: HTTPS only, the leader address says https and its port', { skip }, async (tt) => {
  const cert = certificate();
  const { listening, url } = await serve(tt, { sslCert: cert.cert, sslKey: cert.key, disableHttp: true, port: 8080 });
  tt.same(listening.map((l) => l.scheme), ['https']);
  const httpsPort = Number(new URL(url('https')).port);
  const info = await request(`${url('https')}/v2/info`, { ca: cert.pem, headers: ADMIN });
  const body = JSON.parse(info.body) as { http_config: unknown; leader: string };
  tt.same(body.http_config, { http_port: 8080, https_port: httpsPort }, 'the configured HTTP port, as Marathon reports it');
  tt.equal(body.leader, `127.0.0.1:${httpsPort}`);
  tt.equal(info.headers['x-marathon-leader'], `https://127.0.0.1:${httpsPort}`);
  const leader = await request(`${url('https')}/v2/leader`, { ca: cert.pem, headers: ADMIN });
  tt.same(JSON.parse(leader.body), { leader: `127.0.0.1:${httpsPort}` });
  // The event stream writes its own headers: it named the leader http:// here, unlike every other answer.
  const stream = await openStream(url('https'), { ca: cert.pem, headers: ADMIN });
  tt.teardown(() => stream.close());
  tt.equal(stream.status, 200);
  tt.equal(stream.headers['x-marathon-leader'], `https://127.0.0.1:${httpsPort}`, 'the event stream names the leader with https too');
});

t.test('HTTP only (no certificate): /v2/info keeps Marathon\'s https_port default', async (tt) => {
  const { listening, url } = await serve(tt, {});
  tt.same(listening.map((l) => l.scheme), ['http']);
  const info = JSON.parse((await request(`${url('http')}/v2/info`, { headers: ADMIN })).body) as { http_config: unknown };
  tt.same(info.http_config, { http_port: Number(new URL(url('http')).port), https_port: 0 }, 'the configured --https_port (0 here)');
});

t.test('the event stream over HTTPS: 401 without credentials, events with them', { skip }, async (tt) => {
  const cert = certificate();
  const { url } = await serve(tt, { sslCert: cert.cert, sslKey: cert.key });
  const streams = [];
  for (const base of [url('https'), url('http')]) {
    const denied = await openStream(base, { ca: cert.pem });
    tt.equal(denied.status, 401, `${base} without credentials`);
    denied.close();
    const wrong = await openStream(base, { ca: cert.pem, headers: { authorization: basic('admin', 'wrong') } });
    tt.equal(wrong.status, 401, `${base} with a wrong password`);
    wrong.close();
    const stream = await openStream(base, { ca: cert.pem, headers: ADMIN });
    tt.teardown(() => stream.close());
    streams.push(stream);
    tt.equal(stream.status, 200);
    tt.match(stream.headers['content-type'], /text\/event-stream/);
    await waitUntil(() => stream.text().includes('event_stream_attached'), 'the attach event', 60_000);
  }
  await request(`${url('https')}/v2/apps`, {
    ca: cert.pem, method: 'POST', headers: { ...ADMIN, 'content-type': 'application/json' }, body: JSON.stringify({ id: '/evt', cmd: 'sleep 1' }),
  });
  for (const stream of streams) await waitUntil(() => stream.text().includes('event: deployment_info'), 'the deployment on both streams (one hub)', 60_000);
  tt.pass('both listeners stream the same hub');
});

t.test('a certificate that cannot be read or does not fit its key stops start-up, naming the files', { skip }, async (tt) => {
  const dir = tempDir(tt);
  const base = { ...defaultConfig(dir), port: 0, httpsPort: 0 };
  tt.throws(() => new ApiListeners({ ...base, sslCert: join(dir, 'missing.pem'), sslKey: join(dir, 'missing-key.pem') }), /--ssl_cert .*missing\.pem cannot be read \(ENOENT\)/);
  const cert = certificate();
  const other = selfSignedCertificate(tempDir(tt));
  if (other === undefined) throw new Error('openssl failed the second time');
  tt.throws(() => new ApiListeners({ ...base, sslCert: cert.cert, sslKey: other.key }), /--ssl_cert .*cert\.pem \/ --ssl_key .*key\.pem cannot be used/);
  const garbage = join(dir, 'garbage.pem');
  writeFileSync(garbage, 'not a pem file\n');
  tt.throws(() => new ApiListeners({ ...base, sslCert: garbage, sslKey: cert.key }), /cannot be used/);
});

t.test('HTTP and HTTPS both keep an idle kept-alive connection 30 s, as Marathon\'s Jetty connectors do', { skip }, async (tt) => {
  const cert = certificate();
  const { url } = await serve(tt, { sslCert: cert.cert, sslKey: cert.key });
  for (const base of [url('http'), url('https')]) {
    const pong = await request(`${base}/ping`, { ca: cert.pem, headers: { connection: 'keep-alive' } });
    tt.equal(pong.headers['keep-alive'], 'timeout=30', base);
  }
});
