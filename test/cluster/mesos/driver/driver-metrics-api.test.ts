import t from 'tap';
import { sampleOffer, taskStatus } from '../fake-master/sample-events';
import { waitUntil } from '../fake-master/wait-until';
import { call, pacerOn, WAIT_MS } from './mesos-pacer-fixture';

interface MetricsJson {
  counters: Record<string, { count: number }>;
  gauges: Record<string, { value: number }>;
}

t.test('/metrics and /metrics/prometheus show the Mesos driver: state, offers, launches, updates, reconnects, heartbeat age (issue 15)', async (t) => {
  const { master, pacer, frameworkId } = await pacerOn(t);
  t.equal((await call(pacer, 'POST', '/v2/apps', { id: '/web', cmd: 'sleep 100', cpus: 1, mem: 32, instances: 2 })).status, 201);
  master.send({ type: 'OFFERS', offers: { offers: [sampleOffer(frameworkId, 'O-1')] } });
  const accept = await master.waitForCall('ACCEPT', 1, WAIT_MS);
  const taskIds = (accept.call.accept?.operations ?? []).map((op) => op.launch?.taskInfos?.[0]?.taskId.value ?? '');
  t.equal(taskIds.length, 2, 'two tasks on the one offer');
  for (const taskId of taskIds) master.send({ type: 'UPDATE', update: { status: taskStatus(taskId, 'TASK_RUNNING') } });
  master.send({ type: 'OFFERS', offers: { offers: [sampleOffer(frameworkId, 'O-2')] } });
  await master.waitForCall('DECLINE', 1, WAIT_MS);
  master.send({ type: 'HEARTBEAT' });
  master.cutStream();
  await waitUntil(() => pacer.cluster.metrics.subscriptions === 2 || undefined, WAIT_MS, 'the resubscription');

  const metrics = (await call(pacer, 'GET', '/metrics')).json as MetricsJson;
  const count = (name: string): number | undefined => metrics.counters[name]?.count;
  t.equal(count('marathon.mesos.offers.incoming.counter'), 2);
  t.equal(count('marathon.mesos.offers.used.counter'), 1);
  t.equal(count('marathon.mesos.offers.declined.counter'), 1);
  t.equal(count('marathon.mesos.offer-operations.launch.counter'), 2);
  t.equal(count('marathon.tasks.launched.counter'), 2);
  t.equal(count('marathon.mesos.task-updates.counter'), 2);
  t.equal(count('marathon.mesos.task-updates.task-running.counter'), 2);
  t.equal(count('marathon.mesos.subscriptions.counter'), 2);
  t.equal(count('marathon.mesos.reconnects.counter'), 1);
  t.equal(count('marathon.mesos.errors.counter'), 0);
  t.equal(metrics.gauges['marathon.mesos.subscription.subscribed.gauge']?.value, 1);
  t.equal(metrics.gauges['marathon.mesos.subscription.connecting.gauge']?.value, 0);
  const age = metrics.gauges['marathon.mesos.heartbeat.age.gauge.seconds']?.value ?? -1;
  t.ok(age >= 0 && age < 60, `seconds since the last heartbeat (${age})`);

  const text = (await call(pacer, 'GET', '/metrics/prometheus')).json as string;
  t.match(text, /# TYPE marathon_mesos_offers_incoming_counter counter\nmarathon_mesos_offers_incoming_counter 2\n/);
  t.match(text, /\nmarathon_mesos_task_updates_task_running_counter 2\n/);
  t.match(text, /# TYPE marathon_mesos_subscription_subscribed_gauge gauge\nmarathon_mesos_subscription_subscribed_gauge 1\n/);
  t.match(text, /\nmarathon_mesos_heartbeat_age_gauge_seconds \d/);
});

t.test('before any heartbeat the age is -1', async (t) => {
  const { pacer } = await pacerOn(t);
  pacer.cluster.metrics.lastHeartbeatAtMs = undefined;
  const metrics = (await call(pacer, 'GET', '/metrics')).json as MetricsJson;
  t.equal(metrics.gauges['marathon.mesos.heartbeat.age.gauge.seconds']?.value, -1);
});
