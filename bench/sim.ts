import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { SimAgentSpec } from '../sim/cluster/sim-agent-spec';
import { DEFAULT_SIM_TIMINGS } from '../sim/cluster/sim-models';
import { createRunSession } from '../sim/runner/run-scenario';
import type { Scenario, TimelineStep } from '../sim/scenario/scenario';

/**
 * bench:sim — simulator speed with the full scheduler logic: a generated scenario (agents in 4
 * zones; apps of 100 instances, each task with an agent-run HTTP health check every 10 s, 10% of
 * apps flaky; every task exits with TASK_FAILED after 1–48 virtual hours, so failures, backoff and
 * relaunches run in the background) driven through the same runner as `npm run sim`.
 * Reports virtual seconds per wall second, loop steps and core events per wall second.
 *
 *   npm run bench:sim                             # 1,000 agents / 10,000 instances / 24 h, then 10,000 / 100,000 / 1 h
 *   npm run bench:sim -- --agents 100 --instances 1000 --hours 1   # one custom run
 */
/** Figures of one simulator benchmark run. */
export interface SimBenchResult {
  agents: number;
  instances: number;
  virtualHours: number;
  wallMs: number;
  virtualPerWall: number;
  loopSteps: number;
  stepsPerSec: number;
  events: number;
  eventsPerSec: number;
  invariants: boolean;
  passed: boolean;
  peakHeapMib: number;
}

function scenario(agents: number, instances: number, hours: number): Scenario {
  const agentSpecs: SimAgentSpec[] = [];
  for (let n = 1; n <= agents; n++) {
    agentSpecs.push({
      agentId: `agent-${n}`, hostname: `host-${n}`, region: 'r1', zone: `z${n % 4}`, attributes: [],
      resources: { cpus: 32, mem: 131072, disk: 0, gpus: 0, ports: [[31000, 32999]] }, reserved: [],
    });
  }
  const timeline: TimelineStep[] = [];
  const apps = Math.ceil(instances / 100);
  for (let k = 0; k < apps; k++) {
    const id = `/bench/app-${k}`;
    const definition = {
      id, cmd: 'serve', instances: Math.min(100, instances - k * 100), cpus: 0.1, mem: 32,
      portDefinitions: [{ port: 0 }],
      healthChecks: [{ protocol: 'MESOS_HTTP', path: '/health', intervalSeconds: 10, gracePeriodSeconds: 30, maxConsecutiveFailures: 3 }],
    };
    const pointer = `/timeline/${timeline.length}`;
    timeline.push({ atMs: 0, pointer, action: { type: 'app', definition, pointer: `${pointer}/app`, runSpecId: id, force: false } });
    timeline.push({ atMs: 0, pointer: `/timeline/${timeline.length}`, action: { type: 'taskModel', runSpecId: id, model: { kind: 'exitAfter', afterMs: [3_600_000, 48 * 3_600_000], state: 'TASK_FAILED' } } });
    if (k % 10 === 0) {
      timeline.push({ atMs: 0, pointer: `/timeline/${timeline.length}`, action: { type: 'health', runSpecId: id, model: { kind: 'flaky', p: 0.02 } } });
    }
  }
  return {
    name: `bench-sim-${agents}-${instances}`, seed: 1, durationMs: hours * 3_600_000,
    options: { taskKilling: true, defaultRole: '*', maxInstancesPerOffer: 100, timings: DEFAULT_SIM_TIMINGS },
    invariants: {}, agents: agentSpecs, timeline,
  };
}

/** Runs the generated workload for `hours` virtual hours; invariants optional. */
export function runSimBench(agents: number, instances: number, hours: number, invariants: boolean): SimBenchResult {
  const session = createRunSession(scenario(agents, instances, hours), { invariants, trace: false });
  let events = 0;
  session.onEvent(() => {
    events++;
  });
  let peakHeap = 0;
  const t0 = performance.now();
  let steps = 0;
  while (session.step(session.endMs)) {
    if ((++steps & 0xffff) === 0) peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  }
  const result = session.finish();
  const wallMs = performance.now() - t0;
  return {
    agents, instances, virtualHours: hours, wallMs: Math.round(wallMs),
    virtualPerWall: Math.round((hours * 3_600_000) / wallMs), loopSteps: result.loopSteps,
    stepsPerSec: Math.round(result.loopSteps / (wallMs / 1000)), events, eventsPerSec: Math.round(events / (wallMs / 1000)),
    invariants, passed: result.passed, peakHeapMib: Math.round(Math.max(peakHeap, process.memoryUsage().heapUsed) / 1048576),
  };
}

function main(): void {
  const argv = process.argv.slice(2);
  const arg = (name: string): number | undefined => {
    const i = argv.indexOf(name);
    return i >= 0 ? Number(argv[i + 1]) : undefined;
  };
  const invariants = argv.includes('--invariants');
  const configs = arg('--agents') !== undefined
    ? [{ agents: arg('--agents') as number, instances: arg('--instances') ?? 1000, hours: arg('--hours') ?? 1 }]
    : [{ agents: 1000, instances: 10_000, hours: 24 }, { agents: 10_000, instances: 100_000, hours: 1 }];
  console.log(`bench:sim  node ${process.version}  invariants ${invariants ? 'on' : 'off'}`);
  console.log('agents  instances  v-hours  wall-ms   virtual/wall  loop-steps   steps/s    events     events/s  heap-MiB');
  const results: SimBenchResult[] = [];
  for (const c of configs) {
    const r = runSimBench(c.agents, c.instances, c.hours, invariants);
    results.push(r);
    console.log(`${String(r.agents).padStart(6)} ${String(r.instances).padStart(10)} ${String(r.virtualHours).padStart(8)} ${String(r.wallMs).padStart(8)} ${String(r.virtualPerWall).padStart(13)}x ${String(r.loopSteps).padStart(11)} ${String(r.stepsPerSec).padStart(9)} ${String(r.events).padStart(9)} ${String(r.eventsPerSec).padStart(11)} ${String(r.peakHeapMib).padStart(9)}`);
  }
  writeFileSync('bench/results/sim.json', `${JSON.stringify({ node: process.version, results }, null, 2)}\n`);
}

if (require.main === module) main();
