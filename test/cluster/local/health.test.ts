import t from 'tap';
import type { HealthCheckOverrides } from '../../builders/run-spec-builders';
import { makeApp, makeHealthCheck } from '../../builders/run-spec-builders';
import { PATIENCE_MS } from '../../harness/wait';
import { appLaunch, makeFixture, sleep, waitFor, type LocalFixture } from './local-fixture';

const HEALTH_REASON = 'REASON_TASK_HEALTH_CHECK_STATUS_UPDATED';

/** A tiny server on $PORT0 at 127.0.0.1 (`http` or `net`). */
function serverCmd(kind: 'http' | 'net'): string {
  const js = kind === 'http'
    ? "require('http').createServer((q, s) => s.end('ok')).listen(Number(process.env.PORT0), '127.0.0.1')"
    : "require('net').createServer((c) => c.end()).listen(Number(process.env.PORT0), '127.0.0.1')";
  return `exec '${process.execPath}' -e "${js}"`;
}

async function launchChecked(f: LocalFixture, cmd: string, check: HealthCheckOverrides): Promise<string> {
  const offer = await f.startAndOffer();
  const app = makeApp({
    cmd,
    hostPorts: [0],
    healthChecks: [makeHealthCheck({ delayMs: 0, intervalMs: 100, timeoutMs: 10_000, gracePeriodMs: 0, ...check })],
  });
  const { op, task } = appLaunch(offer, app);
  f.cluster.accept(offer.offerId, [op], 0);
  return task.taskId;
}

function healthReports(f: LocalFixture, taskId: string): (boolean | undefined)[] {
  return f.statuses(taskId).filter((s) => s.reason === HEALTH_REASON).map((s) => s.healthy);
}

t.test('an HTTP check against the task\'s server turns healthy, reported once', async (t) => {
  const f = makeFixture(t);
  const taskId = await launchChecked(f, serverCmd('http'), { protocol: 'MESOS_HTTP', gracePeriodMs: PATIENCE_MS, maxConsecutiveFailures: 3 });
  const healthy = await f.waitStatus(taskId, 'TASK_RUNNING', PATIENCE_MS, (s) => s.healthy === true);
  t.match(healthy, { reason: HEALTH_REASON, agentId: 'agent-1' });
  t.ok(healthy.uuid, 'health updates are executor updates');
  await sleep(400);
  t.same(healthReports(f, taskId), [true], 'healthy → healthy is not reported again; failures in the grace period are ignored');
  f.cluster.reconcile([{ taskId }]);
  const answer = await waitFor(() => f.statuses(taskId).find((s) => s.reason === 'REASON_RECONCILIATION'));
  t.equal(answer.healthy, true, 'reconciliation carries the latest verdict');
});

t.test('a TCP check passes once the port accepts connections', async (t) => {
  const f = makeFixture(t);
  const taskId = await launchChecked(f, serverCmd('net'), { protocol: 'MESOS_TCP', gracePeriodMs: PATIENCE_MS });
  await f.waitStatus(taskId, 'TASK_RUNNING', PATIENCE_MS, (s) => s.healthy === true);
  t.pass('healthy');
});

t.test('a failing COMMAND check reports every failure and kills the task at maxConsecutiveFailures', async (t) => {
  const f = makeFixture(t);
  const taskId = await launchChecked(f, 'sleep 30', { protocol: 'COMMAND', command: 'exit 1', maxConsecutiveFailures: 2 });
  const killed = await f.waitStatus(taskId, 'TASK_KILLED');
  t.equal(killed.healthy, false, 'the TASK_KILLED of a health kill carries healthy: false');
  t.same(healthReports(f, taskId), [false, false]);
  t.same(f.states(taskId), ['TASK_STARTING', 'TASK_RUNNING', 'TASK_RUNNING', 'TASK_RUNNING', 'TASK_KILLED']);
});

t.test('maxConsecutiveFailures 0 kills at the first counted failure (agent-run semantics)', async (t) => {
  const f = makeFixture(t);
  const taskId = await launchChecked(f, 'sleep 30', { protocol: 'MESOS_TCP', maxConsecutiveFailures: 0 });
  await f.waitStatus(taskId, 'TASK_KILLED');
  t.same(healthReports(f, taskId), [false]);
});

t.test('a COMMAND check runs in the sandbox with the task environment; failures in the grace period are ignored', async (t) => {
  const f = makeFixture(t);
  const taskId = await launchChecked(f, 'sleep 0.3; echo > flag; sleep 30', {
    protocol: 'COMMAND', command: 'test -f flag && test -n "$PORT0"', gracePeriodMs: PATIENCE_MS, maxConsecutiveFailures: 1,
  });
  await f.waitStatus(taskId, 'TASK_RUNNING', PATIENCE_MS, (s) => s.healthy === true);
  t.same(healthReports(f, taskId), [true]);
});

t.test('a check slower than its timeout fails', async (t) => {
  const f = makeFixture(t);
  const taskId = await launchChecked(f, 'sleep 30', { protocol: 'COMMAND', command: 'sleep 5', timeoutMs: 150, maxConsecutiveFailures: 5 });
  const unhealthy = await f.waitStatus(taskId, 'TASK_RUNNING', PATIENCE_MS, (s) => s.healthy === false);
  t.equal(unhealthy.reason, HEALTH_REASON);
});
