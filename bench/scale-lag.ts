import { request as httpRequest, Agent } from 'node:http';
import type { AddressInfo } from 'node:net';
import { constants as perfConstants, monitorEventLoopDelay, performance, PerformanceObserver } from 'node:perf_hooks';
import { defaultConfig } from '../src/runtime/config';
import { schedulerOptionsOf } from '../src/runtime/runtime-parts';
import type { SchedulerOptions } from '../src/scheduler/index';
import type { SchedulerInput } from '../src/scheduler/model/inputs';
import { ApiListeners } from '../src/runtime/api-listeners';
import { PACE_WAKE_EVENT, paceSession } from '../src/runtime/pace-session';
import { simApi, type SimApi } from '../src/runtime/sim-api';
import type { SimAgentSpec } from '../sim/cluster/sim-agent-spec';
import { DEFAULT_SIM_TIMINGS } from '../sim/cluster/sim-models';
import { createRunSession, type RunSession } from '../sim/runner/run-scenario';
import type { Scenario } from '../sim/scenario/scenario';
import { quantile } from './lib/quantile';
import { type BenchUsage, readBenchArgs } from './lib/bench-args';
import { finishRun, formatRunInfo, runInfo, runBenchMain } from './lib/run-info';
import { attributeStretch, stretchMs, summarizeStretches, type AttributedStretch, type Span } from './lib/stall-attribution';

/**
 * bench:scale-lag — does one big change block pacer (issue 11 item 4)? pacer's `--cluster sim`
 * composition (src/runtime/sim-api.ts: the REST API over the simulated cluster, paced in real time
 * by paceSession as `npm start -- --cluster sim` paces it) serves on 127.0.0.1 while this process
 * measures its event-loop delay (perf_hooks monitorEventLoopDelay) and sends `GET /ping` every
 * `pingEveryMs` on its own connection. Two phases:
 *
 * 1. `POST /v2/apps` of one app of `instances` instances with a constraint no agent meets: the
 *    answer time, then until every instance exists (Scheduled) and `GET /v2/queue` counts them all.
 *    Then its `DELETE`, until it is gone.
 * 2. `POST /v2/apps` of an app of 0 instances, then `PUT` `instances` (the scale-up): the answer
 *    time, then until every instance is Running, its deployment done and `GET /v2/apps/{id}`
 *    reports `tasksRunning` = `instances`.
 *
 * Per phase: the request's answer time, event-loop delay (max, p99) and `/ping` answer times
 * (max, p99, count) while the phase ran, and where the process spent its time (the same process
 * runs pacer and the simulated cluster): the core's inputs (`pacer`: time in the core, minus the
 * simulated master's work on an ACCEPT, which runs inside the core's call), the simulated
 * cluster's own entries and ACCEPTs (`cluster`), each as a sum and its longest single stretch,
 * and garbage collection pauses (sum, longest); the process's CPU time; and every stretch the
 * loop was blocked for more than {@link STRETCH_MS}, with its main cause (the process waiting for a
 * core, GC, an input, the simulated cluster: bench/lib/stall-attribution.ts) and the inputs of more
 * than {@link SLOW_INPUT_MS}. It checks that all the work was done (every
 * answer 2xx, every instance created, queued or Running as the phase allows, every ping answered)
 * and exits 1 naming what is missing otherwise. Writes bench/results/scale-lag.json.
 *
 * The core runs with the bounds `npm start` gives it (`--launches_per_input`,
 * `--launches_per_offer_batch`, `--instances_per_input` defaults), not the simulator's; the same
 * flags here override them.
 *
 *   npm run bench:scale-lag                                   # 100,000 instances on 1,000 agents, speed 10
 *   npm run bench:scale-lag -- --instances 20000 --agents 200
 *   npm run bench:scale-lag -- --launches_per_input 2000 --instances_per_input 2000   # the core's own defaults
 *   npm run bench:scale-lag -- --help                         # every option, its range and default
 */
export interface ScaleLagOptions {
  readonly instances: number;
  /** Simulated agents, each with room for more than `instances / agents` instances. */
  readonly agents: number;
  /** Virtual ms per wall ms (as `--speed`). */
  readonly speed: number;
  readonly pingEveryMs: number;
  /** Wall-clock bound of each phase. */
  readonly timeoutS: number;
  /** The core's per-input bounds (SchedulerOptions); default: what `npm start`'s flags give. */
  readonly launchesPerInput: number;
  readonly launchesPerOfferBatch: number;
  readonly instancesPerInput: number;
}

