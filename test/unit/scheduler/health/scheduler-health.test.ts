import t from 'tap';
import type { HealthCheckProtocol } from '../../../../src/scheduler/model/health-check';
import type { ProbeObservation } from '../../../../src/scheduler/ports/prober';
import { makeOffer } from '../../../builders/cluster-builders';
import { makeApp, makeHealthCheck, type HealthCheckOverrides } from '../../../builders/run-spec-builders';
import { Harness } from '../../../harness/core-harness';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** One running instance of /app with one scheduler-run check; records cleared after the first probe was sent. */
function running(check: HealthCheckOverrides = {}, appOverrides: Parameters<typeof makeApp>[0] = {}) {
  const h = new Harness();
  const hc = makeHealthCheck({ gracePeriodMs: 0, intervalMs: 10_000, timeoutMs: 2000, ...check });
  const app = makeApp({ hostPorts: [0, 0], healthChecks: [hc], ...appOverrides });
  const [l] = h.deploy(app, makeOffer({ agent: { hostname: 'h1', agentId: 'a1' } }));
  const inst = h.scheduler.instance(l.instanceId);
  if (inst === undefined) throw new Error('not running');
  return { h, l, inst, hc, app };
}

/** Answers the most recent probe, then advances one interval (which sends the next). */
function answer(h: Harness, obs: Omit<ProbeObservation, 'probeId'>, intervalMs = 10_000): void {
  const req = h.prober.last();
  if (req === undefined) throw new Error('no probe in flight');
  h.probe(req.probeId, obs);
  h.advance(intervalMs);
}

t.test('probes start when the instance runs, go through the Prober with the resolved target, every interval', async (t) => {
  const { h, l, inst } = running({ portIndex: 1, path: '/health' });
  t.same(h.prober.requests, [{
    probeId: 1, instanceId: inst.instanceId, taskId: l.taskId, checkIndex: 0, protocol: 'HTTP',
    host: 'h1', port: l.hostPorts[1], path: '/health', timeoutMs: 2000,
  }], 'the first probe goes out when the instance is Running');
  h.advance(9999);
  t.equal(h.prober.requests.length, 1);
  h.advance(1);
  t.equal(h.prober.requests.length, 2, 'then every intervalSeconds');
  t.equal(h.prober.requests[1].probeId, 2);
});

t.test('a fixed `port` wins over portIndex', async (t) => {
  const { h } = running({ port: 8123 });
  t.equal(h.prober.last()?.port, 8123);
});

t.test('no probes before Running', async (t) => {
  const h = new Harness();
  h.put(makeApp({ hostPorts: [0], healthChecks: [makeHealthCheck({ gracePeriodMs: 0 })] }));
  const [l] = h.offer(makeOffer());
  h.status(l.taskId, 'TASK_STAGING');
  h.status(l.taskId, 'TASK_STARTING');
  h.advance(120_000);
  t.same(h.prober.requests, []);
});

