import t from 'tap';
import { Histogram, HISTOGRAM_WINDOW, quantile } from '../../../src/api/metrics/histogram';
import { Meter } from '../../../src/api/metrics/meter';
import { MetricsRegistry } from '../../../src/api/metrics/metrics-registry';
import { prometheusText, promName } from '../../../src/api/metrics/prometheus-text';
import { Timer } from '../../../src/api/metrics/timer';

function manualClock(startMs = 0) {
  let now = startMs;
  return { clock: { nowMs: () => now }, advance: (ms: number) => void (now += ms) };
}

t.test('quantile interpolates at q·(n+1)', async (t) => {
  const sorted = Float64Array.from([1, 2, 3, 4]);
  const cases: [number, number][] = [[0.5, 2.5], [0.75, 3.75], [0.1, 1], [0.99, 4], [0.2, 1]];
  for (const [q, expected] of cases) t.ok(Math.abs(quantile(sorted, q) - expected) < 1e-9, `q=${q}`);
  t.equal(quantile(new Float64Array(0), 0.5), 0, 'empty');
});

t.test('Histogram: totals over everything, distribution over the window', async (t) => {
  const h = new Histogram();
  t.same(h.json(), { count: 0, min: 0, mean: 0, max: 0, p50: 0, p75: 0, p95: 0, p98: 0, p99: 0, p999: 0, stddev: 0 });
  for (const v of [3, 1, 2]) h.update(v);
  t.match(h.json(), { count: 3, min: 1, max: 3, mean: 2, p50: 2, stddev: 1 });
  t.equal(h.sum, 6);
  for (let i = 0; i < HISTOGRAM_WINDOW; i++) h.update(100);
  t.match(h.json(), { count: 3 + HISTOGRAM_WINDOW, min: 100, max: 100, stddev: 0 }, 'old values left the window');
  t.equal(h.sum, 6 + 100 * HISTOGRAM_WINDOW);
});

t.test('Meter: mean rate and moving averages in clock time', async (t) => {
  const { clock, advance } = manualClock(1_000);
  const m = new Meter(clock);
  t.match(m.json(), { count: 0, m1_rate: 0, mean_rate: 0, units: 'events/second' });
  m.mark(10);
  t.equal(m.json().m1_rate, 0, 'no tick yet');
  advance(5_000);
  const first = m.json();
  t.equal(first.m1_rate, 2, 'first tick: the instant rate (10 events / 5 s)');
  t.equal(first.mean_rate, 2);
  advance(60_000);
  const later = m.json();
  t.ok(later.m1_rate < first.m1_rate * 0.5, 'the 1-minute rate decays without events');
  t.ok(later.m15_rate > later.m1_rate, 'the 15-minute rate decays slower');
  advance(24 * 3_600_000);
  t.ok(m.json().m1_rate < 1e-6, 'a long idle period is caught up (bounded)');
});

t.test('Timer: histogram of seconds plus rates', async (t) => {
  const { clock } = manualClock();
  const timer = new Timer(clock);
  timer.update(0.5);
  timer.update(1.5);
  t.match(timer.json(), { count: 2, min: 0.5, max: 1.5, mean: 1, duration_units: 'seconds', rate_units: 'calls/second' });
  t.notOk('units' in timer.json());
});

t.test('MetricsRegistry: idempotent registration, one kind per name, sorted snapshot', async (t) => {
  const { clock } = manualClock();
  const r = new MetricsRegistry(clock);
  const c = r.counter('b.counter', 'B');
  t.equal(r.counter('b.counter', 'again'), c, 'same counter');
  t.equal(r.help('b.counter'), 'B', 'first help wins');
  t.throws(() => r.meter('b.counter', 'x'), /already a counter/);
  r.counter('a.counter', 'A').inc(2);
  let reads = 0;
  r.onSnapshot(() => void reads++);
  r.gauge('g', 'G', () => reads * 10);
  const snap = r.snapshot();
  t.same(Object.keys(snap.counters), ['a.counter', 'b.counter']);
  t.same(snap.counters['a.counter'], { count: 2 });
  t.same(snap.gauges.g, { value: 10 }, 'onSnapshot runs before gauges are read');
  t.equal(r.sumOf('a.counter'), 0);
});

t.test('MetricsRegistry: a counter counted elsewhere is read at every snapshot', async (t) => {
  const { clock } = manualClock();
  const r = new MetricsRegistry(clock);
  const driver = { offers: 0 };
  r.countedElsewhere('x.offers.counter', 'X', () => driver.offers);
  driver.offers = 3;
  t.same(r.snapshot().counters['x.offers.counter'], { count: 3 });
  driver.offers = 5;
  t.same(r.snapshot().counters['x.offers.counter'], { count: 5 });
  t.match(prometheusText(r), /# TYPE x_offers_counter counter\nx_offers_counter 5\n/);
  t.throws(() => r.counter('x.offers.counter', 'X'), /counted elsewhere/, 'cannot be incremented here');
});

t.test('prometheusText: names, HELP escaping, empty registry', async (t) => {
  t.equal(promName('marathon.apps-x.active.gauge'), 'marathon_apps_x_active_gauge');
  t.equal(promName('2xx.rate'), '_2xx_rate');
  const { clock } = manualClock();
  const r = new MetricsRegistry(clock);
  t.equal(prometheusText(r), '');
  r.counter('c', 'line one\nback\\slash').inc();
  r.histogram('h', 'H').update(4);
  const text = prometheusText(r);
  t.match(text, '# HELP c line one\\nback\\\\slash\n# TYPE c counter\nc 1\n');
  t.match(text, '# TYPE h summary\nh{quantile="0.5"} 4\n');
  t.match(text, 'h_sum 4\nh_count 1\n');
});