const PRODUCTION = schedulerOptionsOf(defaultConfig(process.cwd()));

export const DEFAULT_SCALE_LAG_OPTIONS: ScaleLagOptions = {
  instances: 100_000, agents: 1000, speed: 10, pingEveryMs: 20, timeoutS: 600,
  launchesPerInput: PRODUCTION.launchesPerInput ?? 0, launchesPerOfferBatch: PRODUCTION.launchesPerOfferBatch ?? 0, instancesPerInput: PRODUCTION.instancesPerInput ?? 0,
};

/** Where one phase's time went: a sum and the longest single stretch, in ms. */
export interface Spent {
  readonly sumMs: number;
  readonly maxMs: number;
}

/** Figures of one phase. */
export interface PhaseFigures {
  readonly name: string;
  /** Answer time of the phase's request (the POST, the DELETE or the scale PUT). */
  readonly requestMs: number;
  /** From the request until all of the phase's work was done. */
  readonly doneMs: number;
  /** Answer time of the API reads that check the result (after the measured window). */
  readonly verifyMs: number;
  /**
   * perf_hooks' monitorEventLoopDelay (5 ms resolution) over the phase: the time between two turns
   * of its own 5 ms timer, the 5 ms included (an idle loop reads about 5 ms), max, p99 and mean.
   */
  readonly lagMaxMs: number;
  readonly lagP99Ms: number;
  readonly lagMeanMs: number;
  readonly pings: number;
  readonly pingP50Ms: number;
  readonly pingP99Ms: number;
  readonly pingMaxMs: number;
  /** The core's inputs (the simulated master's ACCEPT work taken out). */
  readonly pacer: Spent;
  /** The simulated cluster: its own loop entries and its ACCEPT work. */
  readonly cluster: Spent;
  /** Garbage collection pauses of the process (both). */
  readonly gc: Spent;
  /** CPU time of the whole process (all its threads, user + system) over the phase, and its share of the phase's wall time. */
  readonly cpuMs: number;
  readonly cpuShare: number;
  readonly coreInputs: number;
  /** The kind of the core's longest input or API command (`offers`, `status`, `timer:continueOffers`, `command:putRunSpec`, …). */
  readonly longestInput: string;
  /**
   * Every stretch of more than {@link STRETCH_MS} between two turns of a 5 ms ticker, with the
   * process's CPU time over it, the GC pauses and core inputs in it, and its main cause
   * (bench/lib/stall-attribution.ts).
   */
  readonly stretches: readonly AttributedStretch[];
  /**
   * The longest gap between two turns of that ticker, ms, rounded up to a tenth: a stretch is
   * listed exactly when this is more than {@link STRETCH_MS}. It is not `lagMaxMs`: that is the
   * same kind of gap, but between turns of perf_hooks' own 5 ms timer, which runs at another point
   * of an event-loop turn (a libuv timer of its own; the ticker is a JavaScript interval). Blocking
   * work that runs partly before and partly after one timer's callback is two shorter gaps for that
   * timer and one long gap for the other, so either figure can be the longer (bench/README.md).
   */
  readonly tickerMaxGapMs: number;
  /** Core inputs (commands included) that took more than {@link SLOW_INPUT_MS}, longest first (at most 20). */
  readonly slowInputs: readonly SlowInput[];
  /** How many core inputs took more than {@link SLOW_INPUT_MS}. */
  readonly slowInputCount: number;
  /**
   * The most process CPU time in any one stretch: about what its longest stretch would have been
   * had the process had a core to itself (an overestimate: GC helper threads' CPU counts too).
   */
  readonly stretchCpuMaxMs: number;
}

/**
 * One core input that took long: its kind and size, and its wall time (its CPU time is in the
 * stretch it blocked: reading the process's CPU time around every input costs about 10 µs a call,
 * seconds over a run, so only the ticker reads it).
 */
export interface SlowInput {
  readonly label: string;
  readonly ms: number;
}

/** A gap between two turns of the ticker longer than this is a stretch to attribute. */
export const STRETCH_MS = 50;
/** An input longer than this is listed. */
export const SLOW_INPUT_MS = 30;

export interface ScaleLagResult {
  readonly options: ScaleLagOptions;
  readonly phases: readonly PhaseFigures[];
  readonly peakHeapMib: number;
  readonly problems: readonly string[];
}

