import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { HttpProber } from '../../src/runtime/http-prober';
import type { ProbeObservation, ProbeRequest } from '../../src/scheduler/ports/prober';
import { PATIENCE_MS, waitFor } from '../harness/wait';

const HOST = '127.0.0.1';
/** Every probe in this file must be answered within this (longer than any probe's own timeout). */
const ANSWER_WITHIN_MS = 2 * PATIENCE_MS;
/** How long `/trickle` keeps sending: far longer than its probe's timeout. */
const TRICKLE_MS = 10_000;

/** A probe request on 127.0.0.1 with the fields not under test filled in. */
function request(fields: Partial<ProbeRequest> & Pick<ProbeRequest, 'port'>): ProbeRequest {
  return {
    probeId: 7, instanceId: 'web.instance-1', taskId: 'web.instance-1._app.1', checkIndex: 0,
    protocol: 'HTTP', host: HOST, path: '/', timeoutMs: PATIENCE_MS, ...fields,
  };
}

/**
 * Runs one probe and resolves with every observation posted until `settleMs` after the first
 * (so that a second, wrong, observation would be seen). Rejects if none arrives in time.
 */
function probeOnce(req: ProbeRequest, settleMs = 50): Promise<ProbeObservation[]> {
  return new Promise((resolve, reject) => {
    const seen: ProbeObservation[] = [];
    const giveUp = setTimeout(() => reject(new Error(`no observation within ${ANSWER_WITHIN_MS} ms`)), ANSWER_WITHIN_MS);
    new HttpProber((obs) => {
      seen.push(obs);
      if (seen.length > 1) return;
      clearTimeout(giveUp);
      setTimeout(() => resolve(seen), settleMs);
    }).probe(req);
  });
}

/** What the test HTTP server saw. */
interface Seen {
  readonly paths: string[];
  readonly userAgents: string[];
}

/** The routes of the test HTTP server. `/hang` never answers. */
function route(req: IncomingMessage, res: ServerResponse): void {
  switch (req.url) {
    case '/':
    case '/health':
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
      return;
    case '/ready':
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' }).end('{"ready":true}');
      return;
    case '/unavailable':
      res.writeHead(503, { 'Content-Type': 'text/plain' }).end('not yet');
      return;
    case '/redirect':
      res.writeHead(302, { Location: '/health' }).end();
      return;
    case '/big':
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end('x'.repeat(40 * 1024));
      return;
    case '/trickle': {
      // Headers, then a byte every 50 ms for TRICKLE_MS: never idle long enough for a socket timeout.
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      const timer = setInterval(() => res.write('.'), 50);
      const stop = setTimeout(() => { clearInterval(timer); res.end(); }, TRICKLE_MS);
      res.on('close', () => { clearInterval(timer); clearTimeout(stop); });
      return;
    }
    case '/no-type':
      res.writeHead(200).end('plain');
      return;
    case '/hang':
      return;
    case '/stall-body':
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.write('partial');
      return;
    default:
      res.writeHead(404).end();
  }
}

/** Listens on 127.0.0.1, a free port; closed (with every open connection) after the test. */
async function listen(t: Test, server: Server | ReturnType<typeof createTcpServer>): Promise<number> {
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, HOST, resolve));
  t.teardown(() => new Promise<void>((resolve) => {
    for (const s of sockets) s.destroy();
    server.close(() => resolve());
  }));
  return (server.address() as AddressInfo).port;
}

async function httpServer(t: Test): Promise<{ port: number; seen: Seen }> {
  const seen: Seen = { paths: [], userAgents: [] };
  const server = createServer((req, res) => {
    seen.paths.push(req.url ?? '');
    seen.userAgents.push(req.headers['user-agent'] ?? '');
    route(req, res);
  });
  return { port: await listen(t, server), seen };
}

