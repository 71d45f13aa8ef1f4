import t from 'tap';
import { checkTargets, DEFAULT_API_BENCH_OPTIONS, type AfterChangeFigure, type LoadFigure } from '../../bench/api';

/** A 1-connection list load whose answers took `timesMs` (the first is the first read after its deployment). */
function load(name: string, timesMs: number[]): LoadFigure {
  const sorted = [...timesMs].sort((a, b) => a - b);
  return {
    name, connections: 1, requests: timesMs.length, ok2xx: timesMs.length, non2xx: 0, errors: 0, timeouts: 0, durationS: 10, reqPerSec: timesMs.length / 10,
    latencyP50Ms: sorted[Math.floor(sorted.length / 2)], latencyP99Ms: sorted[sorted.length - 1], latencyMaxMs: sorted[sorted.length - 1],
    answers: timesMs.length, p50Ms: sorted[Math.floor(sorted.length / 2)], p99Ms: sorted[sorted.length - 1], timesMs, firstMs: timesMs[0], slowest: [], responseBytes: 1, clientCpuUsPerAnswer: 1, cpuUsPerRequest: 1, gc: { count: 0, maxMs: 0, totalMs: 0 },
  };
}

function changes(name: string, timesMs: number[]): AfterChangeFigure {
  return { name, changes: timesMs.length, p50Ms: 0, maxMs: Math.max(...timesMs), timesMs, cpuUsPerRequest: 1, clientCpuUsPerRequest: 1 };
}

const fast = (n: number, ms: number): number[] => Array.from({ length: n }, () => ms);
const o = { ...DEFAULT_API_BENCH_OPTIONS, only: 'lists' as const };
const APPS = 'GET /v2/apps (10000 apps)';

const cases: { name: string; loads: LoadFigure[]; after: AfterChangeFigure[]; apps: boolean; tasks: boolean }[] = [
  { name: 'every read within its bound', loads: [load(APPS, [49, ...fast(199, 20)]), load('GET /v2/tasks (100000 tasks)', [490, ...fast(40, 100)])], after: [changes('GET /v2/apps', fast(20, 30)), changes('GET /v2/tasks', fast(20, 120))], apps: true, tasks: true },
  // A p99 over few answers is their maximum: a slow first read among 60 is the p99.
  { name: 'the first read after the deployment counts', loads: [load(APPS, [250, ...fast(59, 20)]), load('GET /v2/tasks (100000 tasks)', [510, ...fast(40, 100)])], after: [], apps: false, tasks: false },
  { name: 'the reads after one-app changes count', loads: [load(APPS, fast(200, 20)), load('GET /v2/tasks (100000 tasks)', fast(40, 100))], after: [changes('GET /v2/apps', fast(20, 60)), changes('GET /v2/tasks', [120, 501])], apps: false, tasks: false },
  { name: 'the second tasks load counts', loads: [load(APPS, fast(200, 20)), load('GET /v2/tasks (100000 tasks)', fast(40, 100)), load('GET /v2/tasks (109000 tasks)', [300, 520])], after: [], apps: true, tasks: false },
];

for (const c of cases) {
  t.test(c.name, async (t) => {
    const targets = checkTargets(o, c.loads, c.after, undefined);
    t.equal(targets.length, 2, 'the two list targets, nothing this run did not measure');
    t.equal(targets.find((x) => x.target.startsWith('GET /v2/apps'))?.met, c.apps, 'GET /v2/apps p99');
    t.equal(targets.find((x) => x.target.startsWith('GET /v2/tasks'))?.met, c.tasks, 'GET /v2/tasks every read');
  });
}

t.test('a run that measured nothing meets nothing', async (t) => {
  t.strictSame(checkTargets(o, [load(APPS, [])], [], undefined).map((x) => x.met), [false]);
});
