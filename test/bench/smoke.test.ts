import { spawnSync } from 'node:child_process';
import t from 'tap';
import { runApiBench } from '../../bench/api';
import { runSize, SHAPE } from '../../bench/match';
import { AllocSampler } from '../../bench/lib/alloc-sampler';
import { runSimBench } from '../../bench/sim';
import { runLaunchBench } from '../../bench/launch';
import { DEFAULT_SCALE_LAG_OPTIONS, runScaleLagBench } from '../../bench/scale-lag';
import { measure as measureWhatIf } from '../../bench/what-if';
import { nodeArgsFor } from '../harness/node-entry';
import { repoPath } from '../harness/repo-path';

// Smoke runs of the benchmarks at a tiny size, so they cannot rot, and proof that a benchmark that
// did not do all of its work says so and exits non-zero. No timing is asserted here: figures are
// the benchmarks' job (bench/README.md), and these machines are noisy.

const TINY = { ...SHAPE, agents: 60, racks: 6 };

t.test('bench:match places every instance through the real core at a tiny size', async (t) => {
  for (const store of ['none', 'memory'] as const) {
    const r = runSize(300, TINY, 20, { store });
    t.strictSame(r.problems, [], `${store}: it did all of its work`);
    t.equal(r.placed, 300, `${store}: all placed`);
    t.equal(r.appsAccepted, 20, `${store}: every app accepted`);
    t.ok(r.instanceEvents >= 600, `${store}: a Scheduled and a Provisioned event per instance`);
    t.ok(r.batches >= 1 && r.placementsPerSec > 0 && r.peakHeapMib > 0, `${store}: figures reported`);
    t.ok(Number.isInteger(r.queuePageFaults) && r.queuePageFaults >= 0 && Number.isInteger(r.matchPageFaults) && r.matchPageFaults >= 0, `${store}: page faults counted`);
  }
});

t.test('bench:match --alloc counts what the queue build and the match allocate', async (t) => {
  const alloc = new AllocSampler(1024);
  try {
    const r = runSize(300, TINY, 20, { store: 'none', alloc });
    t.strictSame(r.problems, [], 'it did all of its work');
    // 300 instances cannot be made, nor placed, without allocating: each phase's count is at least a byte per instance.
    t.ok((r.queueAllocBytes ?? 0) >= 300, `the queue build: ${r.queueAllocBytes} bytes`);
    t.ok((r.matchAllocBytes ?? 0) >= 300, `the match: ${r.matchAllocBytes} bytes`);
  } finally {
    alloc.close();
  }
  t.equal(runSize(300, TINY, 20, { store: 'none' }).matchAllocBytes, undefined, 'without --alloc nothing is counted');
});

t.test('bench:what-if forks a tiny cluster, scales an app up in the fork and asks its capacity, and checks it', async (t) => {
  const problems: string[] = [];
  const r = measureWhatIf(200, problems);
  t.strictSame(problems, [], 'it did all of its work');
  t.equal(r.launched, 100, 'the scale-up launched 100 instances in the fork');
  t.ok(r.fits > 0 && r.simulateWallMs >= 0 && r.capacityWallMs >= 0, 'figures reported');
});

t.test('bench:match reports what it did not do', async (t) => {
  const capped = runSize(300, TINY, 20, { store: 'none', maxRunningDeployments: 2 });
  t.equal(capped.appsAccepted, 2, 'the deployment cap refuses 18 of the 20 apps');
  t.match(capped.problems, [/^300 instances: 18 of 20 apps refused \(first: \/bench\/app-2: Max number of running deployments is sealed: 2\)$/, /^300 instances: placed 30 /]);
  const small = runSize(300, { ...TINY, agents: 2 }, 20, { store: 'none' });
  t.match(small.problems, [/^300 instances: placed \d+ \(\d+ still waiting in the launch queue after \d+ offer cycles\)$/], 'a cluster too small to hold them');
});

t.test('bench:match and bench:sim exit non-zero, saying why, when they cannot place everything', async (t) => {
  const runs: [string, string[], RegExp][] = [
    ['bench/match.ts', ['--sizes', '300', '--agents', '2', '--apps', '20', '--repeat', '1', '--no-warmup'], /bench:match: FAILED, it did not do all of its work:\n {2}- 300 instances: placed \d+ /],
    ['bench/sim.ts', ['--agents', '2', '--instances', '1000', '--hours', '0.05'], /bench:sim: FAILED, it did not do all of its work:\n {2}- 2 agents \/ 1000 instances \/ 0\.05 h: at most 640 of 1000 instances ran at once: not everything was placed/],
  ];
  for (const [entry, args, message] of runs) {
    const run = spawnSync(process.execPath, [...nodeArgsFor(entry), ...args], { cwd: repoPath('.'), encoding: 'utf8', timeout: 300_000 });
    t.equal(run.status, 1, `${entry} exits 1`);
    t.match(run.stderr, message, `${entry} says what is missing`);
  }
});

