import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { isTerminalCondition, type Condition } from '../src/scheduler/model/condition';
import type { SimAgentSpec } from '../sim/cluster/sim-agent-spec';
import { DEFAULT_SIM_TIMINGS } from '../sim/cluster/sim-models';
import { createRunSession } from '../sim/runner/run-scenario';
import type { DefinitionRef, Scenario, TimelineStep } from '../sim/scenario/scenario';
import { finishRun, formatRunInfo, runBenchMain, runInfo } from './lib/run-info';
import { type BenchUsage, UsageError, readBenchArgs } from './lib/bench-args';

/**
 * bench:sim — simulator speed with the full scheduler logic: a generated scenario (agents in 4
 * zones; apps of 100 instances, each task with an agent-run HTTP health check every 10 s, 10% of
 * apps flaky; every task exits with TASK_FAILED after 1–48 virtual hours, so failures, backoff and
 * relaunches run in the background) driven through the same runner as `npm run sim`. All apps
 * are created in one deployment (one change of the root group, as `PUT /v2/groups` makes it).
 * Reports virtual seconds per wall second, loop steps and core events per wall second.
 *
 * It checks that it did all of its work — every app deployed, every instance Running at once at
 * some point (all placed), as many live instances at the end as wanted (none lost), the run's
 * invariants held — and exits 1 naming what is missing otherwise.
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
  /** Most instances Running at once (every instance placed: equals `instances`). */
  peakRunning: number;
  /** Distinct instance ids that were Running at some point (relaunches included). */
  instancesEverRunning: number;
  runningAtEnd: number;
  /** Instances in a non-terminal condition at the end (none lost: equals `instances`). */
  liveAtEnd: number;
  /**
   * Loop steps and core events counted at every {@link CHECKPOINT_MS} of virtual time, after the
   * first step at or past it (`"<virtual minutes>m <steps> <events>"`; the last, `"end …"`, at the
   * end of the run). The simulator is deterministic,
   * so two runs of one configuration must give the same list: where two lists first differ is
   * where the runs diverged.
   */
  checkpoints: readonly string[];
  /** The first 12 hex digits of the SHA-256 of {@link checkpoints}: equal for every run of one configuration. */
  fingerprint: string;
  /** Why the run did not do all of its work; empty when it did. */
  problems: readonly string[];
}

/** Virtual time between two {@link SimBenchResult.checkpoints}: 10 minutes, the core's reconciliation interval. */
export const CHECKPOINT_MS = 600_000;

/** The generated workload of one bench:sim configuration (exported for the determinism test). */
export function simBenchScenario(agents: number, instances: number, hours: number): Scenario {
  const agentSpecs: SimAgentSpec[] = [];
  for (let n = 1; n <= agents; n++) {
    agentSpecs.push({
      agentId: `agent-${n}`, hostname: `host-${n}`, region: 'r1', zone: `z${n % 4}`, attributes: [],
      resources: { cpus: 32, mem: 131072, disk: 0, gpus: 0, ports: [[31000, 32999]] }, reserved: [],
    });
  }
  const timeline: TimelineStep[] = [];
  const apps = Math.ceil(instances / 100);
  const definitions: DefinitionRef[] = [];
  const models: TimelineStep[] = [];
  for (let k = 0; k < apps; k++) {
    const id = `/bench/app-${k}`;
    const definition = {
      id, cmd: 'serve', instances: Math.min(100, instances - k * 100), cpus: 0.1, mem: 32,
      portDefinitions: [{ port: 0 }],
      healthChecks: [{ protocol: 'MESOS_HTTP', path: '/health', intervalSeconds: 10, gracePeriodSeconds: 30, maxConsecutiveFailures: 3 }],
    };
    definitions.push({ kind: 'app', definition, pointer: `/timeline/0/deploy/${k}`, runSpecId: id });
    models.push({ atMs: 0, pointer: `/timeline/${1 + models.length}`, action: { type: 'taskModel', runSpecId: id, model: { kind: 'exitAfter', afterMs: [3_600_000, 48 * 3_600_000], state: 'TASK_FAILED' } } });
    if (k % 10 === 0) {
      models.push({ atMs: 0, pointer: `/timeline/${1 + models.length}`, action: { type: 'health', runSpecId: id, model: { kind: 'flaky', p: 0.02 } } });
    }
  }
  // Every app in one change of the root group (one deployment, as PUT /v2/groups makes it): one
  // deployment per app would meet the cap of 100 running deployments and leave apps undeployed.
  timeline.push({ atMs: 0, pointer: '/timeline/0', action: { type: 'deploy', definitions, force: false } }, ...models);
  return {
    name: `bench-sim-${agents}-${instances}`, seed: 1, durationMs: hours * 3_600_000,
    options: { taskKilling: true, defaultRole: '*', maxInstancesPerOffer: 100, timings: DEFAULT_SIM_TIMINGS },
    invariants: {}, agents: agentSpecs, timeline,
  };
}

