import { performance } from 'node:perf_hooks';
import seedrandom from 'seedrandom';
import { appFromWire } from '../../src/marathon/convert/app-from-wire';
import { HeapLoop, Scheduler } from '../../src/scheduler/index';
import type { SchedulerInput } from '../../src/scheduler/model/inputs';
import type { AppSpec } from '../../src/scheduler/model/app';
import { BenchCluster } from './bench-cluster';
import { NULL_STORE } from './null-store';
import { quantile } from './quantile';

/** The core's own cost of one app create and one app delete with `apps` apps present. */
export interface CoreChangeCost {
  readonly apps: number;
  /** Creating the `apps` apps one by one (each its own deployment). */
  readonly buildMs: number;
  readonly createP50Ms: number;
  readonly createP99Ms: number;
  readonly deleteP50Ms: number;
  readonly deleteP99Ms: number;
  /** Creates and deletes measured (each answered ok; the run throws otherwise). */
  readonly samples: number;
}

/**
 * Measures `Scheduler.handle` for `putRunSpec` of a new app and `deleteRunSpec` of it, `samples`
 * times each, with `apps` apps present (in 10 groups, a tenth with a dynamic service port, no
 * instances: the cost of the change itself, not of launching). The cap on running deployments is
 * raised above the number of apps so that every change is accepted; a refused change throws.
 */
export function coreChangeCost(apps: number, samples: number): CoreChangeCost {
  let nowMs = 1_767_225_600_000;
  const loop = new HeapLoop<SchedulerInput>();
  const scheduler = new Scheduler(
    {
      clock: { nowMs: () => nowMs },
      random: { next: seedrandom('bench-core-change') },
      timers: { schedule: (due, input) => loop.schedule(due, input), cancel: (id) => loop.cancel(id) },
      driver: new BenchCluster({ agents: 1, regions: 1, zonesPerRegion: 1, racks: 1, cpus: 1, memMib: 1024, ports: [31000, 31999], reservedEvery: 0 }),
      store: NULL_STORE,
      prober: { probe: () => undefined },
    },
    { maxRunningDeployments: apps + samples + 1, reconciliationIntervalMs: 0 },
  );
  const handle = (input: SchedulerInput): void => {
    nowMs++;
    const result = scheduler.handle(input);
    if (result === undefined || !result.ok) throw new Error(`core change refused: ${JSON.stringify(result)}`);
  };
  const b0 = performance.now();
  for (let k = 0; k < apps; k++) handle({ type: 'putRunSpec', spec: appSpec(k, nowMs) });
  const buildMs = performance.now() - b0;
  const creates: number[] = [];
  const deletes: number[] = [];
  for (let i = 0; i < samples; i++) {
    const spec = appSpec(apps + i, nowMs);
    let t0 = performance.now();
    handle({ type: 'putRunSpec', spec });
    creates.push(performance.now() - t0);
    t0 = performance.now();
    handle({ type: 'deleteRunSpec', runSpecId: spec.id });
    deletes.push(performance.now() - t0);
  }
  return {
    apps, buildMs: round(buildMs), samples,
    createP50Ms: round(quantile(creates, 0.5)), createP99Ms: round(quantile(creates, 0.99)),
    deleteP50Ms: round(quantile(deletes, 0.5)), deleteP99Ms: round(quantile(deletes, 0.99)),
  };
}

function appSpec(k: number, nowMs: number): AppSpec {
  const definition = { id: `/group-${k % 10}/app-${k}`, cmd: 'sleep 3600', instances: 0, cpus: 0.1, mem: 32, portDefinitions: k % 10 === 8 ? [{ port: 0 }] : [] };
  const result = appFromWire(definition, { defaultRole: '*', versionIso: new Date(nowMs).toISOString() });
  if (!result.ok) throw new Error(`bench app ${k}: ${JSON.stringify(result.errors)}`);
  return result.spec;
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}
