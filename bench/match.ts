import { performance } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import seedrandom from 'seedrandom';
import { DEFAULT_SCHEDULER_OPTIONS, HeapLoop, Scheduler } from '../src/scheduler/index';
import type { SchedulerInput } from '../src/scheduler/model/inputs';
import { MemoryStore } from '../src/store/memory-store';
import { BenchCluster, TASK_CHECK_EVERY, type BenchClusterShape } from './lib/bench-cluster';
import { benchWorkload } from './lib/bench-workload';
import { quantile } from './lib/quantile';
import { NULL_STORE } from './lib/null-store';
import { AllocSampler } from './lib/alloc-sampler';
import { finishRun, formatRunInfo, runBenchMain, runInfo } from './lib/run-info';
import { type BenchUsage, readBenchArgs } from './lib/bench-args';

/**
 * bench:match — offer matching through the real core (Scheduler.handle with `offers` inputs, the
 * production code path): 10,000 agents in 3 regions × 4 zones and 100 racks, 1,000 apps with a
 * constraint/role/port mix, at 10k, 100k and 1M instances. The apps are created one by one
 * (`putRunSpec`, each its own deployment, as API clients create them) with the cap on running
 * deployments raised to the number of apps, so that every app is accepted. Reports the queue build
 * (creating the apps and their Scheduled instances), the match (placing them all, instance
 * records and events included), placements per second, µs per placement, p50/p99 per offer batch
 * and peak heap; writes bench/results/match-<store>.json.
 *
 * It checks that it did all of its work — every app accepted, every instance placed, two
 * instance_changed_events per instance — and exits 1 naming what is missing otherwise.
 *
 *   npm run bench:match                                # 10k, 100k, 1M, 3 runs each after a warm-up
 *   npm run bench:match -- --sizes 100000 --repeat 1   # one size, once
 *   npm run bench:match -- --store memory              # with the in-memory store (default: persistence off)
 *   npm run bench:match -- --agents 2 --sizes 300      # a cluster too small: fails, saying why
 *   npm run bench:match -- --offer-batch-cap 2000      # pacer's default cap on placements per offer batch (default here: none)
 */
/** Figures of one benchmark size. */
export interface SizeResult {
  readonly instances: number;
  readonly apps: number;
  readonly appsAccepted: number;
  readonly placed: number;
  readonly queueBuildMs: number;
  /** CPU time (user + system, all threads of the process: GC helpers included) of the queue build. */
  readonly queueCpuMs: number;
  readonly matchMs: number;
  /** CPU time of the match, as `queueCpuMs`: steadier than wall time on a shared machine. */
  readonly matchCpuMs: number;
  /**
   * Minor page faults of the process (first touches of new memory, GC threads included) during
   * the queue build and the match: times the machine's cost of a first touch (the run's probe),
   * the part of each phase's time that is the machine's price for memory new to the process.
   */
  readonly queuePageFaults: number;
  readonly matchPageFaults: number;
  readonly placementsPerSec: number;
  readonly usPerPlacement: number;
  readonly batches: number;
  readonly batchP50Ms: number;
  readonly batchP99Ms: number;
  readonly cycles: number;
  readonly events: number;
  readonly instanceEvents: number;
  readonly peakHeapMib: number;
  /** With `--alloc`: bytes the queue build and the match allocated, garbage included (bench/lib/alloc-sampler.ts). */
  readonly queueAllocBytes?: number;
  readonly matchAllocBytes?: number;
  /** Why this run did not do all of its work; empty when it did. */
  readonly problems: readonly string[];
}

export const SHAPE: BenchClusterShape = {
  agents: 10_000, regions: 3, zonesPerRegion: 4, racks: 100, cpus: 16, memMib: 65_536, ports: [31000, 32999], reservedEvery: 10,
};
const APPS = 1000;
const OFFERS_PER_BATCH = 500;

/** How one size runs. */
export interface SizeOptions {
  readonly store: 'none' | 'memory';
  /** The cap on running deployments (default: the number of apps, so that every app is accepted). */
  readonly maxRunningDeployments?: number;
  /**
   * Most instances placed from one batch of offers (`SchedulerOptions.launchesPerOfferBatch`).
   * Default: no cap, like the per-input cap the bench lifts too, so that the match measures
   * matching: with pacer's default of 2,000 each batch of 500 offers places 2,000 and declines the
   * rest, and the 1M run takes 37 offer cycles of 10,000 offers instead of one or two.
   */
  readonly launchesPerOfferBatch?: number;
  /** Counts what the queue build and the match allocate (`--alloc`; it slows both). */
  readonly alloc?: AllocSampler;
}