t.test('verdicts: 200–399 pass, other codes fail, 1xx fails unless ignoreHttp1xx, timeouts fail, TCP connects', async (t) => {
  const cases: [string, HealthCheckProtocol, boolean, Omit<ProbeObservation, 'probeId'>, boolean | 'ignored'][] = [
    ['HTTP 200', 'HTTP', false, { httpStatus: 200 }, true],
    ['HTTP 399', 'HTTP', false, { httpStatus: 399 }, true],
    ['HTTP 302', 'HTTP', false, { httpStatus: 302 }, true],
    ['HTTP 400', 'HTTP', false, { httpStatus: 400 }, false],
    ['HTTP 500', 'HTTP', false, { httpStatus: 500 }, false],
    ['HTTP 199', 'HTTP', false, { httpStatus: 199 }, false],
    ['HTTP 100', 'HTTP', false, { httpStatus: 100 }, false],
    ['HTTP 100, ignoreHttp1xx', 'HTTP', true, { httpStatus: 100 }, 'ignored'],
    ['HTTP 199, ignoreHttp1xx', 'HTTP', true, { httpStatus: 199 }, 'ignored'],
    ['HTTP 500, ignoreHttp1xx', 'HTTP', true, { httpStatus: 500 }, false],
    ['HTTP timeout', 'HTTP', false, { timedOut: true }, false],
    ['HTTP 200 arriving after the timeout', 'HTTP', false, { httpStatus: 200, timedOut: true }, false],
    ['HTTP no answer', 'HTTP', false, { message: 'connection refused' }, false],
    ['HTTPS 200', 'HTTPS', false, { httpStatus: 200 }, true],
    ['HTTPS 503', 'HTTPS', false, { httpStatus: 503 }, false],
    ['TCP connected', 'TCP', false, { connected: true }, true],
    ['TCP refused', 'TCP', false, { connected: false }, false],
    ['TCP timeout', 'TCP', false, { timedOut: true }, false],
    ['TCP connected after the timeout', 'TCP', false, { connected: true, timedOut: true }, false],
  ];
  for (const [name, protocol, ignoreHttp1xx, obs, expected] of cases) {
    const { h, inst, app } = running({ protocol, ignoreHttp1xx });
    t.equal(h.prober.last()?.protocol, protocol, `${name}: probed as ${protocol}`);
    h.clearRecords();
    h.probe(1, obs);
    if (expected === 'ignored') {
      t.same(h.events(), [], `${name}: no change`);
      t.equal(inst.healthy, undefined, `${name}: health unknown`);
      continue;
    }
    t.equal(inst.healthy, expected, `${name}: ${expected ? 'healthy' : 'unhealthy'}`);
    // The app's deployment waits for health: the first healthy verdict ends it (its ScaleApplication step, then the deployment).
    // A first failure changes no liveness (Marathon's Health.alive is false before any success): no health_status_changed_event.
    t.same(h.events().map((e) => e.eventType), [
      ...(expected ? ['health_status_changed_event'] : ['failed_health_check_event']), 'instance_health_changed_event',
      ...(expected ? ['deployment_step_success', 'deployment_success'] : []),
    ], `${name}: events`);
    t.equal(h.scheduler.deployments().length, expected ? 0 : 1, `${name}: deployment ${expected ? 'done' : 'still waiting'}`);
    t.match(h.events('health_status_changed_event'), expected ? [{ appId: '/app', instanceId: inst.instanceId, version: app.version, alive: true }] : []);
    t.match(h.events('instance_health_changed_event'), [{ instanceId: inst.instanceId, runSpecId: '/app', runSpecVersion: app.version, healthy: expected }]);
  }
});

t.test('a probe answer for an unknown or stale probe id is ignored', async (t) => {
  const { h, inst } = running();
  h.probe(999, { httpStatus: 500 });
  t.equal(inst.healthy, undefined);
  h.probe(1, { httpStatus: 200 });
  h.probe(1, { httpStatus: 500 });
  t.equal(inst.healthy, true, 'answered once only');
});

t.test('grace period: failures are ignored until it ends or the first success', async (t) => {
  t.test('failures inside the grace period do not count', async (t) => {
    const { h, inst } = running({ gracePeriodMs: 30_000, maxConsecutiveFailures: 1 });
    answer(h, { httpStatus: 500 }); // t = 0
    answer(h, { httpStatus: 500 }); // t = 10 s
    answer(h, { httpStatus: 500 }); // t = 20 s
    t.same(h.events('failed_health_check_event'), []);
    t.equal(inst.healthy, undefined);
    t.same(h.calls('kill'), []);
    answer(h, { httpStatus: 500 }); // t = 30 s: grace over
    t.equal(h.events('failed_health_check_event').length, 1);
    t.equal(h.calls('kill').length, 1, 'the first counted failure reaches maxConsecutiveFailures 1');
  });
  t.test('after the first success, failures count even inside the grace period', async (t) => {
    const { h, inst } = running({ gracePeriodMs: 300_000, maxConsecutiveFailures: 2 });
    answer(h, { httpStatus: 200 });
    t.equal(inst.healthy, true);
    answer(h, { httpStatus: 500 });
    t.equal(inst.healthy, false);
    t.equal(h.events('failed_health_check_event').length, 1);
    answer(h, { httpStatus: 500 });
    t.equal(h.calls('kill').length, 1);
  });
});