const MIB = 1024 * 1024;

/** Runs both phases; never throws for work left undone (the reasons are in `problems`). */
export async function runScaleLagBench(o: ScaleLagOptions, log: (line: string) => void = console.log): Promise<ScaleLagResult> {
  const problems: string[] = [];
  const phases: PhaseFigures[] = [];
  const { session, api, wake } = simComposition(o);
  const spent = timeSpent(session);
  await api.app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(api.app.server.address() as AddressInfo).port}`;
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  const stop = new AbortController();
  const pacing = paceSession(session, session.nowMs(), o.speed, stop.signal, wake);
  let peakHeap = process.memoryUsage().heapUsed;
  const call = (method: string, path: string, body?: unknown): Promise<Answer> => {
    const answer = timedRequest(agent, method, `${base}${path}`, body);
    // An API command schedules work at the current virtual instant: wake the pacer up, as start-sim does.
    void answer.then(() => wake.dispatchEvent(new Event(PACE_WAKE_EVENT)));
    return answer;
  };
  /**
   * One phase: `act` (the request), then until `done` (a cheap look at the core) holds, with the
   * loop delay monitored and /ping sent throughout; then `verify` through the API, after the
   * measured window (its answer time is reported, not counted as loop delay).
   */
  const phase = async (name: string, act: () => Promise<Answer>, done: () => boolean, verify: () => Promise<string | undefined>): Promise<void> => {
    const lag = monitorEventLoopDelay({ resolution: 5 });
    const pings: number[] = [];
    let pinging = true;
    let pingFailures = 0;
    const pinger = (async () => {
      while (pinging) {
        const p = await timedRequest(agent, 'GET', `${base}/ping`).catch(() => undefined);
        if (p === undefined || p.status !== 200) pingFailures++;
        else pings.push(p.ms);
        await sleep(o.pingEveryMs);
      }
    })();
    lag.enable();
    spent.reset();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const answer = await act();
    if (answer.status < 200 || answer.status >= 300) problems.push(`${name}: answered ${answer.status} ${answer.body.slice(0, 200)}`);
    const deadline = performance.now() + o.timeoutS * 1000;
    let finished = false;
    while (performance.now() < deadline) {
      peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
      if (done()) {
        finished = true;
        break;
      }
      await sleep(50);
    }
    const doneMs = performance.now() - t0;
    // The monitor records a blocked stretch when its next timer runs: give it that moment.
    await sleep(100);
    lag.disable();
    const where = spent.figures();
    const cpu = process.cpuUsage(cpu0);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    const windowMs = performance.now() - t0;
    pinging = false;
    await pinger;
    if (!finished) problems.push(`${name}: not done within ${o.timeoutS} s`);
    const v0 = performance.now();
    const wrong = finished ? await verify() : undefined;
    const verifyMs = performance.now() - v0;
    if (wrong !== undefined) problems.push(`${name}: ${wrong}`);
    if (pingFailures > 0) problems.push(`${name}: ${pingFailures} GET /ping failed`);
    if (pings.length === 0) problems.push(`${name}: no GET /ping answered`);
    const r = (x: number): number => Math.round(x * 10) / 10;
    const figures: PhaseFigures = {
      name, requestMs: r(answer.ms), doneMs: Math.round(doneMs), verifyMs: Math.round(verifyMs),
      lagMaxMs: r(lag.max / 1e6), lagP99Ms: r(lag.percentile(99) / 1e6), lagMeanMs: r(lag.mean / 1e6),
      pings: pings.length, pingP50Ms: r(quantile(pings, 0.5)), pingP99Ms: r(quantile(pings, 0.99)), pingMaxMs: r(pings.length === 0 ? 0 : Math.max(...pings)),
      cpuMs: Math.round(cpuMs), cpuShare: Math.round((cpuMs / windowMs) * 100) / 100,
      ...where,
    };
    phases.push(figures);
    const f = (x: Spent): string => `${Math.round(x.sumMs)} ms (longest ${r(x.maxMs)})`;
    log(`  ${name.padEnd(44)} answer ${String(figures.requestMs).padStart(7)} ms  done ${String(figures.doneMs).padStart(6)} ms (check ${figures.verifyMs} ms)  loop delay max ${String(figures.lagMaxMs).padStart(6)} ms p99 ${String(figures.lagP99Ms).padStart(6)} ms  /ping ×${figures.pings} p99 ${figures.pingP99Ms} ms max ${figures.pingMaxMs} ms`);
    log(`  ${''.padEnd(44)} time in pacer's core ${f(figures.pacer)} over ${figures.coreInputs} inputs and commands (longest: ${figures.longestInput === '' ? 'none' : figures.longestInput}); simulated cluster ${f(figures.cluster)}; GC ${f(figures.gc)}; process CPU ${figures.cpuMs} ms (${Math.round(figures.cpuShare * 100)}% of the wall time)`);
    log(`  ${''.padEnd(44)} stretches > ${STRETCH_MS} ms between turns of the bench's 5 ms ticker (its longest gap ${figures.tickerMaxGapMs} ms; loop delay is perf_hooks' own timer) by main cause: ${summarizeStretches(figures.stretches)}; most CPU in one stretch ${figures.stretchCpuMaxMs} ms; ${figures.slowInputCount} inputs > ${SLOW_INPUT_MS} ms`);
    for (const s of [...figures.stretches].sort((a, b) => b.wallMs - a.wallMs).slice(0, 5)) {
      log(`  ${''.padEnd(44)}   ${s.wallMs} ms: ${s.cause}; CPU ${s.cpuMs} ms, GC ${s.gcMs} ms, inputs ${s.inputMs} ms, cluster ${s.clusterMs} ms${s.longestInput === '' ? '' : `; longest input ${s.longestInputMs} ms ${s.longestInput}`}`);
    }
    for (const i of figures.slowInputs.slice(0, 3)) log(`  ${''.padEnd(44)}   slow input ${i.ms} ms: ${i.label}`);
  };
  try {
    const n = o.instances;
    const nowhere = '/lag/nowhere';
    await phase(`POST ${n} instances no agent can take`, () => call('POST', '/v2/apps', app(nowhere, n, [['hostname', 'LIKE', 'no-such-host']])), () => instanceCount(session, nowhere) >= n, async () => {
      const queue = await call('GET', '/v2/queue');
      const entry = (JSON.parse(queue.body) as { queue: { count: number; app?: { id: string } }[] }).queue.find((q) => q.app?.id === nowhere);
      if (entry?.count !== n) return `GET /v2/queue counts ${entry?.count} instances, not ${n}`;
      return session.scheduler.runningPlans().length === 1 ? undefined : 'its deployment is not running';
    });
    const created = instanceCount(session, nowhere);
    if (created !== n) problems.push(`${nowhere}: ${created} of ${n} instances created`);
    await phase(`DELETE the app of ${n} Scheduled instances`, () => call('DELETE', `/v2/apps${nowhere}`), () => session.scheduler.runSpec(nowhere) === undefined && session.scheduler.runningPlans().length === 0, async () => {
      const queue = await call('GET', '/v2/queue');
      return (JSON.parse(queue.body) as { queue: unknown[] }).queue.length === 0 ? undefined : 'GET /v2/queue is not empty';
    });

    const web = '/lag/web';
    const made = await call('POST', '/v2/apps', app(web, 0, []));
    if (made.status !== 201) problems.push(`POST ${web}: answered ${made.status}`);
    for (let waited = 0; session.scheduler.runningPlans().length > 0 && waited < o.timeoutS * 1000; waited += 20) await sleep(20);
    // Done when the scale deployment finished, which needs every instance Running.
    await phase(`scale-up PUT 0 → ${n} instances`, () => call('PUT', `/v2/apps${web}`, { instances: n }), () => session.scheduler.runningPlans().length === 0, async () => {
      const got = await call('GET', `/v2/apps${web}`);
      const running = (JSON.parse(got.body) as { app: { tasksRunning: number } }).app.tasksRunning;
      return running === n ? undefined : `GET /v2/apps${web} reports ${running} tasks running, not ${n}`;
    });
    const up = running(session, web);
    if (up !== n) problems.push(`${web}: ${up} of ${n} instances Running`);
    for (const v of session.violations()) problems.push(`simulator: ${v}`);
  } finally {
    spent.close();
    stop.abort();
    await pacing;
    agent.destroy();
    api.hub.close();
    await api.app.close();
  }
  return { options: o, phases, peakHeapMib: Math.round(peakHeap / MIB), problems };
}