/** Places `instances` instances of `apps` apps on a fresh cluster of `shape` through the real core. */
export function runSize(instances: number, shape: BenchClusterShape, apps: number, options: SizeOptions): SizeResult {
  const appCount = Math.min(apps, instances);
  const cluster = new BenchCluster(shape);
  const loop = new HeapLoop<SchedulerInput>();
  let events = 0;
  let instanceEvents = 0;
  const scheduler = new Scheduler(
    {
      clock: { nowMs: () => 1_767_225_600_000 },
      // Seeded, at the cost of production's Math.random (a few ns a draw): seedrandom's default
      // ARC4 cost ~0.25 µs a draw, i.e. ~1 µs of every instance id's four draws.
      random: { next: seedrandom.alea('bench-match') },
      timers: { schedule: (due, input) => loop.schedule(due, input), cancel: (id) => loop.cancel(id) },
      driver: cluster,
      store: options.store === 'memory' ? new MemoryStore() : NULL_STORE,
      prober: { probe: () => undefined },
    },
    // One batch of 500 offers is one input, as before the per-input bound (launchesPerInput, issue
    // 11 item 4), which only splits the same work over more inputs: bench:scale-lag measures it.
    { maxInstancesPerOffer: 1000, reconciliationIntervalMs: 0, maxRunningDeployments: options.maxRunningDeployments ?? appCount, maxTotalInstances: Math.max(instances, DEFAULT_SCHEDULER_OPTIONS.maxTotalInstances), launchesPerInput: Number.MAX_SAFE_INTEGER, launchesPerOfferBatch: options.launchesPerOfferBatch ?? Number.MAX_SAFE_INTEGER },
  );
  scheduler.subscribe((event) => {
    events++;
    if (event.eventType === 'instance_changed_event') instanceEvents++;
  });
  const workload = benchWorkload(appCount, instances, shape.regions, shape.racks);
  const refused: string[] = [];
  options.alloc?.start();
  const qf0 = process.resourceUsage().minorPageFault;
  const q0 = performance.now();
  const qc0 = process.cpuUsage();
  for (const spec of workload) {
    const result = scheduler.handle({ type: 'putRunSpec', spec });
    if (result === undefined || !result.ok) refused.push(`${spec.id}: ${result?.ok === false ? result.message : 'no answer'}`);
  }
  const queueBuildMs = performance.now() - q0;
  const queueCpuMs = cpuMsSince(qc0);
  const queuePageFaults = process.resourceUsage().minorPageFault - qf0;
  const queueAllocBytes = options.alloc?.stop();
  const batchMs: number[] = [];
  // V8's used heap size (what `process.memoryUsage().heapUsed` reports), read after every batch
  // inside the timed loop: process.memoryUsage() also reads the process's RSS and cost ~0.25 ms a
  // call at this heap size (~0.25 s of the 1M match phase in a CPU profile), this ~2 µs.
  let peakHeap = getHeapStatistics().used_heap_size;
  let cycles = 0;
  options.alloc?.start();
  const mf0 = process.resourceUsage().minorPageFault;
  const m0 = performance.now();
  const mc0 = process.cpuUsage();
  for (;;) {
    const before = cluster.launchedTasks;
    const offers = cluster.offerAll();
    cycles++;
    for (let i = 0; i < offers.length; i += OFFERS_PER_BATCH) {
      const b0 = performance.now();
      scheduler.handle({ type: 'offers', offers: offers.slice(i, i + OFFERS_PER_BATCH) });
      batchMs.push(performance.now() - b0);
      peakHeap = Math.max(peakHeap, getHeapStatistics().used_heap_size);
    }
    if (cluster.launchedTasks === before || scheduler.queue().length === 0) break;
  }
  const matchMs = performance.now() - m0;
  const matchCpuMs = cpuMsSince(mc0);
  const matchPageFaults = process.resourceUsage().minorPageFault - mf0;
  const matchAllocBytes = options.alloc?.stop();
  const placed = cluster.launchedTasks;
  const problems: string[] = [];
  if (refused.length > 0) problems.push(`${instances} instances: ${refused.length} of ${appCount} apps refused (first: ${refused[0]})`);
  if (placed !== instances) {
    const waiting = scheduler.queue().reduce((n, q) => n + q.scheduled, 0);
    problems.push(`${instances} instances: placed ${placed} (${waiting} still waiting in the launch queue after ${cycles} offer cycles)`);
  }
  if (cluster.checkedTasks < Math.floor(placed / TASK_CHECK_EVERY)) problems.push(`${instances} instances: only ${cluster.checkedTasks} launched tasks read and checked`);
  for (const p of cluster.taskProblems) problems.push(`${instances} instances: launched task wrong: ${p}`);
  if (instanceEvents < 2 * placed) problems.push(`${instances} instances: ${instanceEvents} instance_changed_events for ${placed} placements (expected Scheduled and Provisioned for each)`);
  return {
    instances, apps: appCount, appsAccepted: appCount - refused.length, placed,
    queueBuildMs: round(queueBuildMs), queueCpuMs: round(queueCpuMs), matchMs: round(matchMs), matchCpuMs: round(matchCpuMs), queuePageFaults, matchPageFaults,
    placementsPerSec: Math.round(placed / (matchMs / 1000)), usPerPlacement: round((matchMs * 1000) / Math.max(1, placed)),
    batches: batchMs.length, batchP50Ms: round(quantile(batchMs, 0.5)), batchP99Ms: round(quantile(batchMs, 0.99)), cycles, events,
    instanceEvents, peakHeapMib: Math.round(peakHeap / 1048576), queueAllocBytes, matchAllocBytes, problems,
  };
}