t.test('maxConsecutiveFailures 3: killed at the 3rd failure, with the kill events, and relaunched with backoff', async (t) => {
  const { h, l, inst, hc, app } = running({ maxConsecutiveFailures: 3 });
  answer(h, { httpStatus: 500 });
  answer(h, { httpStatus: 500 });
  t.same(h.calls('kill'), [], 'two failures: alive, unhealthy');
  t.equal(h.events('failed_health_check_event').length, 2);
  const third = h.prober.last()?.probeId ?? -1;
  h.clearRecords();
  h.probe(third, { httpStatus: 500 });
  const ts = h.events()[0].timestamp;
  t.match(ts, ISO);
  t.same(h.events().filter((e) => e.eventType !== 'health_status_changed_event' && e.eventType !== 'instance_health_changed_event'), [
    { eventType: 'failed_health_check_event', timestamp: ts, appId: '/app', taskId: l.taskId, healthCheck: hc },
    {
      eventType: 'unhealthy_task_kill_event', timestamp: ts, appId: '/app', taskId: l.taskId, version: app.version,
      reason: 'HTTP health check failed 3 times consecutively (HTTP 500)', host: 'h1', slaveId: 'a1',
    },
    {
      eventType: 'unhealthy_instance_kill_event', timestamp: ts, appId: '/app', taskId: l.taskId, instanceId: inst.instanceId,
      version: app.version, reason: 'HTTP health check failed 3 times consecutively (HTTP 500)', host: 'h1', slaveId: 'a1',
    },
  ]);
  t.same(h.calls('kill'), [{ type: 'kill', taskId: l.taskId, agentId: 'a1', gracePeriodMs: 3000 }]);
  t.equal(inst.goal, 'Running', 'it is to be replaced, not decommissioned');
  // Results arriving while the kill is under way change nothing.
  h.advance(10_000);
  const late = h.prober.last();
  if (late !== undefined) h.probe(late.probeId, { httpStatus: 500 });
  t.equal(h.events('failed_health_check_event').length, 1, 'only the third (records were cleared before it)');
  t.equal(h.calls('kill').length, 1);
  h.status(l.taskId, 'TASK_KILLED');
  t.equal(inst.condition, 'Scheduled');
  t.equal(h.scheduler.backoffUntilMs('/app'), h.nowMs + 1000, 'the relaunch is subject to backoff');
  const probes = h.prober.requests.length;
  h.advance(60_000);
  t.equal(h.prober.requests.length, probes, 'no more probes for the dead task');
  const [again] = h.offer(makeOffer());
  t.equal(again.instanceId, inst.instanceId);
  h.run(again);
  t.equal(h.prober.last()?.taskId, again.taskId, 'checking restarts with the new task');
});

t.test('a success resets the consecutive failure count', async (t) => {
  const { h } = running({ maxConsecutiveFailures: 3 });
  for (const code of [500, 500, 200, 500, 500, 200, 500, 500]) answer(h, { httpStatus: code });
  t.same(h.calls('kill'), []);
  t.equal(h.events('failed_health_check_event').length, 6);
});

t.test('maxConsecutiveFailures 0: scheduler-run checks never kill', async (t) => {
  const { h, inst } = running({ maxConsecutiveFailures: 0 });
  for (let i = 0; i < 20; i++) answer(h, { httpStatus: 500 });
  t.same(h.calls('kill'), []);
  t.equal(h.events('failed_health_check_event').length, 20);
  t.same(h.events('unhealthy_instance_kill_event'), []);
  t.equal(inst.healthy, false);
});

