import t from 'tap';
import { runSize, SHAPE } from '../../bench/match';
import { runSimBench } from '../../bench/sim';
import { runLaunchBench } from '../../bench/launch';

// Smoke runs of the benchmarks at a tiny size, so they cannot rot. No timing is asserted here:
// figures are the benchmarks' job (bench/README.md), and these machines are noisy.

t.test('bench:match places every instance through the real core at a tiny size', async (t) => {
  const shape = { ...SHAPE, agents: 60, racks: 6 };
  for (const store of ['none', 'memory'] as const) {
    const r = runSize(300, shape, 20, store);
    t.equal(r.placed, 300, `${store}: all placed`);
    t.ok(r.events >= 600, `${store}: a Scheduled and a Provisioned event per instance, plus deployment events`);
    t.ok(r.batches >= 1 && r.placementsPerSec > 0 && r.peakHeapMib > 0, `${store}: figures reported`);
  }
});

t.test('bench:sim runs the generated workload with invariants on and reports its figures', async (t) => {
  const r = runSimBench(12, 60, 0.25, true);
  t.ok(r.passed, 'no invariant violated');
  t.ok(r.loopSteps > 100 && r.events > 100 && r.virtualPerWall > 0);
});

t.test('bench:launch runs a real pacer, launches every task through the API and checks it all', async (t) => {
  const r = await runLaunchBench({ apps: 2, instances: 5, pacerArgs: [], timeoutMs: 60_000 });
  t.same(r.problems, [], 'it did all of its work');
  t.match(r, { tasks: 10, requests: 2, runningOnStream: 10, runningInApi: 10, processes: 10 });
  t.ok(r.tasksPerSec > 0 && r.allRunningMs >= r.firstRunningMs, 'figures reported');
});

t.test('bench:launch says what it did not do', async (t) => {
  // 50 tasks cannot all be running 1 ms after their app was created.
  const r = await runLaunchBench({ apps: 1, instances: 50, pacerArgs: [], timeoutMs: 1 });
  t.match(r.problems[0], /^only \d+ of 50 tasks reached TASK_RUNNING within 0 s$/, 'a run cut short is reported, not passed');
});
