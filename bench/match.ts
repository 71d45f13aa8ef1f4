import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import seedrandom from 'seedrandom';
import { HeapLoop } from '../src/scheduler/kernel/heap-loop';
import type { SchedulerInput } from '../src/scheduler/model/inputs';
import { Scheduler } from '../src/scheduler/scheduler';
import { MemoryStore } from '../src/store/memory-store';
import type { Store } from '../src/scheduler/ports/store';
import { BenchCluster, type BenchClusterShape } from './lib/bench-cluster';
import { benchWorkload } from './lib/bench-workload';

/**
 * bench:match — offer matching through the real core (Scheduler.handle with `offers` inputs, the
 * production code path): 10,000 agents in 3 regions × 4 zones and 100 racks, 1,000 apps with a
 * constraint/role/port mix, at 1k, 10k, 100k and 1M instances. Reports placements per second,
 * wall time to place everything (instance records and events included), p50/p99 per offer batch
 * and peak heap; writes bench/results/match.json.
 *
 *   npm run bench:match                  # the full curve (about a minute)
 *   npm run bench:match -- --sizes 1000  # one size (the test suite's smoke run uses a tiny one)
 *   npm run bench:match -- --store memory # with the in-memory store (default: persistence off)
 */
/** Figures of one benchmark size. */
export interface SizeResult {
  instances: number;
  placed: number;
  queueBuildMs: number;
  matchWallMs: number;
  placementsPerSec: number;
  batches: number;
  batchP50Ms: number;
  batchP99Ms: number;
  cycles: number;
  events: number;
  peakHeapMib: number;
}

export const SHAPE: BenchClusterShape = {
  agents: 10_000, regions: 3, zonesPerRegion: 4, racks: 100, cpus: 16, memMib: 65_536, ports: [31000, 32999], reservedEvery: 10,
};
const APPS = 1000;
const OFFERS_PER_BATCH = 500;

/** Persistence off: counts writes only (the embedded store has its own benchmark). */
const NULL_STORE: Store = {
  saveRoot: () => undefined, saveRunSpec: () => undefined, deleteRunSpec: () => undefined,
  saveRunSpecVersion: () => undefined, deleteRunSpecVersion: () => undefined,
  saveRootVersion: () => undefined, deleteRootVersion: () => undefined,
  saveDeployment: () => undefined, deleteDeployment: () => undefined, saveInstances: () => undefined,
  deleteInstance: () => undefined, saveFrameworkId: () => undefined, setAside: () => undefined,
  load: () => ({ runSpecs: [], versions: [], rootVersions: [], deployments: [], instances: [] }),
};

/** Places `instances` instances of `apps` apps on a fresh cluster of `shape` through the real core. */
export function runSize(instances: number, shape: BenchClusterShape, apps: number, store: 'none' | 'memory'): SizeResult {
  const cluster = new BenchCluster(shape);
  const loop = new HeapLoop<SchedulerInput>();
  let events = 0;
  const scheduler = new Scheduler(
    {
      clock: { nowMs: () => 1_767_225_600_000 },
      random: { next: seedrandom('bench-match') },
      timers: { schedule: (due, input) => loop.schedule(due, input), cancel: (id) => loop.cancel(id) },
      driver: cluster,
      store: store === 'memory' ? new MemoryStore() : NULL_STORE,
      prober: { probe: () => undefined },
    },
    { maxInstancesPerOffer: 1000, reconciliationIntervalMs: 0 },
  );
  scheduler.subscribe(() => {
    events++;
  });
  const workload = benchWorkload(Math.min(apps, instances), instances, shape.regions, shape.racks);
  const q0 = performance.now();
  for (const spec of workload) scheduler.handle({ type: 'putRunSpec', spec });
  const queueBuildMs = performance.now() - q0;
  const batchMs: number[] = [];
  let peakHeap = process.memoryUsage().heapUsed;
  let cycles = 0;
  const m0 = performance.now();
  for (;;) {
    const before = cluster.launchedTasks;
    const offers = cluster.offerAll();
    cycles++;
    for (let i = 0; i < offers.length; i += OFFERS_PER_BATCH) {
      const b0 = performance.now();
      scheduler.handle({ type: 'offers', offers: offers.slice(i, i + OFFERS_PER_BATCH) });
      batchMs.push(performance.now() - b0);
    }
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
    if (cluster.launchedTasks === before || scheduler.queue().length === 0) break;
  }
  const matchWallMs = performance.now() - m0;
  const placed = cluster.launchedTasks;
  batchMs.sort((a, b) => a - b);
  return {
    instances, placed, queueBuildMs: round(queueBuildMs), matchWallMs: round(matchWallMs),
    placementsPerSec: Math.round(placed / (matchWallMs / 1000)), batches: batchMs.length,
    batchP50Ms: round(pct(batchMs, 0.5)), batchP99Ms: round(pct(batchMs, 0.99)), cycles, events,
    peakHeapMib: Math.round(peakHeap / 1048576),
  };
}

function pct(sorted: number[], p: number): number {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

function round(x: number): number {
  return Math.round(x * 10) / 10;
}

function main(): void {
  const argv = process.argv.slice(2);
  const sizesArg = argv.indexOf('--sizes');
  const sizes = sizesArg >= 0 ? argv[sizesArg + 1].split(',').map(Number) : [1000, 10_000, 100_000, 1_000_000];
  const agentsArg = argv.indexOf('--agents');
  const shape = agentsArg >= 0 ? { ...SHAPE, agents: Number(argv[agentsArg + 1]) } : SHAPE;
  const storeArg = argv.indexOf('--store');
  const store = storeArg >= 0 && argv[storeArg + 1] === 'memory' ? 'memory' : 'none';
  const results: SizeResult[] = [];
  console.log(`bench:match  ${shape.agents} agents (${shape.regions} regions × ${shape.zonesPerRegion} zones, ${shape.racks} racks), ${APPS} apps, store ${store}, node ${process.version}`);
  console.log('instances   placed     queue-ms  match-ms  placements/s  batches  p50-ms  p99-ms  cycles  events    heap-MiB');
  for (const n of sizes) {
    const r = runSize(n, shape, APPS, store);
    results.push(r);
    console.log(`${String(r.instances).padStart(9)} ${String(r.placed).padStart(8)} ${String(r.queueBuildMs).padStart(10)} ${String(r.matchWallMs).padStart(9)} ${String(r.placementsPerSec).padStart(13)} ${String(r.batches).padStart(8)} ${String(r.batchP50Ms).padStart(7)} ${String(r.batchP99Ms).padStart(7)} ${String(r.cycles).padStart(7)} ${String(r.events).padStart(8)} ${String(r.peakHeapMib).padStart(10)}`);
  }
  if (results.length > 1) {
    const first = results[0];
    console.log('scaling (match ms per 1k instances): ' + results.map((r) => `${r.instances}: ${round(r.matchWallMs / (r.instances / 1000))}`).join('  ') + `  (first ${first.instances})`);
  }
  writeFileSync(`bench/results/match-${store}.json`, `${JSON.stringify({ shape, apps: APPS, store, node: process.version, results }, null, 2)}\n`);
}

if (require.main === module) main();
