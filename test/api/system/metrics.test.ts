import t from 'tap';
import { makeApi, type ApiFixture } from '../api-fixture';
import { makeOffer } from '../../builders/cluster-builders';
import { makeApp, makePod } from '../../builders/run-spec-builders';
import type { MetricsJson } from '../../../src/api/metrics/metrics-registry';

async function metrics(fx: ApiFixture): Promise<MetricsJson> {
  const res = await fx.app.inject({ method: 'GET', url: '/metrics' });
  if (res.statusCode !== 200) throw new Error(`GET /metrics → ${res.statusCode}`);
  return JSON.parse(res.body) as MetricsJson;
}

const gauge = (m: MetricsJson, name: string) => m.gauges[name]?.value;

t.test('GET /metrics: the Dropwizard shape of fact 98', async (t) => {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  const res = await fx.app.inject({ method: 'GET', url: '/metrics' });
  t.equal(res.statusCode, 200);
  t.match(res.headers['content-type'], /application\/json/);
  const m = JSON.parse(res.body) as MetricsJson;
  t.equal(m.version, '4.0.0');
  t.same(Object.keys(m).sort(), ['counters', 'gauges', 'histograms', 'meters', 'timers', 'version']);
  const timer = m.timers['marathon.http.requests.duration.timer.seconds'];
  t.same(Object.keys(timer).sort(), [
    'count', 'duration_units', 'm15_rate', 'm1_rate', 'm5_rate', 'max', 'mean', 'mean_rate', 'min', 'p50', 'p75', 'p95', 'p98',
    'p99', 'p999', 'rate_units', 'stddev',
  ]);
  t.match(timer, { duration_units: 'seconds', rate_units: 'calls/second' });
  t.same(Object.keys(m.meters['marathon.http.responses.2xx.rate.meter']).sort(), ['count', 'm15_rate', 'm1_rate', 'm5_rate', 'mean_rate', 'units']);
  t.same(Object.keys(m.histograms['marathon.http.responses.size.histogram.bytes']).sort(), [
    'count', 'max', 'mean', 'min', 'p50', 'p75', 'p95', 'p98', 'p99', 'p999', 'stddev',
  ]);
  t.equal(gauge(m, 'marathon.apps.active.gauge'), 0);
  t.equal(gauge(m, 'marathon.groups.active.gauge'), 1, 'the root group');
  t.equal(gauge(m, 'marathon.http.requests.active.gauge'), 1, 'the /metrics request itself');
  t.same([...Object.keys(m.counters), ...Object.keys(m.gauges)].filter((name) => name.startsWith('marathon.mesos.')), [], 'no Mesos driver metrics off Mesos');
});

t.test('scheduler gauges follow the state', async (t) => {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  fx.harness.deploy(makeApp({ id: '/prod/web', instances: 2 }));
  fx.harness.deploy(makePod({ id: '/prod/db/pod' }));
  fx.harness.put(makeApp({ id: '/waiting', instances: 3 }));
  const staging = fx.harness.put(makeApp({ id: '/staging' }));
  t.ok(staging.ok);
  const [launched] = fx.harness.offer(makeOffer({ cpus: 0.1, mem: 32 }));
  fx.harness.status(launched.taskId, 'TASK_STAGING');
  fx.harness.advance(7_000);
  const m = await metrics(fx);
  const expected: Record<string, number> = {
    'marathon.apps.active.gauge': 3,
    'marathon.pods.active.gauge': 1,
    'marathon.groups.active.gauge': 3,
    'marathon.deployments.active.gauge': 2,
    'marathon.instances.running.gauge': 3,
    'marathon.instances.staged.gauge': 1,
    'marathon.instances.condition.running.gauge': 3,
    'marathon.instances.condition.staging.gauge': 1,
    'marathon.instances.condition.scheduled.gauge': 3,
    'marathon.instances.condition.unreachable-inactive.gauge': 0,
    'marathon.uptime.gauge.seconds': 7,
    'marathon.leadership.duration.gauge.seconds': 7,
  };
  for (const [name, value] of Object.entries(expected)) t.equal(gauge(m, name), value, name);
});