t.test('every benchmark refuses a command line it cannot run in one line (exit 2) before any work, and answers --help (exit 0)', async (t) => {
  const rows: [string, string[], RegExp][] = [
    ['bench/match.ts', ['--sizes', '0'], /^bench:match: --sizes must be from 1 to \d+ \(got 0\) \(--help lists the options\)\n$/],
    ['bench/match.ts', ['--sizes', '1000', '--repeat', '0'], /^bench:match: --repeat must be from 1 to 100 \(got 0\)/],
    ['bench/match.ts', ['--store', 'sql'], /^bench:match: --store must be one of none, memory \(got 'sql'\)/],
    ['bench/match.ts', ['--bogus'], /^bench:match: Unknown option '--bogus'/],
    ['bench/sim.ts', ['--instances', '500', '--hours', '1'], /^bench:sim: --instances and --hours set a custom run, which needs --agents/],
    ['bench/sim.ts', ['--agents', '100', '--instances', '0'], /^bench:sim: --instances must be from 1 to \d+ \(got 0\)/],
    ['bench/what-if.ts', ['--sizes', '150'], /^bench:what-if: --sizes must be multiples of 100 \(got 150\)/],
    ['bench/launch.ts', ['--apps', '0'], /^bench:launch: --apps must be from 1 to 1000 \(got 0\)/],
  ];
  for (const [entry, args, message] of rows) {
    const run = spawnSync(process.execPath, [...nodeArgsFor(entry), ...args], { cwd: repoPath('.'), encoding: 'utf8', timeout: 300_000 });
    t.equal(run.status, 2, `${entry} ${args.join(' ')}: exit 2`);
    t.match(run.stderr, message, `${entry} ${args.join(' ')}: one line naming the option`);
    t.equal(run.stdout, '', `${entry} ${args.join(' ')}: no work started`);
  }
  for (const entry of ['bench/match.ts', 'bench/sim.ts', 'bench/what-if.ts', 'bench/launch.ts']) {
    const run = spawnSync(process.execPath, [...nodeArgsFor(entry), '--help'], { cwd: repoPath('.'), encoding: 'utf8', timeout: 300_000 });
    t.equal(run.status, 0, `${entry} --help: exit 0`);
    t.match(run.stdout, /^usage: npm run bench:[a-z-]+ -- \[options\]\n[\s\S]*\n {2}--help {2,}this text\n$/, `${entry} --help: the usage, nothing run`);
  }
});

