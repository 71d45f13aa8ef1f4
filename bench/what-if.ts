import { performance } from 'node:perf_hooks';
import { DEFAULT_SIM_TIMINGS } from '../sim/cluster/sim-models';
import type { SimAgentSpec } from '../sim/cluster/sim-agent-spec';
import { convertDefinition } from '../sim/runner/convert-definitions';
import { createRunSession } from '../sim/runner/run-scenario';
import { VIRTUAL_EPOCH_MS } from '../sim/runner/virtual-epoch';
import type { Scenario, TimelineStep } from '../sim/scenario/scenario';
import { isoTime } from '../src/scheduler/index';
import { LastOffers } from '../src/whatif/last-offers';
import { WhatIf } from '../src/whatif/what-if';
import { finishRun, formatRunInfo, runBenchMain, runInfo } from './lib/run-info';
import { type BenchUsage, UsageError, readBenchArgs } from './lib/bench-args';

/**
 * bench:what-if — the cost of a what-if (issue 18, docs/what-if.md) on a cluster of a given size:
 * a simulated cluster of `agents` agents (8 cpus, 32 GiB each) runs `instances` instances of 100
 * apps to steady state (the "live" cluster, with the runtime's LastOffers observer), then the
 * what-if forks it and scales one app up by 100 (`simulate` PT30M), and a capacity question is
 * asked. Reports the fork size, the wall time of each question (taking the fork included) and the
 * virtual time covered; writes bench/results/what-if.json. Checks its work: every live instance
 * running before the question, the scale-up finished in the fork with 100 launches, the capacity
 * answer above zero; exits 1 naming what is missing otherwise.
 *
 *   npm run bench:what-if                              # 1,000 and 10,000 instances
 *   npm run bench:what-if -- --sizes 2000              # one size
 */
const APPS = 100;

function scenarioOf(instances: number): Scenario {
  const agents = Math.max(10, Math.ceil(instances / 20));
  const agentSpecs: SimAgentSpec[] = Array.from({ length: agents }, (_, i) => ({
    agentId: `a${i + 1}`, hostname: `h${i + 1}`, attributes: [{ name: 'rack', type: 'text', text: `r${i % 10}` }],
    resources: { cpus: 8, mem: 32_768, disk: 100_000, gpus: 0, ports: [[31000, 32000]] }, reserved: [],
  }));
  const timeline: TimelineStep[] = Array.from({ length: APPS }, (_, i) => ({
    atMs: 0, pointer: `/timeline/${i}`,
    action: { type: 'app', runSpecId: `/app-${i}`, force: false, pointer: `/timeline/${i}/app`, definition: { id: `/app-${i}`, cmd: 'sleep 1000', instances: instances / APPS, cpus: 0.1, mem: 64 } },
  }));
  return {
    name: `what-if-${instances}`, seed: 18, durationMs: 3_600_000,
    options: { taskKilling: false, defaultRole: '*', timings: DEFAULT_SIM_TIMINGS }, invariants: {}, agents: agentSpecs, timeline,
  };
}

/** Figures of one size. */
export interface SizeFigures {
  readonly instances: number;
  readonly agents: number;
  readonly setupWallMs: number;
  readonly simulateWallMs: number;
  readonly simulatedMs: number;
  readonly launched: number;
  readonly capacityWallMs: number;
  readonly fits: number;
}

/** One size: the live cluster to steady state, then a scale-up what-if and a capacity question, timed. */
export function measure(instances: number, problems: string[]): SizeFigures {
  const scenario = scenarioOf(instances);
  const t0 = performance.now();
  const session = createRunSession(scenario, { trace: false, invariants: false });
  const offers = new LastOffers();
  session.onInput((atMs, input) => offers.beforeInput(atMs, input));
  const running = (): number => session.scheduler.runSpecs().reduce((n, s) => n + session.scheduler.instances(s.id).filter((i) => i.condition === 'Running').length, 0);
  let untilMs = 60_000;
  while (session.step(VIRTUAL_EPOCH_MS + untilMs) || (running() < instances && (untilMs += 60_000) < scenario.durationMs)) {
    // step to steady state
  }
  const setupWallMs = performance.now() - t0;
  if (running() !== instances) problems.push(`${instances}: only ${running()} instances running before the question`);
  const whatIf = new WhatIf({ scheduler: session.scheduler, lastOffers: () => offers.all(), nowMs: () => session.nowMs(), timings: scenario.options.timings }, { wallTimeMs: 600_000, maxCapacityInstances: 1000 });
  const converted = convertDefinition('app', { id: '/app-0', cmd: 'sleep 1000', instances: instances / APPS + 100, cpus: 0.1, mem: 64 }, '*', isoTime(session.nowMs()));
  if (!converted.ok) throw new Error(JSON.stringify(converted.errors));
  const t1 = performance.now();
  const answer = whatIf.simulate({ type: 'putRunSpec', spec: converted.spec }, 30 * 60_000);
  const simulateWallMs = performance.now() - t1;
  if ('refused' in answer) throw new Error(answer.refused.message);
  if (answer.deployment !== 'finished') problems.push(`${instances}: the scale-up did not finish in the fork (${answer.deployment})`);
  if (answer.launched.length !== 100) problems.push(`${instances}: ${answer.launched.length} launches in the fork, not 100`);
  const t2 = performance.now();
  const cap = whatIf.capacity('/app-1');
  const capacityWallMs = performance.now() - t2;
  if (cap === undefined || cap.fits <= 0) problems.push(`${instances}: the capacity answer is ${JSON.stringify(cap?.fits)}`);
  return {
    instances, agents: scenario.agents.length, setupWallMs: Math.round(setupWallMs), simulateWallMs: Math.round(simulateWallMs),
    simulatedMs: answer.simulatedMs, launched: answer.launched.length, capacityWallMs: Math.round(capacityWallMs), fits: cap?.fits ?? 0,
  };
}

/** bench:what-if's command line (bench/lib/bench-args.ts: every value checked before any work). */
export const WHAT_IF_USAGE: BenchUsage = {
  name: 'bench:what-if',
  summary: `The cost of a what-if: a simulated cluster runs N instances of ${APPS} apps to steady state, then a scale-up is simulated and a capacity question asked.`,
  options: {
    sizes: { kind: 'ints', help: `instances per run, comma-separated (multiples of ${APPS}: the apps are equal)`, default: [1000, 10_000], min: APPS, max: 1_000_000 },
  },
};

function main(): number {
  const args = readBenchArgs(WHAT_IF_USAGE, process.argv.slice(2));
  const sizes = args.ints('sizes');
  const uneven = sizes.filter((n) => n % APPS !== 0);
  if (uneven.length > 0) throw new UsageError(`--sizes must be multiples of ${APPS} (got ${uneven.join(', ')})`);
  const info = runInfo();
  console.log(`bench:what-if  ${formatRunInfo(info)}`);
  const problems: string[] = [];
  const results: SizeFigures[] = [];
  for (const n of sizes) {
    const r = measure(n, problems);
    results.push(r);
    console.log(`${n} instances on ${r.agents} agents: simulate (fork + run) ${r.simulateWallMs} ms wall for ${r.simulatedMs} ms virtual, ${r.launched} launches; capacity ${r.capacityWallMs} ms wall, fits ${r.fits} (tried 1000); setup ${r.setupWallMs} ms`);
  }
  return finishRun('bench:what-if', 'bench/results/what-if.json', info, { results }, problems);
}

runBenchMain('bench:what-if', module, main);