t.test('HTTP metrics change after requests, by status class', async (t) => {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  const before = await metrics(fx);
  t.equal(before.counters['marathon.http.responses.2xx.counter'].count, 0, 'a read does not count itself');
  for (let i = 0; i < 3; i++) await fx.app.inject({ method: 'GET', url: '/v2/tasks' });
  await fx.app.inject({ method: 'GET', url: '/v2/nope' });
  await fx.app.inject({ method: 'DELETE', url: '/v2/queue/x/delay' });
  await fx.app.inject({ method: 'GET', url: '/' });
  fx.harness.advance(10_000);
  const m = await metrics(fx);
  const count = (cls: string) => m.counters[`marathon.http.responses.${cls}.counter`].count;
  t.equal(count('2xx'), 4, 'three task lists and the first /metrics read');
  t.equal(count('3xx'), 1);
  t.equal(count('4xx'), 2, 'unknown route and unknown queue entry');
  t.equal(count('5xx'), 0);
  t.equal(m.meters['marathon.http.responses.4xx.rate.meter'].count, 2);
  t.ok(m.meters['marathon.http.responses.2xx.rate.meter'].m1_rate > 0, 'a minute rate after a tick');
  t.ok(Math.abs(m.meters['marathon.http.responses.2xx.rate.meter'].mean_rate - 0.4) < 1e-9, 'mean rate: 4 per 10 s');
  const all = m.timers['marathon.http.requests.duration.timer.seconds'];
  t.equal(all.count, 7);
  t.ok(all.max >= all.min && all.min >= 0, 'durations are non-negative');
  t.equal(m.timers['marathon.http.responses.4xx.duration.timer.seconds'].count, 2);
  t.ok(m.histograms['marathon.http.responses.size.histogram.bytes'].count >= 6, 'sizes of responses with a length');
});

t.test('GET /metrics/prometheus: text format 0.0.4 that parses line by line (fact 99)', async (t) => {
  const fx = makeApi();
  t.teardown(() => fx.app.close());
  fx.harness.deploy(makeApp({ id: '/web', instances: 2 }));
  await fx.app.inject({ method: 'GET', url: '/v2/tasks' });
  const res = await fx.app.inject({ method: 'GET', url: '/metrics/prometheus' });
  t.equal(res.statusCode, 200);
  t.match(res.headers['content-type'], /^text\/plain; version=0\.0\.4/);
  t.ok(res.body.endsWith('\n'));
  const families = new Map<string, string>();
  const helped = new Set<string>();
  const samples = new Map<string, number>();
  const seenFamilies: string[] = [];
  const problems: string[] = [];
  for (const line of res.body.slice(0, -1).split('\n')) {
    let m: RegExpMatchArray | null;
    if ((m = /^# HELP ([a-zA-Z_:][a-zA-Z0-9_:]*) (.*)$/.exec(line)) !== null) {
      helped.add(m[1]);
    } else if ((m = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|summary|histogram|untyped)$/.exec(line)) !== null) {
      if (families.has(m[1])) problems.push(`family declared twice: ${m[1]}`);
      if (!helped.has(m[1])) problems.push(`TYPE before HELP: ${m[1]}`);
      families.set(m[1], m[2]);
      seenFamilies.push(m[1]);
    } else if ((m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{quantile="[0-9.]+"\})? (-?[0-9.e+-]+|NaN|[+-]Inf)$/.exec(line)) !== null) {
      const current = seenFamilies[seenFamilies.length - 1];
      const type = families.get(current);
      const belongs = m[1] === current || (type === 'summary' && (m[1] === `${current}_sum` || m[1] === `${current}_count`));
      if (!belongs) problems.push(`sample outside its family: ${line}`);
      if (m[2] !== undefined && type !== 'summary') problems.push(`quantile label outside a summary: ${line}`);
      samples.set(`${m[1]}${m[2] ?? ''}`, Number(m[3]));
    } else {
      problems.push(`unparsable line: ${JSON.stringify(line)}`);
    }
  }
  t.same(problems, []);
  t.equal(families.get('marathon_apps_active_gauge'), 'gauge');
  t.equal(samples.get('marathon_apps_active_gauge'), 1);
  t.equal(samples.get('marathon_instances_running_gauge'), 2);
  t.equal(families.get('marathon_http_responses_2xx_counter'), 'counter');
  t.equal(samples.get('marathon_http_responses_2xx_counter'), 1);
  t.equal(families.get('marathon_http_requests_duration_timer_seconds'), 'summary');
  t.equal(samples.get('marathon_http_requests_duration_timer_seconds_count'), 1);
  t.ok(samples.has('marathon_http_requests_duration_timer_seconds{quantile="0.99"}'));
  t.equal(families.get('marathon_http_requests_duration_timer_seconds_max'), 'gauge');
  t.equal(families.get('marathon_http_responses_2xx_rate_meter_count'), 'counter');
  t.equal(families.get('marathon_http_responses_2xx_rate_meter_m1_rate'), 'gauge');
  t.equal(families.get('marathon_instances_condition_unreachable_inactive_gauge'), 'gauge', 'dashes become underscores');
});

t.test('prometheus disabled → 404 (fact 99)', async (t) => {
  const fx = makeApi({ config: { prometheus: false } });
  t.teardown(() => fx.app.close());
  const res = await fx.app.inject({ method: 'GET', url: '/metrics/prometheus' });
  t.equal(res.statusCode, 404);
  t.same(JSON.parse(res.body), { message: 'Prometheus reporter is disabled', details: [] });
  t.equal((await fx.app.inject({ method: 'GET', url: '/metrics' })).statusCode, 200, 'JSON metrics stay');
});