t.test('bench:sim runs the generated workload with invariants on, places everything and checks it', async (t) => {
  const r = runSimBench(12, 60, 0.25, true);
  t.strictSame(r.problems, [], 'it did all of its work');
  t.ok(r.passed, 'no invariant violated');
  t.equal(r.peakRunning, 60, 'every instance ran');
  t.equal(r.liveAtEnd, 60, 'none lost');
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

t.test('bench:api answers every request 2xx, creates and deletes every app, delivers every event', { timeout: 300_000 }, async (t) => {
  const r = await runApiBench({
    apps: 5, instances: 4, moreApps: 10, agents: 4, seconds: 1, requestsPerLoad: 200, connections: 2, creates: 20, coreSamples: 5, subscribers: 10, events: 30, listChanges: 2, settleMs: 5, tasksRightAfter: true,
  }, () => undefined);
  t.strictSame(r.problems, [], 'it did all of its work');
  t.equal(r.loads.find((l) => l.name === 'right after the set-up: GET /v2/tasks (20 tasks)')?.ok2xx, 1, '--tasks-right-after: one read right after the first set-up');
  t.ok(r.loads.length >= 9 && r.loads.every((l) => l.ok2xx > 0 && l.non2xx === 0 && l.errors === 0), 'every load answered 2xx');
  t.equal(r.sse?.deliveries, 300, 'every event reached every subscriber');
  t.ok((r.pingRatio ?? 0) > 0 && (r.core?.createP50Ms ?? 0) > 0, 'figures reported');
  t.strictSame(r.afterChange.map((f) => [f.name, f.changes]), [['GET /v2/apps', 2], ['GET /v2/tasks', 2]], 'the reads after each one-app change answered');
  t.equal(r.targets.length, 7, 'every target judged: the two lists, /ping, the core, POST, DELETE, events');
  t.ok(r.targets.every((x) => typeof x.met === 'boolean' && x.measured.length > 0), 'each with what it was judged on');
  const apps = r.loads.find((l) => l.name === 'GET /v2/apps (15 apps)' && l.connections === 1);
  t.equal(apps?.timesMs?.length, apps?.answers, 'a list load keeps every answer\'s time, the first included');
});

t.test('bench:api --only ping --rounds 2 measures the baseline and pacer twice each, and nothing else', { timeout: 300_000 }, async (t) => {
  const r = await runApiBench({
    apps: 5, instances: 4, moreApps: 10, agents: 4, seconds: 1, requestsPerLoad: 200, connections: 2, creates: 20, coreSamples: 5, subscribers: 10, events: 30, pingRounds: 2, only: 'ping',
  }, () => undefined);
  t.strictSame(r.problems, [], 'it did all of its work');
  t.strictSame(r.loads.map((l) => l.name), ['baseline fastify GET /ping', 'pacer GET /ping', 'baseline fastify GET /ping', 'pacer GET /ping'], 'alternate rounds, no other load');
  t.ok(r.loads.every((l) => l.ok2xx > 0 && l.non2xx === 0 && l.errors === 0), 'every load answered 2xx');
  t.ok((r.pingRatio ?? 0) > 0 && (r.pingCpuUs?.pacer ?? 0) > 0 && (r.pingCpuUs?.baseline ?? 0) > 0, 'medians reported');
});

t.test('bench:scale-lag creates, deletes and runs every instance through the API while pinging, and reports each phase', { timeout: 300_000 }, async (t) => {
  // Small bounds, so that offers are kept for later inputs and creations deferred, as at 100,000.
  const bounds = { launchesPerInput: 7, launchesPerOfferBatch: 40, instancesPerInput: 11 };
  const r = await runScaleLagBench({ instances: 300, agents: 6, speed: 50, pingEveryMs: 20, timeoutS: 120, ...bounds }, () => undefined);
  t.strictSame(r.problems, [], 'it did all of its work');
  t.strictSame(r.phases.map((p) => p.name), ['POST 300 instances no agent can take', 'DELETE the app of 300 Scheduled instances', 'scale-up PUT 0 → 300 instances']);
  t.ok(r.phases.every((p) => p.requestMs > 0 && p.doneMs >= 0 && p.pings > 0), 'figures reported for every phase');
  const up = r.phases[2];
  t.ok(up.coreInputs > 300 / 7 && up.pacer.sumMs > 0 && up.cluster.sumMs > 0, 'the scale-up took many core inputs; time in the core and in the simulated cluster reported');
  t.ok(up.pacer.maxMs <= up.pacer.sumMs && up.gc.maxMs <= up.gc.sumMs, 'a longest stretch is part of its sum');
  t.ok(r.phases.every((p) => p.cpuMs > 0 && p.cpuShare > 0), 'the process\'s CPU time over every phase reported');
  t.ok(r.phases.every((p) => Array.isArray(p.stretches) && p.slowInputCount >= p.slowInputs.length && p.stretchCpuMaxMs >= 0), 'blocked stretches and slow inputs reported for every phase');
  t.ok(r.phases.every((p) => p.stretches.every((s) => s.wallMs > 50 && ['no CPU', 'GC', 'input', 'cluster', 'other'].includes(s.cause))), 'every stretch listed is longer than 50 ms and has a cause');
  t.ok(r.phases.every((p) => (p.stretches.length > 0) === (p.tickerMaxGapMs > 50)), 'stretches are listed exactly when the ticker\'s longest gap is over 50 ms');
  t.ok(r.phases.every((p) => p.longestInput !== ''), 'the longest core input or command is named in every phase');
});

t.test('bench:scale-lag says what it did not do', { timeout: 300_000 }, async (t) => {
  // Every phase has 1 ms of wall time: none can be done in it.
  const r = await runScaleLagBench({ ...DEFAULT_SCALE_LAG_OPTIONS, instances: 300, agents: 1, speed: 1, pingEveryMs: 20, timeoutS: 0.001 }, () => undefined);
  t.match(r.problems.join('\n'), /not done within 0\.001 s/, 'a phase cut short is reported, not passed');
});