function app(id: string, instances: number, constraints: string[][]): unknown {
  return { id, cmd: 'sleep 3600', cpus: 0.01, mem: 16, instances, portDefinitions: [], constraints };
}

function instanceCount(session: RunSession, id: string): number {
  return session.scheduler.instances(id).length;
}

function running(session: RunSession, id: string): number {
  let n = 0;
  for (const inst of session.scheduler.instances(id)) if (inst.condition === 'Running') n++;
  return n;
}

/** The `--cluster sim` composition over `o.agents` agents with room for all instances; invariants off. */
function simComposition(o: ScaleLagOptions): { session: RunSession; api: SimApi; wake: EventTarget } {
  const agents: SimAgentSpec[] = [];
  for (let k = 1; k <= o.agents; k++) {
    agents.push({
      agentId: `agent-${k}`, hostname: `host-${k}`, region: 'r1', zone: `z${k % 4}`, attributes: [],
      resources: { cpus: 64, mem: 262_144, disk: 0, gpus: 0, ports: [[31000, 32999]] }, reserved: [],
    });
  }
  const scenario: Scenario = {
    name: 'bench-scale-lag', seed: 1, durationMs: 365 * 24 * 3_600_000,
    options: { taskKilling: false, defaultRole: '*', maxInstancesPerOffer: 100, timings: DEFAULT_SIM_TIMINGS },
    invariants: {}, agents, timeline: [],
  };
  const coreOptions: Partial<SchedulerOptions> = { launchesPerInput: o.launchesPerInput, launchesPerOfferBatch: o.launchesPerOfferBatch, instancesPerInput: o.instancesPerInput };
  const session = createRunSession(scenario, { invariants: false, trace: false, coreOptions });
  const config = { ...defaultConfig(process.cwd()), cluster: 'sim' as const, address: '127.0.0.1', port: 0 };
  const wake = new EventTarget();
  const api = simApi(session, scenario, config, () => wake.dispatchEvent(new Event(PACE_WAKE_EVENT)), Date.now(), { listeners: new ApiListeners(config) });
  return { session, api, wake };
}

