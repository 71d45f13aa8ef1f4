import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Instance } from '../src/scheduler/model/instance';
import { SqliteStore, type StoreSynchronous } from '../src/store/sqlite/sqlite-store';

/**
 * bench:store — the embedded store on the launch hot path: `saveInstances` calls per second (one
 * transaction each) and instance records written per second, for batches of 1, 10 and 100
 * instances, with `synchronous` NORMAL (the default) and FULL, on a fresh file in a temp dir.
 * Each record is a Provisioned app instance with one task and an agent with attributes (about
 * 700 bytes of JSON), re-saved in place after the first round, as relaunches and status updates do.
 * Prints a table; writes nothing.
 *
 *   npx tsx bench/store.ts                       # 2 s per configuration
 *   npx tsx bench/store.ts --seconds 5 --dir /var/lib/pacer   # longer, on the disk that matters
 */

/** Figures of one configuration. */
export interface StoreBenchResult {
  synchronous: StoreSynchronous;
  batch: number;
  calls: number;
  callsPerSec: number;
  instancesPerSec: number;
  p50Us: number;
  p99Us: number;
}

const DISTINCT_INSTANCES = 10_000;

function benchInstance(n: number): Instance {
  const id = `bench_app-${n % 100}.instance-${String(n).padStart(8, '0')}`;
  return Instance.from({
    instanceId: id, runSpecId: `/bench/app-${n % 100}`, kind: 'app', runSpecVersion: '2026-01-01T00:00:00.000Z',
    configVersion: '2026-01-01T00:00:00.000Z', incarnation: 1, goal: 'Running', condition: 'Provisioned',
    conditionSinceMs: 1_767_225_600_000 + n, role: '*',
    agent: {
      agentId: `agent-${n % 1000}`, hostname: `host-${n % 1000}.example.com`, region: 'eu', zone: `eu-${n % 4}`,
      attributes: [{ name: 'rack', type: 'text', text: `r${n % 100}` }, { name: 'generation', type: 'scalar', scalar: 3 }],
    },
    tasks: [{
      taskId: `${id}._app.1`, condition: 'Provisioned', hostPorts: [31000 + (n % 2000)],
      resources: { cpusMilli: 100, memMilli: 32_000, diskMilli: 0, gpus: 0 }, launchedAtMs: 1_767_225_600_000 + n,
    }],
  });
}

/** Save batches of `batch` instances for about `seconds` on a fresh store in `dir`. */
export function runStoreBench(dir: string, synchronous: StoreSynchronous, batch: number, seconds: number): StoreBenchResult {
  const path = join(dir, `bench-${synchronous}-${batch}.db`);
  const store = SqliteStore.open(path, { synchronous });
  const pool = Array.from({ length: DISTINCT_INSTANCES }, (_, n) => benchInstance(n));
  const callUs: number[] = [];
  const endMs = performance.now() + seconds * 1000;
  let next = 0;
  while (performance.now() < endMs) {
    const instances = Array.from({ length: batch }, () => pool[next++ % DISTINCT_INSTANCES]);
    const t0 = performance.now();
    store.saveInstances(instances);
    callUs.push((performance.now() - t0) * 1000);
  }
  store.close();
  const wallSec = callUs.reduce((a, b) => a + b, 0) / 1e6;
  callUs.sort((a, b) => a - b);
  return {
    synchronous, batch, calls: callUs.length, callsPerSec: Math.round(callUs.length / wallSec),
    instancesPerSec: Math.round((callUs.length * batch) / wallSec), p50Us: Math.round(pct(callUs, 0.5)), p99Us: Math.round(pct(callUs, 0.99)),
  };
}

function pct(sorted: readonly number[], p: number): number {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

function main(): void {
  const argv = process.argv.slice(2);
  const arg = (name: string): string | undefined => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const seconds = Number(arg('--seconds') ?? 2);
  const dir = mkdtempSync(join(arg('--dir') ?? tmpdir(), 'pacer-bench-store-'));
  try {
    console.log(`bench:store  saveInstances on ${dir}, ${seconds} s per configuration, node ${process.version}`);
    console.log('synchronous  batch     calls   calls/s  instances/s  p50-us  p99-us');
    for (const synchronous of ['NORMAL', 'FULL'] as const) {
      for (const batch of [1, 10, 100]) {
        const r = runStoreBench(dir, synchronous, batch, seconds);
        console.log(`${r.synchronous.padEnd(11)} ${String(r.batch).padStart(6)} ${String(r.calls).padStart(9)} ${String(r.callsPerSec).padStart(9)} ${String(r.instancesPerSec).padStart(12)} ${String(r.p50Us).padStart(7)} ${String(r.p99Us).padStart(7)}`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) main();