t.test('health events are emitted on changes only', async (t) => {
  const { h } = running({ maxConsecutiveFailures: 0 });
  for (const code of [200, 200, 500, 500, 200]) answer(h, { httpStatus: code });
  t.same(h.events('health_status_changed_event').map((e) => e.alive), [true, false, true]);
  t.same(h.events('instance_health_changed_event').map((e) => e.healthy), [true, false, true]);
});

t.test('health_status_changed_event only when liveness changes; an instance never healthy starts not alive (Marathon HealthCheckActor)', async (t) => {
  // Marathon 1.11: Health.alive is false until a first success (core/health/Health.scala), and
  // HealthCheckActor.updateInstanceHealth publishes only when alive differs before and after a result.
  const cases: { name: string; codes: number[]; alive: boolean[]; healthy: (boolean | undefined)[] }[] = [
    { name: 'first failure of a never-healthy instance', codes: [500], alive: [], healthy: [false] },
    { name: 'failures only', codes: [500, 500, 500], alive: [], healthy: [false] },
    { name: 'failure, then first success', codes: [500, 200], alive: [true], healthy: [false, true] },
    { name: 'failures, success, failure', codes: [500, 500, 200, 500], alive: [true, false], healthy: [false, true, false] },
    { name: 'first success', codes: [200], alive: [true], healthy: [true] },
    { name: 'success, failure', codes: [200, 500], alive: [true, false], healthy: [true, false] },
    { name: 'success, success, failure, failure, success', codes: [200, 200, 500, 500, 200], alive: [true, false, true], healthy: [true, false, true] },
  ];
  for (const c of cases) {
    const { h } = running({ maxConsecutiveFailures: 0 });
    for (const code of c.codes) answer(h, { httpStatus: code });
    t.same(h.events('health_status_changed_event').map((e) => e.alive), c.alive, `${c.name}: health_status_changed_event`);
    t.same(h.events('instance_health_changed_event').map((e) => e.healthy), c.healthy, `${c.name}: instance_health_changed_event`);
    t.equal(h.events('failed_health_check_event').length, c.codes.filter((code) => code >= 400).length, `${c.name}: every counted failure is reported`);
  }
});

t.test('two checks: healthy only when both pass', async (t) => {
  const h = new Harness();
  const app = makeApp({
    hostPorts: [0, 0],
    healthChecks: [makeHealthCheck({ gracePeriodMs: 0, portIndex: 0 }), makeHealthCheck({ protocol: 'TCP', gracePeriodMs: 0, portIndex: 1 })],
  });
  const [l] = h.deploy(app);
  const [http, tcp] = h.prober.requests;
  t.same([http.checkIndex, tcp.checkIndex, http.port, tcp.port], [0, 1, l.hostPorts[0], l.hostPorts[1]]);
  const inst = h.scheduler.instance(l.instanceId);
  h.probe(http.probeId, { httpStatus: 200 });
  t.equal(inst?.healthy, undefined, 'one passing, one unknown');
  h.probe(tcp.probeId, { connected: true });
  t.equal(inst?.healthy, true);
});

t.test('add_health_check_event and remove_health_check_event follow the definition', async (t) => {
  const h = new Harness();
  const a = makeHealthCheck({ path: '/a' });
  const b = makeHealthCheck({ path: '/b' });
  const v1 = makeApp({ healthChecks: [a] });
  h.put(v1);
  t.same(h.events('add_health_check_event'), [{ eventType: 'add_health_check_event', timestamp: '2026-01-01T00:00:00.000Z', appId: '/app', version: v1.version, healthCheck: a }]);
  h.clearRecords();
  const v2 = makeApp({ healthChecks: [b], version: '2026-01-01T00:00:05.000Z' });
  // v1's deployment still waits for an offer and holds /app; force past it (this test is about the health check events).
  t.match(h.put(v2, { force: true }), { ok: true });
  t.match(h.events('remove_health_check_event'), [{ appId: '/app', healthCheck: a }]);
  t.match(h.events('add_health_check_event'), [{ appId: '/app', version: v2.version, healthCheck: b }]);
  h.clearRecords();
  h.delete('/app');
  t.match(h.events('remove_health_check_event'), [{ appId: '/app', healthCheck: b }]);
});