/** Measures where the process's time goes between `reset` and `figures` (see {@link PhaseFigures}). */
export interface TimeSpent {
  reset(): void;
  figures(): Pick<PhaseFigures, 'pacer' | 'cluster' | 'gc' | 'coreInputs' | 'longestInput' | 'stretches' | 'tickerMaxGapMs' | 'slowInputs' | 'slowInputCount' | 'stretchCpuMaxMs'>;
  close(): void;
}

/**
 * Times every step of the run (a core input, when the session saw one, else a simulated-cluster
 * entry), every API command (`session.submit`) and the simulated master's ACCEPT inside the core's
 * input; GC pauses by a PerformanceObserver. The ACCEPT is timed by wrapping the cluster's method,
 * which the run's driver calls by name: bench-only instrumentation. A ticker every 5 ms notes the
 * stretches the loop was blocked for more than {@link STRETCH_MS}, with the process's CPU time over
 * each; the inputs, cluster steps and GC pauses of more than 2 ms are kept as spans to attribute
 * them (stall-attribution.ts).
 * `nowMs` times the inputs, commands and ACCEPTs (a test gives a clock of its own); the ticker
 * and GC spans keep the real clock, which measures the loop itself.
 */
export function timeSpent(session: RunSession, nowMs: () => number = () => performance.now()): TimeSpent {
  const acc = { pacer: [0, 0], cluster: [0, 0], gc: [0, 0], inputs: 0, longest: '' };
  const add = (a: number[], ms: number): void => {
    a[0] += ms;
    a[1] = Math.max(a[1], ms);
  };
  /** One core input or command of `ms` in the core: counted, and named when it is the longest so far (the first always is). */
  const inCore = (kind: string, ms: number): void => {
    acc.inputs++;
    if (acc.longest === '' || ms > acc.pacer[1]) acc.longest = kind;
    add(acc.pacer, ms);
  };
  let spans: Span[] = [];
  let slow: SlowInput[] = [];
  let stretches: { startMs: number; wallMs: number; cpuMs: number }[] = [];
  const seen: { input?: SchedulerInput | undefined } = {};
  let acceptMs = 0;
  let events = 0;
  session.onInput((_at, i) => {
    seen.input = i;
  });
  session.onEvent(() => void events++);
  const cluster = session.cluster as unknown as { accept: (...args: unknown[]) => void };
  const accept = cluster.accept.bind(cluster);
  cluster.accept = (...args: unknown[]): void => {
    const t0 = nowMs();
    accept(...args);
    acceptMs += nowMs() - t0;
  };
  const cpuNowMs = (): number => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  /** One core input (or command) done: counted, and kept as a span / listed when long. */
  const inputDone = (label: string, t0: number, ms: number): void => {
    if (ms >= 2) spans.push({ startMs: t0, ms, label: `input:${label}` });
    if (ms > SLOW_INPUT_MS) slow.push({ label, ms: Math.round(ms * 10) / 10 });
  };
  const step = session.step.bind(session);
  session.step = (untilMs: number): boolean => {
    seen.input = undefined;
    acceptMs = 0;
    events = 0;
    const t0 = nowMs();
    const stepped = step(untilMs);
    const ms = nowMs() - t0;
    const input = seen.input as SchedulerInput | undefined;
    if (input === undefined) {
      add(acc.cluster, ms);
      if (ms >= 2) spans.push({ startMs: t0, ms, label: 'cluster' });
    } else {
      const kind = input.type === 'timer' ? `timer:${input.timer.kind}` : input.type;
      inCore(kind, ms - acceptMs);
      if (acceptMs > 0) add(acc.cluster, acceptMs);
      const size = input.type === 'offers' ? `${input.offers.length} offers, ` : '';
      inputDone(`${kind} (${size}${events} events, accept ${Math.round(acceptMs)} ms)`, t0, ms);
    }
    return stepped;
  };
  const submit = session.submit.bind(session);
  session.submit = (command) => {
    events = 0;
    const t0 = nowMs();
    const result = submit(command);
    const ms = nowMs() - t0;
    inCore(`command:${command.type}`, ms);
    inputDone(`command:${command.type} (${events} events)`, t0, ms);
    return result;
  };
  const gcKinds: Record<number, string> = {
    [perfConstants.NODE_PERFORMANCE_GC_MINOR]: 'minor', [perfConstants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
    [perfConstants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental', [perfConstants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
  };
  const gc = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      add(acc.gc, e.duration);
      const kind = (e as unknown as { detail?: { kind?: number } }).detail?.kind ?? 0;
      if (e.duration >= 2) spans.push({ startMs: e.startTime, ms: e.duration, label: `gc:${gcKinds[kind] ?? kind}` });
    }
  });
  gc.observe({ entryTypes: ['gc'] });
  // The ticker: a gap between its turns of more than STRETCH_MS is a stretch the loop was blocked.
  let last = { t: performance.now(), cpu: cpuNowMs() };
  let maxGap = 0;
  const ticker = setInterval(() => {
    const now = { t: performance.now(), cpu: cpuNowMs() };
    maxGap = Math.max(maxGap, now.t - last.t);
    if (now.t - last.t > STRETCH_MS) stretches.push({ startMs: last.t, wallMs: now.t - last.t, cpuMs: now.cpu - last.cpu });
    last = now;
  }, 5);
  // Both to a tenth of a ms (one rounding, which keeps the longest within the sum: a sum rounded to
  // whole ms once fell below its longest stretch of 0.4 ms in the smoke test).
  const tenth = (ms: number): number => Math.round(ms * 10) / 10;
  const spent = (a: number[]): Spent => ({ sumMs: tenth(a[0]), maxMs: tenth(a[1]) });
  return {
    reset: () => {
      acc.pacer = [0, 0];
      acc.cluster = [0, 0];
      acc.gc = [0, 0];
      acc.inputs = 0;
      acc.longest = '';
      spans = [];
      slow = [];
      stretches = [];
      maxGap = 0;
      last = { t: performance.now(), cpu: cpuNowMs() };
    },
    figures: () => {
      spans.sort((a, b) => a.startMs - b.startMs);
      const attributed = stretches.map((s) => attributeStretch({ ...s, spans: spansIn(spans, s.startMs, s.startMs + s.wallMs) }));
      return {
        pacer: spent(acc.pacer), cluster: spent(acc.cluster), gc: spent(acc.gc), coreInputs: acc.inputs, longestInput: acc.longest,
        stretches: attributed, tickerMaxGapMs: stretchMs(maxGap), slowInputs: [...slow].sort((a, b) => b.ms - a.ms).slice(0, 20), slowInputCount: slow.length,
        stretchCpuMaxMs: attributed.reduce((m, a) => Math.max(m, a.cpuMs), 0),
      };
    },
    close: () => {
      clearInterval(ticker);
      gc.disconnect();
    },
  };
}