/** Runs the generated workload for `hours` virtual hours; invariants optional. Never throws for a run that fell short: the reasons are in `problems`. */
export function runSimBench(agents: number, instances: number, hours: number, invariants: boolean): SimBenchResult {
  const session = createRunSession(simBenchScenario(agents, instances, hours), { invariants, trace: false });
  let events = 0;
  const running = new Set<string>();
  let peakRunning = 0;
  const everRunning = new Set<string>();
  session.onEvent((_atMs, event) => {
    events++;
    if (event.eventType !== 'instance_changed_event') return;
    if (event.condition === 'Running') {
      running.add(event.instanceId);
      everRunning.add(event.instanceId);
      if (running.size > peakRunning) peakRunning = running.size;
    } else running.delete(event.instanceId);
  });
  let peakHeap = 0;
  const t0 = performance.now();
  let steps = 0;
  const startMs = session.nowMs();
  const checkpoints: string[] = [];
  let nextCheckpointMs = startMs + CHECKPOINT_MS;
  while (session.step(session.endMs)) {
    if ((++steps & 0xffff) === 0) peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
    // Counted after the first step at or past the checkpoint's instant.
    while (session.nowMs() >= nextCheckpointMs) {
      checkpoints.push(`${(nextCheckpointMs - startMs) / 60_000}m ${steps} ${events}`);
      nextCheckpointMs += CHECKPOINT_MS;
    }
  }
  const result = session.finish();
  const wallMs = performance.now() - t0;
  checkpoints.push(`end ${result.loopSteps} ${events}`);
  const apps = Math.ceil(instances / 100);
  const live = result.finalCounts.reduce((n, c) => n + Object.entries(c.counts).filter(([k]) => !isTerminalCondition(k as Condition)).reduce((m, [, v]) => m + (v ?? 0), 0), 0);
  const problems: string[] = [];
  if (result.finalCounts.length !== apps) problems.push(`${result.finalCounts.length} of ${apps} apps deployed`);
  if (peakRunning < instances) problems.push(`at most ${peakRunning} of ${instances} instances ran at once: not everything was placed`);
  if (live !== instances) problems.push(`${live} live instances at the end for ${instances} wanted`);
  if (!result.passed) problems.push(`the run did not pass: ${result.violations.join('; ') || 'an expectation failed'}`);
  return {
    agents, instances, virtualHours: hours, wallMs: Math.round(wallMs),
    virtualPerWall: Math.round((hours * 3_600_000) / wallMs), loopSteps: result.loopSteps,
    stepsPerSec: Math.round(result.loopSteps / (wallMs / 1000)), events, eventsPerSec: Math.round(events / (wallMs / 1000)),
    invariants, passed: result.passed, peakHeapMib: Math.round(Math.max(peakHeap, process.memoryUsage().heapUsed) / 1048576),
    peakRunning, instancesEverRunning: everRunning.size, runningAtEnd: running.size, liveAtEnd: live,
    checkpoints, fingerprint: createHash('sha256').update(checkpoints.join('\n')).digest('hex').slice(0, 12), problems,
  };
}

/** bench:sim's command line (bench/lib/bench-args.ts: every value checked before any work). */
export const SIM_USAGE: BenchUsage = {
  name: 'bench:sim',
  summary: 'Simulator speed with the full scheduler logic. Without --agents: 1,000 agents / 10,000 instances / 24 h, then 10,000 / 100,000 / 1 h. With --agents: one run of that many agents, --instances and --hours.',
  options: {
    agents: { kind: 'int', help: 'one custom run on this many agents (then --instances and --hours apply)', min: 1, max: 100_000 },
    instances: { kind: 'int', help: 'instances of the custom run (apps of 100)', default: 1000, min: 1, max: 1_000_000 },
    hours: { kind: 'number', help: 'virtual hours of the custom run', default: 1, min: 0.01, max: 24 * 365 },
    invariants: { kind: 'flag', help: 'check the scheduler\'s invariants after every step (slower)' },
  },
};

function main(): number {
  const args = readBenchArgs(SIM_USAGE, process.argv.slice(2));
  const agents = args.maybeNumber('agents');
  if (agents === undefined && (args.given('instances') || args.given('hours'))) {
    throw new UsageError('--instances and --hours set a custom run, which needs --agents');
  }
  const invariants = args.flag('invariants');
  const configs = agents !== undefined
    ? [{ agents, instances: args.int('instances'), hours: args.number('hours') }]
    : [{ agents: 1000, instances: 10_000, hours: 24 }, { agents: 10_000, instances: 100_000, hours: 1 }];
  const info = runInfo();
  console.log(`bench:sim  ${formatRunInfo(info)}; invariants ${invariants ? 'on' : 'off'}`);
  console.log('agents  instances  v-hours  wall-ms   virtual/wall  loop-steps   steps/s    events     events/s  heap-MiB  peak-running  live-at-end  fingerprint');
  const results: SimBenchResult[] = [];
  for (const c of configs) {
    const r = runSimBench(c.agents, c.instances, c.hours, invariants);
    results.push(r);
    console.log(`${String(r.agents).padStart(6)} ${String(r.instances).padStart(10)} ${String(r.virtualHours).padStart(8)} ${String(r.wallMs).padStart(8)} ${String(r.virtualPerWall).padStart(13)}x ${String(r.loopSteps).padStart(11)} ${String(r.stepsPerSec).padStart(9)} ${String(r.events).padStart(9)} ${String(r.eventsPerSec).padStart(11)} ${String(r.peakHeapMib).padStart(9)} ${String(r.peakRunning).padStart(13)} ${String(r.liveAtEnd).padStart(12)}  ${r.fingerprint}`);
  }
  return finishRun('bench:sim', 'bench/results/sim.json', info, { invariants, results }, results.flatMap((r) => r.problems.map((p) => `${r.agents} agents / ${r.instances} instances / ${r.virtualHours} h: ${p}`)));
}

runBenchMain('bench:sim', module, main);
