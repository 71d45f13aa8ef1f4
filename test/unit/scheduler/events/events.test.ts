import t from 'tap';
import { isoTime } from '../../../../src/scheduler/kernel/iso-time';
import type { MarathonEvent } from '../../../../src/scheduler/model/events';
import { makeOffer } from '../../../builders/cluster-builders';
import { makeApp, makeHealthCheck, makePod } from '../../../builders/run-spec-builders';
import { Harness } from '../../../harness/core-harness';

const ISO_MS_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

t.test('isoTime: ISO 8601 UTC with milliseconds, equal to Date#toISOString', async (t) => {
  const samples = [0, 1, 999, 1000, 951_782_400_000 /* 2000-02-29 */, 1_709_164_799_999, 4_102_444_800_000, Date.UTC(2026, 0, 1, 23, 59, 59, 7)];
  for (const ms of samples) t.equal(isoTime(ms), new Date(ms).toISOString(), String(ms));
  t.equal(isoTime(1234.9), '1970-01-01T00:00:01.234Z', 'fractions are floored');
  // The cache must not return a stale value.
  t.equal(isoTime(5), '1970-01-01T00:00:00.005Z');
  t.equal(isoTime(6), '1970-01-01T00:00:00.006Z');
  t.equal(isoTime(5), '1970-01-01T00:00:00.005Z');
});

t.test('every event of a busy run has eventType and an ISO timestamp with ms and Z, from the clock', async (t) => {
  const h = new Harness({ startMs: Date.UTC(2026, 5, 15, 12, 0, 0, 0) });
  const seen = new Map<string, MarathonEvent>();
  h.scheduler.subscribe((e) => seen.set(e.eventType, e));
  h.advance(7);
  h.put(makeApp({ id: '/web', hostPorts: [0], healthChecks: [makeHealthCheck({ gracePeriodMs: 0, intervalMs: 1, maxConsecutiveFailures: 1 })] }));
  h.put(makePod({ id: '/pod', containers: [{ name: 'a' }, { name: 'b' }] }));
  const launched = h.offer(makeOffer());
  h.run(launched);
  // A pass, then a failure: health_status_changed_event needs a change of liveness (a first failure sends none).
  h.probe(h.prober.last()?.probeId ?? -1, { httpStatus: 200 });
  h.advance(1);
  h.probe(h.prober.last()?.probeId ?? -1, { httpStatus: 500 });
  h.status(launched.find((l) => l.runSpecId === '/pod')?.taskId ?? '', 'TASK_UNREACHABLE');
  h.status('stray_app.instance-1._app.1', 'TASK_RUNNING', { agentId: 'x' });
  h.status('stray_app.instance-1._app.1', 'TASK_KILLED', { agentId: 'x' });
  h.delete('/pod');
  for (const l of launched) h.status(l.taskId, 'TASK_KILLED');
  t.same([...seen.keys()].sort(), [
    'add_health_check_event', 'app_terminated_event', 'deployment_info', 'deployment_step_success', 'deployment_success',
    'failed_health_check_event', 'group_change_success', 'health_status_changed_event',
    'instance_changed_event', 'instance_health_changed_event', 'status_update_event',
    'unhealthy_instance_kill_event', 'unhealthy_task_kill_event', 'unknown_instance_terminated_event',
  ], 'the run produced every core event type but remove_health_check_event (health tests) and deployment_step_failure / deployment_failed (executor tests)');
  for (const e of h.events()) {
    t.match(e.timestamp, ISO_MS_Z, `${e.eventType} ${e.timestamp}`);
    t.ok(e.timestamp >= '2026-06-15T12:00:00.007Z' && e.timestamp <= '2026-06-15T12:00:00.008Z', `${e.eventType} from the clock`);
  }
});

t.test('instance_changed_event: exact fields, null agent while not placed', async (t) => {
  const h = new Harness();
  const app = makeApp();
  h.put(app);
  const [e] = h.events('instance_changed_event');
  t.same(Object.keys(e).sort(), ['agentId', 'condition', 'eventType', 'host', 'instanceId', 'runSpecId', 'runSpecVersion', 'timestamp']);
  t.same([e.agentId, e.host], [null, null]);
});

t.test('status_update_event: exact fields', async (t) => {
  const h = new Harness();
  h.put(makeApp());
  const [l] = h.offer(makeOffer());
  h.status(l.taskId, 'TASK_STAGING');
  const [e] = h.events('status_update_event');
  t.same(Object.keys(e).sort(), ['appId', 'eventType', 'host', 'ipAddresses', 'message', 'ports', 'slaveId', 'taskId', 'taskStatus', 'timestamp', 'version']);
});

t.test('status_update_event: the message is the update\'s own, "" when it has none (not an earlier update\'s)', async (t) => {
  // Marathon takes `message` from the status being published (`if (status.hasMessage)
  // status.getMessage else ""`, MesosStatusUpdateEvent): a reconciliation answer carries a
  // message, the executor's next update may carry none.
  const h = new Harness();
  h.put(makeApp());
  const [l] = h.offer(makeOffer());
  h.status(l.taskId, 'TASK_STAGING', { message: 'staging on agent' });
  h.status(l.taskId, 'TASK_STARTING');
  h.status(l.taskId, 'TASK_RUNNING', { reason: 'REASON_RECONCILIATION', message: 'Reconciliation: latest task state' });
  h.status(l.taskId, 'TASK_KILLED');
  t.same(h.events('status_update_event').map((e) => [e.taskStatus, e.message]), [
    ['TASK_STAGING', 'staging on agent'],
    ['TASK_STARTING', ''],
    ['TASK_RUNNING', 'Reconciliation: latest task state'],
    ['TASK_KILLED', ''],
  ]);
});

t.test('subscribers receive events in emission order; unsubscribe stops delivery', async (t) => {
  const h = new Harness();
  const got: string[] = [];
  const off = h.scheduler.subscribe((e) => got.push(e.eventType));
  h.put(makeApp());
  const [l] = h.offer(makeOffer());
  h.status(l.taskId, 'TASK_RUNNING');
  // Fact 108 (POST /v2/apps, one instance, no health checks), in Marathon's order.
  t.same(got, [
    'group_change_success',
    'deployment_info', 'deployment_step_success', // StartApplication
    'deployment_info', // ScaleApplication
    'instance_changed_event', 'instance_changed_event', 'status_update_event', 'instance_changed_event', // Scheduled, Provisioned, Running
    'deployment_step_success', 'deployment_success', // once the instance runs
  ]);
  off();
  h.status(l.taskId, 'TASK_FAILED');
  t.equal(got.length, 10);
  t.ok(h.events().length > 10, 'other subscribers still get them');
});