/** The spans (sorted by start) that overlap [from, to]. */
function spansIn(sorted: readonly Span[], from: number, to: number): Span[] {
  const out: Span[] = [];
  for (const s of sorted) {
    if (s.startMs >= to) break;
    if (s.startMs + s.ms > from) out.push(s);
  }
  return out;
}

interface Answer {
  readonly status: number;
  readonly ms: number;
  readonly body: string;
}

/** One HTTP request, timed from its start to the last byte of the answer. */
function timedRequest(agent: Agent, method: string, url: string, body?: unknown): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = httpRequest(url, { method, agent, headers: payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - t0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    // A request that fails on the way (a keep-alive socket the server closed as it was reused,
    // at a high load) is an answer with status 0 and the error's message, so that the run names
    // it among its problems instead of dying on an unhandled rejection.
    req.on('error', (err: Error) => resolve({ status: 0, ms: performance.now() - t0, body: err.message }));
    req.end(payload);
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** bench:scale-lag's command line: every option of {@link ScaleLagOptions}, the core's bounds by `npm start`'s flag names. */
export const SCALE_LAG_USAGE: BenchUsage = {
  name: 'bench:scale-lag',
  summary: 'Event-loop delay and GET /ping while one app\'s instances are created, deleted and scaled up through pacer\'s API (--cluster sim, paced); writes bench/results/scale-lag.json.',
  options: {
    instances: { kind: 'int', help: 'instances of the app created, deleted and scaled up', default: DEFAULT_SCALE_LAG_OPTIONS.instances, min: 1 },
    agents: { kind: 'int', help: 'simulated agents, 64 cpus each', default: DEFAULT_SCALE_LAG_OPTIONS.agents, min: 1 },
    speed: { kind: 'number', help: 'virtual ms per wall ms, as npm start\'s --speed', default: DEFAULT_SCALE_LAG_OPTIONS.speed, min: 0.01 },
    'ping-every': { kind: 'int', help: 'ms between one GET /ping\'s answer and the next ping', default: DEFAULT_SCALE_LAG_OPTIONS.pingEveryMs, min: 1 },
    timeout: { kind: 'number', help: 'wall-clock seconds each phase may take', default: DEFAULT_SCALE_LAG_OPTIONS.timeoutS, min: 0.1 },
    launches_per_input: { kind: 'int', help: 'the core\'s placements per input', default: DEFAULT_SCALE_LAG_OPTIONS.launchesPerInput, min: 1 },
    launches_per_offer_batch: { kind: 'int', help: 'the core\'s placements per batch of offers', default: DEFAULT_SCALE_LAG_OPTIONS.launchesPerOfferBatch, min: 1 },
    instances_per_input: { kind: 'int', help: 'the core\'s creations, kills or reconciled tasks per input', default: DEFAULT_SCALE_LAG_OPTIONS.instancesPerInput, min: 1 },
  },
};

/** The options of a bench:scale-lag command line: a bad value throws a usage error (one line, exit 2), `--help` the usage (exit 0). */
export function readScaleLagArgs(argv: readonly string[]): ScaleLagOptions {
  const a = readBenchArgs(SCALE_LAG_USAGE, argv);
  return {
    instances: a.int('instances'), agents: a.int('agents'), speed: a.number('speed'), pingEveryMs: a.int('ping-every'), timeoutS: a.number('timeout'),
    launchesPerInput: a.int('launches_per_input'), launchesPerOfferBatch: a.int('launches_per_offer_batch'), instancesPerInput: a.int('instances_per_input'),
  };
}

async function main(): Promise<number> {
  const o = readScaleLagArgs(process.argv.slice(2));
  const info = runInfo();
  console.log(`bench:scale-lag  ${formatRunInfo(info)}`);
  console.log(`${o.instances} instances, ${o.agents} simulated agents, speed ${o.speed}; GET /ping every ${o.pingEveryMs} ms`);
  console.log(`core bounds: --launches_per_input ${o.launchesPerInput} --launches_per_offer_batch ${o.launchesPerOfferBatch} --instances_per_input ${o.instancesPerInput}`);
  const r = await runScaleLagBench(o);
  const worst = Math.max(...r.phases.map((p) => p.lagMaxMs));
  console.log(`  worst event-loop delay ${worst} ms; peak heap ${r.peakHeapMib} MiB`);
  return finishRun('bench:scale-lag', 'bench/results/scale-lag.json', info, { ...r }, r.problems);
}

runBenchMain('bench:scale-lag', module, main);