function cpuMsSince(start: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1000;
}

function mib(bytes: number | undefined): string {
  return ((bytes ?? 0) / 1048576).toFixed(1);
}

function perItem(bytes: number | undefined, count: number): number {
  return Math.round((bytes ?? 0) / Math.max(1, count));
}

function round(x: number): number {
  return Math.round(x * 10) / 10;
}

/** The run of `results` (one size, repeated) whose match time is the median. */
function medianRun(results: readonly SizeResult[]): SizeResult {
  return [...results].sort((a, b) => a.matchMs - b.matchMs)[Math.floor((results.length - 1) / 2)];
}

function median(values: readonly number[]): number {
  return quantile([...values], 0.5);
}

function row(r: SizeResult, spread: string): string {
  return `${String(r.instances).padStart(9)} ${String(r.placed).padStart(9)} ${String(r.queueBuildMs).padStart(9)} ${String(r.queueCpuMs).padStart(9)} ${String(r.matchMs).padStart(9)} ${String(r.matchCpuMs).padStart(9)} ${String(r.placementsPerSec).padStart(13)} ${String(r.usPerPlacement).padStart(7)} ${String(r.batchP50Ms).padStart(7)} ${String(r.batchP99Ms).padStart(8)} ${String(r.peakHeapMib).padStart(9)}  ${spread}`;
}

/** bench:match's command line (bench/lib/bench-args.ts: every value checked before any work). */
export const MATCH_USAGE: BenchUsage = {
  name: 'bench:match',
  summary: 'Offer matching through the real core: the queue build and the match of N instances of (by default) 1,000 apps on 10,000 agents.',
  options: {
    sizes: { kind: 'ints', help: 'instances per run, comma-separated', default: [10_000, 100_000, 1_000_000], min: 1, max: 10_000_000 },
    repeat: { kind: 'int', help: 'runs per size (the figures are the medians)', default: 3, min: 1, max: 100 },
    agents: { kind: 'int', help: 'agents in the cluster', default: SHAPE.agents, min: 1, max: 100_000 },
    apps: { kind: 'int', help: 'apps (at most one per instance)', default: APPS, min: 1, max: 100_000 },
    store: { kind: 'choice', help: 'the store the core writes to', default: 'none', choices: ['none', 'memory'] },
    'max-deployments': { kind: 'int', help: 'cap on running deployments (default: the number of apps, so every app is accepted)', min: 1, max: 1_000_000 },
    'offer-batch-cap': { kind: 'int', help: 'most placements per offer batch (default: no cap; pacer\'s own default is 2000)', min: 1, max: 10_000_000 },
    'no-warmup': { kind: 'flag', help: 'no warm-up run of min(10000, first size) instances before the measured runs' },
    alloc: { kind: 'flag', help: 'also count the bytes each phase allocates (slower; figures in bench/results/match-<store>-alloc.json)' },
    results: { kind: 'string', help: 'where to write the figures (default bench/results/match-<store>.json, or …-alloc.json with --alloc)' },
  },
};