t.test('an unreachable instance is not judged or killed; checking resumes when it is back', async (t) => {
  const { h, l, inst } = running({ maxConsecutiveFailures: 1 }, { unreachable: { kind: 'enabled', inactiveAfterMs: 600_000, expungeAfterMs: 900_000 } });
  const inFlight = h.prober.last();
  h.status(l.taskId, 'TASK_UNREACHABLE');
  if (inFlight !== undefined) h.probe(inFlight.probeId, { timedOut: true });
  t.same(h.calls('kill'), [], 'a result for an unreachable instance does not count');
  t.same(h.events('failed_health_check_event'), []);
  h.advance(30_000);
  const sent = h.prober.requests.length;
  t.equal(sent, 1, 'no probes while unreachable');
  h.status(l.taskId, 'TASK_RUNNING');
  t.equal(inst.condition, 'Running');
  h.advance(30_000);
  t.ok(h.prober.requests.length > sent, `probing resumed (${h.prober.requests.length - sent} probes in 30 s)`);
  const next = h.prober.last();
  if (next !== undefined) h.probe(next.probeId, { httpStatus: 500 });
  t.equal(h.calls('kill').length, 1, 'and failures count again');
});

t.test('Scheduler.healthChecks: per-check states with firstSuccess set once, one per check', async (t) => {
  const h = new Harness();
  const app = makeApp({
    hostPorts: [0],
    healthChecks: [makeHealthCheck({ gracePeriodMs: 0, intervalMs: 10_000, maxConsecutiveFailures: 0 }), makeHealthCheck({ protocol: 'COMMAND', command: 'true' })],
  });
  const [l] = h.deploy(app);
  const startMs = h.nowMs;
  t.match(h.scheduler.healthChecks(l.instanceId), [
    { check: { protocol: 'HTTP' }, consecutiveFailures: 0, everHealthy: false },
    { check: { protocol: 'COMMAND' }, consecutiveFailures: 0, everHealthy: false, timer: undefined },
  ], 'armed, no result yet; the agent-run check waits for the agent');
  t.equal(h.scheduler.healthChecks(l.instanceId)?.[0]?.alive, undefined);
  answer(h, { httpStatus: 200 });
  answer(h, { httpStatus: 200 });
  answer(h, { httpStatus: 500, message: 'boom' });
  const [state] = h.scheduler.healthChecks(l.instanceId) ?? [];
  t.match(state, {
    alive: false, consecutiveFailures: 1, firstSuccessMs: startMs, lastSuccessMs: startMs + 10_000, lastFailureMs: startMs + 20_000,
  }, 'firstSuccess stays at the first pass; lastSuccess moves');
  t.equal(h.scheduler.healthChecks('nope.instance-1'), undefined, 'unknown instance');
  h.status(l.taskId, 'TASK_FAILED');
  t.equal(h.scheduler.healthChecks(l.instanceId), undefined, 'forgotten when the task ends');
});

t.test('the verdict of scheduler-run checks is stored with the instance, so a restart recovers it (a failover mid-deployment keeps healthy old instances)', async (t) => {
  const cases: [string, Omit<ProbeObservation, 'probeId'>, boolean][] = [
    ['passing', { httpStatus: 200 }, true],
    ['failing', { httpStatus: 500 }, false],
  ];
  for (const [name, obs, healthy] of cases) {
    const { h, inst } = running({ maxConsecutiveFailures: 0 });
    answer(h, obs);
    t.equal(h.scheduler.instance(inst.instanceId)?.healthy, healthy, `${name}: the core's verdict`);
    t.equal(h.store.instances.get(inst.instanceId)?.healthy, healthy, `${name}: the stored record carries it`);
    const h2 = new Harness({ stored: h.store.load(), startMs: h.nowMs });
    t.equal(h2.scheduler.instance(inst.instanceId)?.healthy, healthy, `${name}: a restarted core recovers it`);
  }
});