/** A port on 127.0.0.1 that nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, HOST, resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

t.test('HTTP health probes report the status code, and nothing of the body', async (t) => {
  const { port, seen } = await httpServer(t);
  const rows: readonly { path: string; status: number }[] = [
    { path: '/health', status: 200 },
    { path: '/unavailable', status: 503 },
    { path: '/redirect', status: 302 },
    { path: '/missing', status: 404 },
  ];
  for (const row of rows) {
    const obs = await probeOnce(request({ port, path: row.path, probeId: row.status }));
    t.same(obs, [{ probeId: row.status, httpStatus: row.status }], `${row.path}: exactly one observation, the status only (the core judges it)`);
  }
  t.same(seen.paths, rows.map((r) => r.path), 'one GET per probe, redirects not followed');
  t.ok(seen.userAgents.every((ua) => ua === 'pacer-health-check'), 'sent with pacer\'s user agent');
});

t.test('an empty path asks for /', async (t) => {
  const { port, seen } = await httpServer(t);
  t.same(await probeOnce(request({ port, path: '' })), [{ probeId: 7, httpStatus: 200 }]);
  t.same(seen.paths, ['/']);
});

t.test('purpose health (explicit) keeps no body either', async (t) => {
  const { port } = await httpServer(t);
  t.same(await probeOnce(request({ port, path: '/ready', purpose: 'health' })), [{ probeId: 7, httpStatus: 200 }]);
});

t.test('readiness probes keep the content type and body', async (t) => {
  const { port } = await httpServer(t);
  const rows: readonly { path: string; expect: ProbeObservation }[] = [
    { path: '/ready', expect: { probeId: 7, httpStatus: 200, contentType: 'application/json; charset=utf-8', body: '{"ready":true}' } },
    { path: '/unavailable', expect: { probeId: 7, httpStatus: 503, contentType: 'text/plain', body: 'not yet' } },
    { path: '/no-type', expect: { probeId: 7, httpStatus: 200, contentType: '', body: 'plain' } },
  ];
  for (const row of rows) {
    t.same(await probeOnce(request({ port, path: row.path, purpose: 'readiness' })), [row.expect], row.path);
  }
});

t.test('a readiness body is cut at 16 KiB', async (t) => {
  const { port } = await httpServer(t);
  const [obs] = await probeOnce(request({ port, path: '/big', purpose: 'readiness' }));
  t.equal(obs.httpStatus, 200);
  t.equal(obs.body, 'x'.repeat(16 * 1024));
});

t.test('HTTP: a refused connection is reported as not connected, with the reason', async (t) => {
  const port = await closedPort();
  const obs = await probeOnce(request({ port }));
  t.equal(obs.length, 1, 'one observation');
  t.match(obs[0], { probeId: 7, connected: false, message: /ECONNREFUSED/ });
  t.equal(obs[0].httpStatus, undefined);
});

t.test('HTTP: no answer within timeoutMs is a timeout, reported once and promptly', async (t) => {
  const { port, seen } = await httpServer(t);
  const started = Date.now();
  const obs = await probeOnce(request({ port, path: '/hang', timeoutMs: 150 }), 200);
  const tookMs = Date.now() - started;
  t.same(obs, [{ probeId: 7, timedOut: true, message: 'no answer within 150 ms' }], 'one observation, not a second one for the destroyed request');
  t.ok(tookMs >= 140 && tookMs < PATIENCE_MS, `reported after the timeout, not held up by the silent server (${tookMs} ms)`);
  t.same(seen.paths, ['/hang']);
});

// Marathon's HealthCheckWorker judges a health check by the response's status and discards its
// entity; a readiness check reads the body (its lastResponse), so timeoutMs bounds the whole answer.
t.test('HTTP health: judged on the status line, the body not waited for (one that stalls or streams)', async (t) => {
  const { port } = await httpServer(t);
  for (const path of ['/stall-body', '/trickle']) {
    const started = Date.now();
    const obs = await probeOnce(request({ port, path, timeoutMs: PATIENCE_MS, purpose: 'health' }), 200);
    const tookMs = Date.now() - started;
    t.same(obs, [{ probeId: 7, httpStatus: 200 }], `${path}: the status, once`);
    t.ok(tookMs < PATIENCE_MS, `${path}: reported without waiting for the body's end or the timeout (${tookMs} ms)`);
  }
});

t.test('HTTP readiness: headers sent but the body stalls past timeoutMs is a timeout, not a hang', async (t) => {
  const { port } = await httpServer(t);
  const obs = await probeOnce(request({ port, path: '/stall-body', timeoutMs: 150, purpose: 'readiness' }), 200);
  t.same(obs, [{ probeId: 7, timedOut: true, message: 'no answer within 150 ms' }]);
});

// For a readiness check timeoutMs is a deadline for the whole answer (Marathon's timeoutSeconds),
// not a socket idle timeout: an answer that keeps trickling bytes past it is reported as timed out.
t.test('HTTP readiness: an answer still trickling in at timeoutMs is a timeout (a deadline, not an idle timeout)', async (t) => {
  const { port } = await httpServer(t);
  const started = Date.now();
  const [obs] = await probeOnce(request({ port, path: '/trickle', timeoutMs: 200, purpose: 'readiness' }));
  const tookMs = Date.now() - started;
  t.ok(tookMs < TRICKLE_MS / 2, `reported at its deadline, long before the answer ends (took ${tookMs} ms)`);
  t.same(obs, { probeId: 7, timedOut: true, message: 'no answer within 200 ms' }, 'as a timeout');
});

t.test('TCP: a connection is connected; the probe closes it', async (t) => {
  let closed = 0;
  const server = createTcpServer((socket) => socket.on('close', () => closed++));
  const port = await listen(t, server);
  t.same(await probeOnce(request({ port, protocol: 'TCP', probeId: 3 }), 100), [{ probeId: 3, connected: true }]);
  await waitFor(() => closed > 0, 'the probe to close its connection');
  t.equal(closed, 1, 'the probe did not leave its connection open');
});

t.test('TCP: a refused connection is not connected, with the reason', async (t) => {
  const port = await closedPort();
  const obs = await probeOnce(request({ port, protocol: 'TCP' }));
  t.equal(obs.length, 1);
  t.match(obs[0], { probeId: 7, connected: false, message: /ECONNREFUSED/ });
});

t.test('TCP: path and purpose are irrelevant; a readiness TCP probe carries no body', async (t) => {
  const port = await listen(t, createTcpServer(() => undefined));
  t.same(await probeOnce(request({ port, protocol: 'TCP', path: '/x', purpose: 'readiness' })), [{ probeId: 7, connected: true }]);
});

t.test('HTTP against a TCP server that closes at once: not connected', async (t) => {
  const port = await listen(t, createTcpServer((s) => s.destroy()));
  const obs = await probeOnce(request({ port }));
  t.equal(obs.length, 1);
  t.match(obs[0], { probeId: 7, connected: false, message: /socket hang up|ECONNRESET/ });
});

/** A self-signed certificate made with openssl, or undefined when openssl is not there. */
function selfSigned(t: Test): { key: Buffer; cert: Buffer } | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'pacer-prober-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
      '-days', '1', '-subj', '/CN=pacer-test'], { stdio: 'ignore', timeout: PATIENCE_MS });
  } catch {
    return undefined;
  }
  return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
}

t.test('HTTPS probes accept a self-signed certificate (tasks use them)', async (t) => {
  const tls = selfSigned(t);
  if (tls === undefined) {
    t.plan(0, 'openssl is not available to make a certificate');
    return;
  }
  const port = await listen(t, createHttpsServer(tls, route));
  t.same(await probeOnce(request({ port, protocol: 'HTTPS', path: '/unavailable' })), [{ probeId: 7, httpStatus: 503 }]);
  t.same(await probeOnce(request({ port, protocol: 'HTTPS', path: '/ready', purpose: 'readiness' })),
    [{ probeId: 7, httpStatus: 200, contentType: 'application/json; charset=utf-8', body: '{"ready":true}' }]);
});

t.test('HTTPS against a plain HTTP server: not connected, with the TLS reason', async (t) => {
  const { port } = await httpServer(t);
  const obs = await probeOnce(request({ port, protocol: 'HTTPS' }));
  t.equal(obs.length, 1);
  t.match(obs[0], { probeId: 7, connected: false, message: /\w/ });
});