function main(): number {
  const args = readBenchArgs(MATCH_USAGE, process.argv.slice(2));
  const sizes = args.ints('sizes');
  const repeat = args.int('repeat');
  const shape = { ...SHAPE, agents: args.int('agents') };
  const apps = args.int('apps');
  const store = args.text('store') === 'memory' ? 'memory' : 'none';
  const maxRunningDeployments = args.maybeNumber('max-deployments');
  const launchesPerOfferBatch = args.maybeNumber('offer-batch-cap');
  // --alloc: count what each phase allocates (bench/lib/alloc-sampler.ts); the warm-up is not counted.
  const alloc = args.flag('alloc') ? new AllocSampler() : undefined;
  const sizeOptions: SizeOptions = { store, maxRunningDeployments, launchesPerOfferBatch, alloc };
  const warmup = args.flag('no-warmup') ? 0 : Math.min(10_000, sizes[0]);
  const info = runInfo();
  console.log(`bench:match  ${formatRunInfo(info)}`);
  const appsShown = sizes.every((n) => n >= apps) ? `${apps}` : sizes.map((n) => Math.min(apps, n)).join(' / ');
  console.log(`${shape.agents} agents (${shape.regions} regions × ${shape.zonesPerRegion} zones, ${shape.racks} racks), ${appsShown} apps (one deployment each, at most one per instance), store ${store}, ${launchesPerOfferBatch === undefined ? 'no cap on placements per offer batch' : `at most ${launchesPerOfferBatch} placements per offer batch`}; ${repeat} run(s) per size, medians${warmup > 0 ? `, after a warm-up run of ${warmup}` : ''}`);
  const gc = (globalThis as { gc?: () => void }).gc;
  const problems: string[] = [];
  if (warmup > 0) problems.push(...runSize(warmup, shape, apps, { ...sizeOptions, alloc: undefined }).problems.map((p) => `warm-up: ${p}`));
  const runs = new Map<number, SizeResult[]>();
  for (let r = 0; r < repeat; r++) {
    for (const n of sizes) {
      gc?.();
      const result = runSize(n, shape, apps, sizeOptions);
      problems.push(...result.problems);
      runs.set(n, [...(runs.get(n) ?? []), result]);
    }
  }
  console.log('instances    placed  queue-ms  q-cpu-ms  match-ms  m-cpu-ms  placements/s  µs/pl.  p50-ms   p99-ms  heap-MiB  (match-ms of each run; queue-ms median)');
  const medians: (SizeResult & { queueBuildMedianMs: number })[] = [];
  for (const n of sizes) {
    const all = runs.get(n) ?? [];
    // The heap column is the largest of the runs' peaks (not the median run's): a peak is a bound.
    const m = { ...medianRun(all), queueBuildMedianMs: median(all.map((x) => x.queueBuildMs)), peakHeapMib: Math.max(...all.map((x) => x.peakHeapMib)) };
    medians.push(m);
    console.log(row({ ...m, queueBuildMs: m.queueBuildMedianMs }, `(${all.map((x) => x.matchMs).join(' / ')}; ${m.cycles} offer cycles, ${m.batches} batches of ≤ ${OFFERS_PER_BATCH} offers)`));
  }
  const touchUs = info.machine.pageTouchUs;
  for (const m of medians) {
    const cost = (faults: number): string => (touchUs === undefined ? '' : ` (≈ ${Math.round((faults * touchUs) / 1000)} ms of CPU at the probe's ${touchUs} µs each)`);
    console.log(`  ${String(m.instances).padStart(9)} instances, page faults (memory new to the process, the median run): queue build ${m.queuePageFaults}${cost(m.queuePageFaults)}, match ${m.matchPageFaults}${cost(m.matchPageFaults)}`);
  }
  if (alloc !== undefined) {
    alloc.close();
    console.log('allocated, garbage included (V8\'s sampling heap profiler; the times above ran with it, so they are slower): per size, the median run\'s');
    for (const m of medians) console.log(`  ${String(m.instances).padStart(9)} instances: queue build ${mib(m.queueAllocBytes)} MiB (${perItem(m.queueAllocBytes, m.instances)} B per instance), match ${mib(m.matchAllocBytes)} MiB (${perItem(m.matchAllocBytes, m.placed)} B per placement)`);
  }
  const growth = medians.length > 1 ? Math.round((medians[medians.length - 1].usPerPlacement / medians[0].usPerPlacement) * 100) / 100 : undefined;
  if (growth !== undefined) console.log(`per-placement cost ${medians[0].instances} → ${medians[medians.length - 1].instances}: ×${growth}`);
  // A run that counts allocations (or is profiled: `npm run profile:match`) is slower: its figures go to a file of their own.
  const results = args.text('results') ?? `bench/results/match-${store}${alloc === undefined ? '' : '-alloc'}.json`;
  return finishRun('bench:match', results, info, { shape, apps, store, repeat, warmup, medians, growth, runs: [...runs.values()].flat() }, problems);
}

runBenchMain('bench:match', module, main);
