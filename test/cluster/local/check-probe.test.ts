import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { runCheck } from '../../../src/cluster/local/check-probe';
import { CheckRunner } from '../../../src/cluster/local/check-runner';
import type { CheckStatus } from '../../../src/scheduler/model/checks';
import type { LaunchCheck } from '../../../src/scheduler/model/launch';
import { PATIENCE_MS, waitFor } from '../../harness/wait';

/**
 * The local cluster's runs of a task's `check` (check-probe.ts) report what a Mesos executor's
 * checker reports (§5.5): the HTTP status code, whether TCP connected, the exit code; the kind's
 * empty status when it times out or cannot run. The runner (check-runner.ts) reports a status
 * only when it changed.
 */

const TIMING = { delayMs: 0, intervalMs: 20, timeoutMs: 2000 };

async function listening(t: Test, server: Server | ReturnType<typeof createHttpServer>): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.close();
  });
  return (server.address() as AddressInfo).port;
}

/** A port nothing listens on (one just closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

t.test('each kind\'s status, and the empty status when there is no result', async (t) => {
  const answering = await listening(t, createHttpServer((req, res) => {
    res.statusCode = req.url === '/down' ? 503 : 200;
    res.end('x');
  }));
  const silent = await listening(t, createHttpServer(() => undefined));
  const tcp = await listening(t, createServer((c) => c.end()));
  const closed = await closedPort();
  const ctx = { env: { GREETING: 'hi' }, cwd: process.cwd() };
  const table: [string, LaunchCheck, CheckStatus][] = [
    ['HTTP 200 on /', { ...TIMING, kind: 'http', port: answering }, { http: { statusCode: 200 } }],
    ['HTTP 503 is reported, not judged', { ...TIMING, kind: 'http', port: answering, path: '/down' }, { http: { statusCode: 503 } }],
    ['HTTP refused: no result', { ...TIMING, kind: 'http', port: closed }, { http: {} }],
    ['HTTP that never answers: timed out, no result', { ...TIMING, timeoutMs: 100, kind: 'http', port: silent }, { http: {} }],
    ['TCP connects', { ...TIMING, kind: 'tcp', port: tcp }, { tcp: { succeeded: true } }],
    ['TCP refused', { ...TIMING, kind: 'tcp', port: closed }, { tcp: { succeeded: false } }],
    ['a shell command\'s exit code, in the task\'s environment', { ...TIMING, kind: 'command', command: { shell: 'test "$GREETING" = hi && exit 7' } }, { command: { exitCode: 7 } }],
    ['an argv without a shell', { ...TIMING, kind: 'command', command: { argv: ['/bin/sh', '-c', 'exit 0'] } }, { command: { exitCode: 0 } }],
    ['a command that cannot start: no result', { ...TIMING, kind: 'command', command: { argv: ['/nonexistent/check'] } }, { command: {} }],
    ['a command past its timeout: killed, no result', { ...TIMING, timeoutMs: 100, kind: 'command', command: { shell: 'sleep 30' } }, { command: {} }],
  ];
  for (const [name, check, want] of table) t.same(await runCheck(check, ctx, new AbortController().signal), want, name);
});

t.test('the runner reports each change once, nothing while the status stays, nothing after stop', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pacer-check-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const reports: CheckStatus[] = [];
  const check: LaunchCheck = { ...TIMING, kind: 'command', command: { shell: 'test -f ready' } };
  const runner = new CheckRunner(check, { env: {}, cwd: dir }, undefined, (s) => reports.push(s));
  t.teardown(() => runner.stop());
  runner.start();
  await waitFor(() => (reports.length >= 1 ? true : undefined), 'the first result', PATIENCE_MS);
  t.same(reports, [{ command: { exitCode: 1 } }]);
  writeFileSync(join(dir, 'ready'), '');
  await waitFor(() => (reports.length >= 2 ? true : undefined), 'the changed result', PATIENCE_MS);
  t.same(reports, [{ command: { exitCode: 1 } }, { command: { exitCode: 0 } }], 'unchanged runs in between were not reported');
  runner.stop();
  const after = reports.length;
  rmSync(join(dir, 'ready'));
  // Nothing more can come: the runner's timer is cleared and its run in flight abandoned.
  await new Promise<void>((resolve) => setImmediate(resolve));
  t.equal(reports.length, after);
});

t.test('a runner started after a restart with the status it last reported does not report it again', async (t) => {
  const reports: CheckStatus[] = [];
  const check: LaunchCheck = { ...TIMING, kind: 'command', command: { shell: 'exit 0' } };
  const prior: CheckStatus = { command: { exitCode: 0 } };
  const changed: CheckStatus[] = [];
  const other = new CheckRunner({ ...check, command: { shell: 'exit 2' } }, { env: {}, cwd: process.cwd() }, prior, (s) => changed.push(s));
  const runner = new CheckRunner(check, { env: {}, cwd: process.cwd() }, prior, (s) => reports.push(s));
  t.teardown(() => {
    runner.stop();
    other.stop();
  });
  runner.start();
  other.start();
  // The other runner's change proves runs happened meanwhile (both run every 20 ms).
  await waitFor(() => (changed.length >= 1 ? true : undefined), 'a run of the other runner', PATIENCE_MS);
  t.same(changed, [{ command: { exitCode: 2 } }]);
  t.same(reports, [], 'the same status as before the restart is not reported');
});
