import type { AddressInfo } from 'node:net';
import { performance, PerformanceObserver } from 'node:perf_hooks';
import Fastify from 'fastify';
import { appFromWire } from '../src/marathon/convert/app-from-wire';
import { defaultConfig } from '../src/runtime/config';
import { ApiListeners } from '../src/runtime/api-listeners';
import { simApi, type SimApi } from '../src/runtime/sim-api';
import { withRunSpec as putRunSpecInRoot, isoTime } from '../src/scheduler/index';
import type { SimAgentSpec } from '../sim/cluster/sim-agent-spec';
import { DEFAULT_SIM_TIMINGS } from '../sim/cluster/sim-models';
import { createRunSession, type RunSession } from '../sim/runner/run-scenario';
import type { Scenario } from '../sim/scenario/scenario';
import { nearestRank, quantile } from './lib/quantile';
import { LoadClient, type LoadResult, type LoadSpec, type SubscriberCounts } from './lib/load-client';
import { type BenchUsage, readBenchArgs } from './lib/bench-args';
import { finishRun, formatRunInfo, runInfo, runBenchMain } from './lib/run-info';

/**
 * bench:api — pacer's REST API over the simulated cluster, measured with autocannon over real
 * sockets on 127.0.0.1, against a fastify hello-world started in the same run as the baseline.
 * The server under test is this process (the composition `--cluster sim` serves, src/runtime/
 * sim-api.ts, with the run stepped by the benchmark instead of paced in real time, and invariant
 * checks off); autocannon and the event-stream subscribers run in a child process
 * (bench/lib/load-client.ts), so that each side has a core of this 2-core machine.
 *
 * Phases: `GET /ping` (baseline: the hello-world's `GET /ping`); 1,000 apps × 100 instances
 * deployed and Running (one group deployment) → `GET /v2/apps` (1k apps), `GET /v2/tasks`
 * (100k tasks); 9,000 more apps of 1 instance → `GET /v2/apps` (10k apps), `GET /v2/tasks`; then
 * `--list-changes` times one big app scaled up by one and one read of each list (what a read
 * costs when one app changed: the kept answers encode again only that app's piece); with those
 * 10k apps present, the core's own time for one app create and one delete (`submit`, p50 and p99
 * of `--core-samples` pairs, 1,000 by default, after a first, cold pair timed apart and 5 untimed), then
 * `POST /v2/apps` of new apps (0 instances: the change and its deployment, not launches, which
 * bench:launch measures) and `DELETE` of each; then `/v2/events` fan-out to 1,000 subscribers.
 *
 * It checks that it did all of its work — every request answered 2xx (autocannon's non-2xx,
 * errors and timeouts all 0), every instance Running before the reads, every app created and
 * deleted, every event delivered to every subscriber and none disconnected — and exits 1 naming
 * what is missing otherwise. Writes bench/results/api.json.
 *
 *   npm run bench:api                                   # the sizes above, 10 s per load, 10 connections
 *   npm run bench:api -- --seconds 5 --connections 50
 *   npm run bench:api -- --apps 100 --instances 10 --more-apps 900 --creates 200 --subscribers 100 --events 200
 *   npm run bench:api -- --only lists                   # only the list reads and their set-up
 *   npm run bench:api -- --only lists --settle-ms 3000  # idle 3 s after each set-up before reading
 *   npm run bench:api -- --only lists --tasks-right-after  # also one GET /v2/tasks the instant the first set-up ends
 *   npm run bench:api -- --only ping --rounds 7 --seconds 5    # only `/ping`: 7 interleaved rounds, medians
 *   npm run bench:api -- --help                         # every option, its range and default
 *
 * `--rounds N` (default 1) measures the baseline and pacer's `/ping` N times, alternately, both
 * listening from the start (pacer's composition built first, so both are measured in the same
 * process state) and warmed up by 2 s of load each, not counted, and reports each side's median
 * req/s and server CPU per request: on a shared machine one round of each measures the load of the
 * moment as much as the servers.
 *
 * A load's req/s is its answers 2xx over the time from its first request sent to its last answer
 * received (bench/lib/load-client.ts, `AnswerWindow`): autocannon's own `duration` ends on its
 * 1-second sampling tick, which for the fixed-count POST and DELETE loads could be most of it.
 *
 * Each list load also prints the answer's size, the first answer's time (the first read after a
 * change renders what changed), the five slowest answers with their place in the order they were
 * answered, and this process's GC pauses during the load: what a p99 of a few hundred answers is.
 *
 * What the reads include and what they do not: pacer renders a task's JSON text when the core
 * reports its new state (src/api/render/task-text-ahead.ts, a listener of the core's events), so
 * that rendering runs inside the set-up's stepping (the `setup` times), as it runs inside status
 * updates in production; the first read after a deployment still checks every task's kept text,
 * counts and renders what it shows of each app that changed, and encodes the new segments of the
 * answer. App definitions are rendered at the first read that shows them.
 *
 * At the end it prints each of issue 13's targets this run measured as `met` or `NOT MET`, with
 * the figure judged and what it was taken over ({@link checkTargets}): the list targets over every
 * answer they apply to, the first read after each deployment included.
 */
export interface ApiBenchOptions {
  /** Apps of `instances` instances each (the tasks of `GET /v2/tasks`). */
  readonly apps: number;
  readonly instances: number;
  /** Apps of one instance added before the large `GET /v2/apps` and the writes. */
  readonly moreApps: number;
  readonly agents: number;
  readonly seconds: number;
  /** Each read load a fixed number of requests instead of `seconds` (the smoke test: a load runs at least 1 s otherwise). */
  readonly requestsPerLoad?: number;
  readonly connections: number;
  /** Apps created (then deleted) through the API. */
  readonly creates: number;
  /** Core create/delete pairs timed. */
  readonly coreSamples: number;
  readonly subscribers: number;
  readonly events: number;
  /** Apps changed one at a time (one instance more, then Running) each followed by one `GET /v2/apps` and one `GET /v2/tasks`. */
  readonly listChanges?: number;
  /** Alternate baseline / pacer `/ping` measurements (default 1: the baseline, then pacer). */
  readonly pingRounds?: number;
  /**
   * Milliseconds the server stays idle after each deployment's set-up, before the first read
   * (default 0: read at once). The set-up steps the simulated cluster synchronously for tens of
   * seconds, so V8 runs none of its GC tasks until it ends; a real cluster's inputs come one per
   * event-loop turn. A few seconds here show how much of the first reads' time is that debt.
   */
  readonly settleMs?: number;
  /**
   * `--tasks-right-after`: one `GET /v2/tasks` right after the first set-up (100k tasks), before anything else (the
   * server's pass that keeps each app's piece ahead of the reads, lists-ahead.ts, waits 200 ms
   * without a status first, so this read finds nothing kept). Reported, not among the reads the
   * target judges: no live cluster delivers 100,000 statuses in one synchronous block.
   */
  readonly tasksRightAfter?: boolean;
  /** `lists`: only the list reads (`GET /v2/apps`, `GET /v2/tasks`), with their set-up; `ping`: only the `/ping` phase (the baseline and pacer), nothing deployed; `all` (default): every phase. */
  readonly only?: 'all' | 'lists' | 'ping';
  /** `--accept-encoding`: the `Accept-Encoding` of every list read (`GET /v2/apps`, `/v2/tasks`); `identity` (default): none sent. */
  readonly acceptEncoding?: 'identity' | 'gzip';
}

export const DEFAULT_API_BENCH_OPTIONS: ApiBenchOptions = {
  apps: 1000, instances: 100, moreApps: 9000, agents: 1000, seconds: 10, connections: 10, creates: 2000, coreSamples: 1000, subscribers: 1000, events: 2000, listChanges: 20, only: 'all', acceptEncoding: 'identity',
};

const DEFAULT_LIST_CHANGES = 20;

/** One measured load, with its ratio to the baseline where it has one. */
export interface LoadFigure extends LoadResult {
  readonly name: string;
  readonly connections: number;
  /**
   * CPU time of this process (the server; autocannon runs in the load process) per request
   * answered 2xx, µs: on a shared machine it varies far less than the rates and latencies, which
   * include the time the server waited for a core.
   */
  readonly cpuUsPerRequest: number;
  /** This process's GC pauses during the load: how many, the longest and their sum, ms. */
  readonly gc: GcPauses;
}

/** GC pauses of this process over a stretch of time. */
export interface GcPauses {
  readonly count: number;
  readonly maxMs: number;
  readonly totalMs: number;
}

/** The answer times of list reads each right after one app changed (the renderings of one change). */
export interface AfterChangeFigure {
  readonly name: string;
  readonly changes: number;
  readonly p50Ms: number;
  readonly maxMs: number;
  /** Each read's time, in the order of the changes, ms. */
  readonly timesMs: readonly number[];
  /** CPU time of this process per read, µs (the change and its stepping excluded). */
  readonly cpuUsPerRequest: number;
  /** CPU time of the load process (autocannon) per read, µs. */
  readonly clientCpuUsPerRequest: number;
}

export interface ApiBenchResult {
  readonly options: ApiBenchOptions;
  readonly loads: readonly LoadFigure[];
  readonly afterChange: readonly AfterChangeFigure[];
  /** pacer's `/ping` req/s ÷ the baseline's (medians of the rounds); undefined with `--only lists`. */
  readonly pingRatio?: number;
  /** Server CPU per `/ping` answered, µs, median of the rounds: pacer and the baseline; undefined with `--only lists`. */
  readonly pingCpuUs?: { readonly pacer: number; readonly baseline: number };
  readonly setupMs: { readonly firstApps: number; readonly moreApps: number };
  readonly core?: {
    readonly apps: number; readonly createP50Ms: number; readonly createP99Ms: number; readonly deleteP50Ms: number; readonly deleteP99Ms: number;
    /** How many create/delete pairs were timed, and the slowest of each (printed beside the p99: nothing left out). */
    readonly samples: number; readonly createMaxMs: number; readonly deleteMaxMs: number;
    /** The process's first create and delete (code not compiled yet), not among the samples. */
    readonly coldCreateMs: number; readonly coldDeleteMs: number;
  };
  readonly sse?: { readonly subscribers: number; readonly events: number; readonly deliveries: number; readonly seconds: number; readonly deliveriesPerSec: number; readonly rssBeforeMib: number; readonly rssPeakMib: number; readonly rssAfterMib: number; readonly counts: SubscriberCounts };
  /** issue 13's targets for what this run measured, each judged from every answer it applies to (see {@link checkTargets}). */
  readonly targets: readonly TargetCheck[];
  readonly problems: readonly string[];
}

/** One of issue 13's bench:api targets, as this run measured it. */
export interface TargetCheck {
  readonly target: string;
  readonly met: boolean;
  /** The figure judged and what it was taken over. */
  readonly measured: string;
}

const MIB = 1024 * 1024;

/** Runs every phase; never throws for work left undone (the reasons are in `problems`). */
export async function runApiBench(o: ApiBenchOptions, log: (line: string) => void = console.log): Promise<ApiBenchResult> {
  const problems: string[] = [];
  const loads: LoadFigure[] = [];
  const client = LoadClient.start();
  const measure = async (name: string, url: string, kind: LoadSpec['kind'], connections: number, amount?: number): Promise<LoadFigure> => {
    const gc = gcPauses();
    const cpu0 = process.cpuUsage();
    const n = amount ?? o.requestsPerLoad;
    const lists = kind.type === 'get' && kind.path !== '/ping';
    const r = await client.load({ url, connections, kind: lists ? { ...kind, ...listHeaders(o) } : kind, keepTimes: lists, ...(n !== undefined ? { amount: n } : { durationS: o.seconds }) });
    const cpu = process.cpuUsage(cpu0);
    if ('error' in r) throw new Error(`${name}: ${String((r as { error: unknown }).error)}`);
    const figure = { name, connections, ...r, cpuUsPerRequest: Math.round((cpu.user + cpu.system) / Math.max(1, r.ok2xx)), gc: gc.stop() };
    loads.push(figure);
    if (r.non2xx > 0 || r.errors > 0 || r.timeouts > 0 || r.ok2xx === 0) problems.push(`${name}: ${r.ok2xx} answered 2xx, ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts`);
    if (n !== undefined && r.ok2xx !== n) problems.push(`${name}: ${r.ok2xx} of ${n} requests answered 2xx`);
    log(`  ${name.padEnd(34)} ${String(connections).padStart(3)} conn  ${String(r.reqPerSec).padStart(7)} req/s  p50 ${String(r.p50Ms).padStart(6)} ms  p99 ${String(r.p99Ms).padStart(6)} ms  max ${r.latencyMaxMs} ms  cpu ${figure.cpuUsPerRequest} µs/req  (${r.ok2xx} 2xx, ${r.non2xx} non-2xx, ${r.errors} errors)`);
    if (lists) {
      const slow = r.slowest.map((x) => `#${x.at} ${x.ms}`).join(', ');
      log(`  ${''.padEnd(34)} ${(r.responseBytes / MIB).toFixed(1)} MiB each; load process (autocannon) cpu ${r.clientCpuUsPerAnswer} µs/answer; first ${r.firstMs} ms; slowest (#order ms): ${slow}; GC ${figure.gc.count} pauses, max ${figure.gc.maxMs} ms, total ${figure.gc.totalMs} ms`);
    }
    return figure;
  };
  try {
    const only = o.only ?? 'all';
    const withPing = only !== 'lists';
    // The baseline: a fastify hello-world on this process, measured the same way.
    const hello = Fastify({ logger: false });
    hello.get('/ping', async (_req, reply) => reply.type('text/plain; charset=utf-8').send('pong'));
    const rounds = Math.max(1, o.pingRounds ?? 1);
    const baselines: LoadFigure[] = [];
    const pings: LoadFigure[] = [];
    if (withPing) {
      await hello.listen({ host: '127.0.0.1', port: 0 });
      if (rounds === 1) {
        baselines.push(await measure('baseline fastify GET /ping', `http://127.0.0.1:${port(hello)}`, { type: 'get', path: '/ping' }, o.connections));
        await hello.close();
      }
    }

    const { session, api } = simComposition(o);
    await api.app.listen({ host: '127.0.0.1', port: 0 });
    const url = `http://127.0.0.1:${port(api.app)}`;
    try {
      if (withPing && rounds === 1) pings.push(await measure('pacer GET /ping', url, { type: 'get', path: '/ping' }, o.connections));
      else if (withPing) {
        try {
          // Warm-up, not counted: both servers' code optimized before the first measured round.
          for (const target of [`http://127.0.0.1:${port(hello)}`, url]) await client.load({ url: target, connections: o.connections, kind: { type: 'get', path: '/ping' }, ...(o.requestsPerLoad !== undefined ? { amount: o.requestsPerLoad } : { durationS: 2 }) });
          for (let k = 0; k < rounds; k++) {
            baselines.push(await measure('baseline fastify GET /ping', `http://127.0.0.1:${port(hello)}`, { type: 'get', path: '/ping' }, o.connections));
            pings.push(await measure('pacer GET /ping', url, { type: 'get', path: '/ping' }, o.connections));
          }
        } finally {
          await hello.close();
        }
      }
      const median = (figures: readonly LoadFigure[], of: (f: LoadFigure) => number): number => quantile(figures.map(of), 0.5);
      const pingRatio = withPing ? Math.round((median(pings, (f) => f.reqPerSec) / Math.max(1, median(baselines, (f) => f.reqPerSec))) * 100) / 100 : undefined;
      const pingCpuUs = withPing ? { pacer: median(pings, (f) => f.cpuUsPerRequest), baseline: median(baselines, (f) => f.cpuUsPerRequest) } : undefined;
      if (rounds > 1) log(`  /ping, median of ${rounds} rounds: ${median(pings, (f) => f.reqPerSec)} vs ${median(baselines, (f) => f.reqPerSec)} req/s (${pingRatio}×); server CPU ${pingCpuUs?.pacer} vs ${pingCpuUs?.baseline} µs per request`);
      if (only === 'ping') return { options: o, loads, afterChange: [], pingRatio, pingCpuUs, setupMs: { firstApps: 0, moreApps: 0 }, targets: checkTargets(o, loads, [], pingRatio), problems };

      // A load balancer polls from the start (marathon-lb's embed): the server keeps that embed's app pieces ahead of the reads from then on (lists-ahead.ts).
      await measure('a load balancer\'s first poll, nothing deployed: GET /v2/apps?embed=apps.tasks', url, { type: 'get', path: '/v2/apps?embed=apps.tasks' }, 1, 1);
      const t0 = performance.now();
      deployApps(session, 'big', o.apps, o.instances, problems);
      if (!runUntilRunning(session, o.apps * o.instances)) problems.push(`only ${running(session)} of ${o.apps * o.instances} instances Running after the first deployment`);
      const firstApps = performance.now() - t0;
      log(`  setup: ${o.apps} apps × ${o.instances} instances Running in ${(firstApps / 1000).toFixed(1)} s`);
      if (o.tasksRightAfter === true) await measure(`right after the set-up: GET /v2/tasks (${o.apps * o.instances} tasks)`, url, { type: 'get', path: '/v2/tasks' }, 1, 1);
      await settle(o, log);
      await measure(`GET /v2/apps (${o.apps} apps)`, url, { type: 'get', path: '/v2/apps' }, 1);
      await measure(`GET /v2/apps (${o.apps} apps)`, url, { type: 'get', path: '/v2/apps' }, o.connections);
      await measure(`GET /v2/tasks (${o.apps * o.instances} tasks)`, url, { type: 'get', path: '/v2/tasks' }, 1);
      // What load balancers poll (marathon-lb; Traefik adds apps.deployments and apps.readiness): reported, not a target.
      await measure(`GET /v2/apps?embed=apps.tasks (${o.apps * o.instances} tasks)`, url, { type: 'get', path: '/v2/apps?embed=apps.tasks' }, 1);

      const t1 = performance.now();
      deployApps(session, 'small', o.moreApps, 1, problems);
      const total = o.apps * o.instances + o.moreApps;
      if (!runUntilRunning(session, total)) problems.push(`only ${running(session)} of ${total} instances Running after the second deployment`);
      const moreApps = performance.now() - t1;
      const appCount = o.apps + o.moreApps;
      log(`  setup: ${o.moreApps} more apps Running in ${(moreApps / 1000).toFixed(1)} s (${appCount} apps)`);
      await settle(o, log);
      await measure(`GET /v2/apps (${appCount} apps)`, url, { type: 'get', path: '/v2/apps' }, 1);
      await measure(`GET /v2/apps (${appCount} apps)`, url, { type: 'get', path: '/v2/apps' }, o.connections);
      await measure(`GET /v2/tasks (${total} tasks)`, url, { type: 'get', path: '/v2/tasks' }, 1);
      const afterChange = await readsAfterChanges(session, client, url, o, total, problems);
      for (const f of afterChange) log(`  ${f.name.padEnd(34)} after each of ${f.changes} one-app scale-ups (one kept-alive poller): p50 ${f.p50Ms} ms, max ${f.maxMs} ms, cpu ${f.cpuUsPerRequest} µs/req, poller cpu ${f.clientCpuUsPerRequest} µs/req`);
      if (only === 'lists') {
        return { options: o, loads, afterChange, setupMs: { firstApps: Math.round(firstApps), moreApps: Math.round(moreApps) }, targets: checkTargets(o, loads, afterChange, undefined), problems };
      }

      const core = coreChangeTimes(api, appCount, o.coreSamples, problems);
      log(`  core, ${appCount} apps present, ${core.samples} pairs: create p50 ${core.createP50Ms} ms p99 ${core.createP99Ms} ms max ${core.createMaxMs} ms, delete p50 ${core.deleteP50Ms} ms p99 ${core.deleteP99Ms} ms max ${core.deleteMaxMs} ms (the first, cold: create ${core.coldCreateMs} ms, delete ${core.coldDeleteMs} ms)`);
      // Never more connections than requests: autocannon refuses a load with fewer requests than connections.
      const writeConnections = Math.min(o.connections, 8, o.creates);
      await measure(`POST /v2/apps (${appCount} apps present)`, url, { type: 'create-apps', prefix: '/api-bench/new' }, writeConnections, o.creates);
      const created = session.scheduler.runSpecs().filter((s) => s.id.startsWith('/api-bench/new-')).length;
      if (created !== o.creates) problems.push(`${created} of ${o.creates} apps exist after the POSTs`);
      await measure(`DELETE /v2/apps/{id} (${appCount + o.creates} apps)`, url, { type: 'delete-apps', prefix: '/api-bench/new' }, writeConnections, o.creates);
      runUntilIdle(session);
      const left = session.scheduler.runSpecs().filter((s) => s.id.startsWith('/api-bench/new-')).length;
      if (left !== 0) problems.push(`${left} of the ${o.creates} apps created are still there after their DELETE`);

      const sse = await fanOut(api, client, port(api.app), o, problems);
      log(`  SSE: ${sse.events} events × ${sse.subscribers} subscribers = ${sse.deliveries} deliveries in ${sse.seconds.toFixed(2)} s: ${sse.deliveriesPerSec} deliveries/s; RSS ${sse.rssBeforeMib} → peak ${sse.rssPeakMib} → ${sse.rssAfterMib} MiB`);
      return {
        options: o, loads, afterChange, pingRatio, pingCpuUs,
        setupMs: { firstApps: Math.round(firstApps), moreApps: Math.round(moreApps) }, core, sse,
        targets: checkTargets(o, loads, afterChange, pingRatio, core, sse), problems,
      };
    } finally {
      api.hub.close();
      await api.app.close();
    }
  } finally {
    client.stop();
  }
}

/** issue 13: `GET /v2/apps` with 10k apps, p99 (1 connection). */
export const APPS_P99_TARGET_MS = 50;
/** issue 13: `GET /v2/tasks` with 100k tasks, every read. */
export const TASKS_TARGET_MS = 500;

/**
 * issue 13's targets for what this run measured, judged over every answer they apply to, the
 * first read after each deployment included (it is the slowest of its load, and a load that
 * counts it among hundreds of fast ones would hide it in its p99):
 *
 * - `GET /v2/apps` with the large app count, p99 ≤ {@link APPS_P99_TARGET_MS} ms by nearest rank
 *   over every answer of the 1-connection load (the first read after the deployment of the last
 *   apps is its first answer) and the read after each one-app change (each the first read after
 *   that change's deployment); the 10-connection loads measure throughput (answers queue behind
 *   each other on the server's one loop) and are reported, not judged;
 * - `GET /v2/tasks`, every 1-connection answer ≤ {@link TASKS_TARGET_MS} ms: the loads with the
 *   first app count's tasks and with all of them, each starting with the first read after its
 *   deployment, and the read after each one-app change;
 * - `/ping` ≥ 0.8× the baseline; the core's create and delete p99 ≤ 5 ms; POST and DELETE ≥ 200
 *   per second; ≥ 1M event deliveries per second — where this run measured them.
 */
export function checkTargets(
  o: ApiBenchOptions, loads: readonly LoadFigure[], afterChange: readonly AfterChangeFigure[], pingRatio: number | undefined,
  core?: ApiBenchResult['core'], sse?: ApiBenchResult['sse'],
): TargetCheck[] {
  const out: TargetCheck[] = [];
  const appCount = o.apps + o.moreApps;
  const appsLoad = loads.find((l) => l.name === `GET /v2/apps (${appCount} apps)` && l.connections === 1);
  if (appsLoad !== undefined) {
    const changes = afterChange.find((f) => f.name === 'GET /v2/apps')?.timesMs ?? [];
    const all = [...(appsLoad.timesMs ?? []), ...changes].sort((a, b) => a - b);
    const p99 = nearestRank(all, 0.99);
    out.push({
      target: `GET /v2/apps (${appCount} apps) p99 ≤ ${APPS_P99_TARGET_MS} ms`, met: all.length > 0 && p99 <= APPS_P99_TARGET_MS,
      measured: `p99 ${p99} ms over ${all.length} reads at 1 connection: ${appsLoad.answers} of the load (its first, right after the deployment, ${appsLoad.firstMs} ms; its own p99 ${appsLoad.p99Ms} ms) and ${changes.length} right after one-app changes (max ${Math.max(0, ...changes)} ms)`,
    });
  }
  const taskLoads = loads.filter((l) => l.name.startsWith('GET /v2/tasks') && l.connections === 1);
  if (taskLoads.length > 0) {
    const changes = afterChange.find((f) => f.name === 'GET /v2/tasks')?.timesMs ?? [];
    const max = Math.max(0, ...taskLoads.flatMap((l) => l.timesMs ?? []), ...changes);
    const reads = taskLoads.reduce((n, l) => n + l.answers, 0) + changes.length;
    out.push({
      target: `GET /v2/tasks (${o.apps * o.instances} tasks and more) every read ≤ ${TASKS_TARGET_MS} ms`, met: reads > 0 && max <= TASKS_TARGET_MS,
      measured: `max ${max} ms over ${reads} reads at 1 connection: ${taskLoads.map((l) => `${l.name} max ${l.latencyMaxMs} ms (the first read after its deployment ${l.firstMs} ms)`).join('; ')}; ${changes.length} right after one-app changes (max ${Math.max(0, ...changes)} ms)`,
    });
  }
  if (pingRatio !== undefined) out.push({ target: '/ping ≥ 0.8× the hello-world', met: pingRatio >= 0.8, measured: `${pingRatio}×${(o.pingRounds ?? 1) > 1 ? ` (medians of ${o.pingRounds} rounds)` : ' (one round)'}` });
  if (core !== undefined) {
    out.push({ target: `core create and delete among ${core.apps} apps ≤ 5 ms (p99)`, met: core.createP99Ms <= 5 && core.deleteP99Ms <= 5, measured: `over ${core.samples} pairs by nearest rank: create p99 ${core.createP99Ms} ms (max ${core.createMaxMs}), delete p99 ${core.deleteP99Ms} ms (max ${core.deleteMaxMs}); the first, cold pair apart: ${core.coldCreateMs} / ${core.coldDeleteMs} ms` });
  }
  for (const verb of ['POST', 'DELETE']) {
    const l = loads.find((x) => x.name.startsWith(`${verb} /v2/apps`));
    if (l !== undefined) out.push({ target: `${verb} /v2/apps ≥ 200 per second`, met: l.reqPerSec >= 200, measured: `${l.reqPerSec} per second` });
  }
  if (sse !== undefined) out.push({ target: '≥ 1,000,000 event deliveries per second', met: sse.deliveriesPerSec >= 1_000_000, measured: `${sse.deliveriesPerSec} per second, RSS ${sse.rssBeforeMib} → peak ${sse.rssPeakMib} MiB` });
  return out;
}

/** `--settle-ms`: the server idle (its event loop free) for that long, with the GC pauses in it. */
async function settle(o: ApiBenchOptions, log: (line: string) => void): Promise<void> {
  if ((o.settleMs ?? 0) <= 0) return;
  const gc = gcPauses();
  await new Promise((resolve) => setTimeout(resolve, o.settleMs));
  const g = gc.stop();
  log(`  settle: ${o.settleMs} ms idle before the reads; GC ${g.count} pauses, max ${g.maxMs} ms, total ${g.totalMs} ms`);
}

function port(app: { server: { address(): unknown } }): number {
  return (app.server.address() as AddressInfo).port;
}

/** Counts this process's GC pauses from now until `stop()`. */
function gcPauses(): { stop(): GcPauses } {
  const pauses: number[] = [];
  const observer = new PerformanceObserver((list) => { for (const e of list.getEntries()) pauses.push(e.duration); });
  observer.observe({ entryTypes: ['gc'] });
  return {
    stop(): GcPauses {
      for (const e of observer.takeRecords()) pauses.push(e.duration);
      observer.disconnect();
      const r = (x: number): number => Math.round(x * 10) / 10;
      return { count: pauses.length, maxMs: r(Math.max(0, ...pauses)), totalMs: r(pauses.reduce((a, b) => a + b, 0)) };
    },
  };
}

/**
 * `o.listChanges` times: one of the big apps scaled up by one instance (a new definition, its
 * deployment, one new task, stepped until Running), then one `GET /v2/apps` and one `GET /v2/tasks`
 * over HTTP: what a read costs when one app of the list changed since the last one. Read as a
 * poller reads ({@link LoadClient.read}: one connection kept alive, first warmed by
 * {@link POLL_WARMUP_READS} reads of each list before the changes), not as one-request autocannon
 * runs, whose own start made up 10–60 ms of each figure (a static answer of the same size read that
 * way took as long: bench/README.md, 2026-12-01 11:40).
 */
async function readsAfterChanges(session: RunSession, client: LoadClient, url: string, o: ApiBenchOptions, total: number, problems: string[]): Promise<AfterChangeFigure[]> {
  const paths = ['/v2/apps', '/v2/tasks'];
  const times: number[][] = paths.map(() => []);
  const cpus = paths.map(() => 0);
  const clientCpus = paths.map(() => 0);
  for (const path of paths) {
    for (let i = 0; i < POLL_WARMUP_READS; i++) {
      const r = await client.read(`${url}${path}`, listHeaders(o).headers);
      if ('error' in r || r.status !== 200) problems.push(`${path} (a warm-up read): not answered 200`);
    }
  }
  let running = total;
  for (let i = 0; i < (o.listChanges ?? DEFAULT_LIST_CHANGES) && o.apps > 0; i++) {
    const id = `/big/app-${i % o.apps}`;
    const spec = session.scheduler.runSpec(id);
    if (spec === undefined) throw new Error(`bench: ${id} is missing`);
    const converted = appFromWire({ id, cmd: 'sleep 3600', cpus: 0.01, mem: 16, instances: spec.instances + 1, portDefinitions: [] }, { defaultRole: '*', versionIso: isoTime(session.nowMs()) });
    if (!converted.ok) throw new Error(`bench scale ${id}`);
    const put = session.submit({ type: 'putRunSpec', spec: converted.spec });
    if (!put.ok) problems.push(`the scale of ${id} was refused: ${JSON.stringify(put)}`);
    running++;
    if (!runUntilRunning(session, running)) problems.push(`the scale of ${id} did not get to Running`);
    for (let k = 0; k < paths.length; k++) {
      const cpu0 = process.cpuUsage();
      const r = await client.read(`${url}${paths[k]}`, listHeaders(o).headers);
      const cpu = process.cpuUsage(cpu0);
      if ('error' in r || r.status !== 200) problems.push(`${paths[k]} after change ${i}: not answered 200`);
      else {
        times[k].push(r.ms);
        clientCpus[k] += r.clientCpuUs;
      }
      cpus[k] += cpu.user + cpu.system;
    }
  }
  return paths.map((path, k) => ({
    name: `GET ${path}`, changes: times[k].length, p50Ms: times[k].length === 0 ? 0 : quantile([...times[k]], 0.5), maxMs: Math.max(0, ...times[k]), timesMs: times[k],
    cpuUsPerRequest: Math.round(cpus[k] / Math.max(1, times[k].length)), clientCpuUsPerRequest: Math.round(clientCpus[k] / Math.max(1, times[k].length)),
  }));
}

/** The headers of a list read: `Accept-Encoding` with `--accept-encoding gzip`, none by default. */
function listHeaders(o: ApiBenchOptions): { headers?: Readonly<Record<string, string>> } {
  return o.acceptEncoding === undefined || o.acceptEncoding === 'identity' ? {} : { headers: { 'accept-encoding': o.acceptEncoding } };
}

/** Reads of each list before the one-app changes, so that the poller's own code is warm (its first reads took 35–70 ms of a static answer). */
export const POLL_WARMUP_READS = 5;

/** The `--cluster sim` composition over a generated cluster of `o.agents` agents, not paced. */
export function simComposition(o: ApiBenchOptions): { session: RunSession; api: SimApi } {
  const agents: SimAgentSpec[] = [];
  for (let n = 1; n <= o.agents; n++) {
    agents.push({
      agentId: `agent-${n}`, hostname: `host-${n}`, region: 'r1', zone: `z${n % 4}`, attributes: [],
      resources: { cpus: 64, mem: 262_144, disk: 0, gpus: 0, ports: [[31000, 32999]] }, reserved: [],
    });
  }
  const scenario: Scenario = {
    name: 'bench-api', seed: 1, durationMs: 365 * 24 * 3_600_000,
    options: { taskKilling: false, defaultRole: '*', maxInstancesPerOffer: 100, timings: DEFAULT_SIM_TIMINGS },
    invariants: {}, agents, timeline: [],
  };
  const session = createRunSession(scenario, { invariants: false, trace: false });
  const config = { ...defaultConfig(process.cwd()), cluster: 'sim' as const, address: '127.0.0.1', port: 0 };
  return { session, api: simApi(session, scenario, config, () => undefined, Date.now(), { listeners: new ApiListeners(config) }) };
}

/** `count` apps of `instances` instances in one change of the root group (one deployment). */
export function deployApps(session: RunSession, prefix: string, count: number, instances: number, problems: string[]): void {
  const version = isoTime(session.nowMs());
  let root = session.scheduler.root();
  for (let k = 0; k < count; k++) {
    const converted = appFromWire({ id: `/${prefix}/app-${k}`, cmd: 'sleep 3600', cpus: 0.01, mem: 16, instances, portDefinitions: [] }, { defaultRole: '*', versionIso: version });
    if (!converted.ok) throw new Error(`bench app ${k}: ${JSON.stringify(converted.errors)}`);
    const change = putRunSpecInRoot(root, converted.spec, { version, newGroupEnforceRole: 'off' });
    if (!change.ok) throw new Error(`bench app ${k}: ${change.message}`);
    root = change.root;
  }
  const result = session.submit({ type: 'deploy', root, force: false });
  if (!result.ok) problems.push(`the deployment of ${count} ${prefix} apps was refused: ${result.message}`);
}

function running(session: RunSession): number {
  let n = 0;
  for (const spec of session.scheduler.runSpecs()) for (const inst of session.scheduler.instances(spec.id)) if (inst.condition === 'Running') n++;
  return n;
}

/** Steps the simulated cluster (virtual time, as fast as it goes) until `target` instances run, or 1 virtual hour. */
export function runUntilRunning(session: RunSession, target: number): boolean {
  const limit = session.nowMs() + 3_600_000;
  for (;;) {
    const until = session.nowMs() + 10_000;
    while (session.step(until)) { /* handle every entry due in the next 10 virtual seconds */ }
    if (session.nowMs() < until) session.step(until);
    if (running(session) >= target && session.scheduler.runningPlans().length === 0) return true;
    if (session.nowMs() >= limit || session.nextDueMs() === undefined) return running(session) >= target;
  }
}

/** Steps the loop through the next minute of virtual time (deployments of the writes finish). */
function runUntilIdle(session: RunSession): void {
  const until = session.nowMs() + 60_000;
  while (session.step(until)) { /* drain */ }
}

/**
 * The core's own time for one create and one delete with `apps` apps present (through `submit`, as
 * the routes call it). The first pair is timed apart (`cold*`): it is the first putRunSpec and
 * deleteRunSpec of the process (the set-up deploys whole roots), so it runs code V8 has not
 * compiled yet — 10–50 ms once, which as the maximum of 100 samples was the whole p99. Then
 * {@link CORE_WARM_UP_PAIRS} more pairs, untimed, and `samples` timed pairs (1,000 by default: the
 * p99 by nearest rank is then the 990th fastest; of 100 it is the second-slowest, so one GC pause of
 * the API process in a hundred pairs decided it).
 */
function coreChangeTimes(api: SimApi, apps: number, samples: number, problems: string[]): NonNullable<ApiBenchResult['core']> {
  const creates: number[] = [];
  const deletes: number[] = [];
  const pair = (id: string): [number, number] => {
    const converted = appFromWire({ id, cmd: 'sleep 3600', cpus: 0.01, mem: 16, instances: 1 }, { defaultRole: '*', versionIso: isoTime(api.deps.clock.nowMs()) });
    if (!converted.ok) throw new Error('bench core app');
    let t0 = performance.now();
    const put = api.deps.submit({ type: 'putRunSpec', spec: converted.spec });
    const createMs = performance.now() - t0;
    t0 = performance.now();
    const del = api.deps.submit({ type: 'deleteRunSpec', runSpecId: converted.spec.id });
    const deleteMs = performance.now() - t0;
    if (!put.ok || !del.ok) problems.push(`core change ${id} refused: ${JSON.stringify(put.ok ? del : put)}`);
    return [createMs, deleteMs];
  };
  const [coldCreateMs, coldDeleteMs] = pair('/api-bench/core-cold');
  for (let i = 0; i < CORE_WARM_UP_PAIRS; i++) pair(`/api-bench/core-warm-${i}`);
  for (let i = 0; i < samples; i++) {
    const [c, d] = pair(`/api-bench/core-${i}`);
    creates.push(c);
    deletes.push(d);
  }
  const r = (x: number): number => Math.round(x * 100) / 100;
  return {
    apps, createP50Ms: r(quantile(creates, 0.5)), createP99Ms: r(quantile(creates, 0.99)), deleteP50Ms: r(quantile(deletes, 0.5)), deleteP99Ms: r(quantile(deletes, 0.99)),
    samples, createMaxMs: r(Math.max(0, ...creates)), deleteMaxMs: r(Math.max(0, ...deletes)),
    coldCreateMs: r(coldCreateMs), coldDeleteMs: r(coldDeleteMs),
  };
}

/** Untimed create/delete pairs after the cold one, before the timed ones. */
const CORE_WARM_UP_PAIRS = 5;

/**
 * `/v2/events` fan-out: `o.subscribers` connections (filtered to one event type) in the load
 * process; `o.events` events of about 400 bytes published through the hub in batches, yielding
 * between batches so the sockets drain; timed until every subscriber has counted every event.
 */
async function fanOut(api: SimApi, client: LoadClient, serverPort: number, o: ApiBenchOptions, problems: string[]): Promise<NonNullable<ApiBenchResult['sse']>> {
  const rssBefore = process.memoryUsage().rss;
  await client.subscribe(serverPort, o.subscribers, 'event_type=status_update_event');
  if (api.hub.subscriberCount !== o.subscribers) problems.push(`${api.hub.subscriberCount} of ${o.subscribers} subscribers attached`);
  let rssPeak = process.memoryUsage().rss;
  const t0 = performance.now();
  const batch = 50;
  for (let sent = 0; sent < o.events;) {
    for (let i = 0; i < batch && sent < o.events; i++, sent++) {
      api.hub.publish({
        eventType: 'status_update_event', timestamp: new Date().toISOString(), slaveId: 'agent-1', taskId: `bench.instance-${sent}._app.1`, taskStatus: 'TASK_RUNNING',
        message: '', appId: '/bench/app', host: 'host-1.bench', ipAddresses: [{ ipAddress: '10.0.0.1', protocol: 'IPv4' }], ports: [31000], version: '2026-01-01T00:00:00.000Z',
      });
    }
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    await new Promise((resolve) => setImmediate(resolve));
  }
  let counts = await client.counts();
  const deadline = Date.now() + 120_000;
  while (counts.minFrames < o.events && counts.closed === 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    counts = await client.counts();
  }
  const seconds = (performance.now() - t0) / 1000;
  if (counts.closed > 0) problems.push(`SSE: ${counts.closed} subscribers were disconnected`);
  if (counts.minFrames !== o.events || counts.maxFrames !== o.events) problems.push(`SSE: subscribers got ${counts.minFrames}–${counts.maxFrames} of ${o.events} events`);
  const deliveries = counts.minFrames * (o.subscribers - counts.closed);
  return {
    subscribers: o.subscribers, events: o.events, deliveries, seconds, deliveriesPerSec: Math.round(deliveries / seconds),
    rssBeforeMib: Math.round(rssBefore / MIB), rssPeakMib: Math.round(rssPeak / MIB), rssAfterMib: Math.round(process.memoryUsage().rss / MIB), counts,
  };
}

/** bench:api's command line: every option of {@link ApiBenchOptions} but `requestsPerLoad` (the smoke test's). */
export const API_BENCH_USAGE: BenchUsage = {
  name: 'bench:api',
  summary: 'pacer\'s REST API over the simulated cluster under autocannon, against a fastify hello-world; writes bench/results/api.json.',
  options: {
    apps: { kind: 'int', help: 'apps of --instances instances each, deployed first: the tasks of GET /v2/tasks', default: DEFAULT_API_BENCH_OPTIONS.apps, min: 1 },
    instances: { kind: 'int', help: 'instances of each of those apps', default: DEFAULT_API_BENCH_OPTIONS.instances, min: 1 },
    'more-apps': { kind: 'int', help: 'apps of 1 instance added before the large GET /v2/apps and the writes', default: DEFAULT_API_BENCH_OPTIONS.moreApps, min: 1 },
    agents: { kind: 'int', help: 'simulated agents, 64 cpus each', default: DEFAULT_API_BENCH_OPTIONS.agents, min: 1 },
    seconds: { kind: 'int', help: 'seconds of each timed load', default: DEFAULT_API_BENCH_OPTIONS.seconds, min: 1 },
    connections: { kind: 'int', help: 'autocannon connections of each load; the list loads also run at 1, the writes at most 8', default: DEFAULT_API_BENCH_OPTIONS.connections, min: 1 },
    creates: { kind: 'int', help: 'apps created by POST /v2/apps, then each deleted', default: DEFAULT_API_BENCH_OPTIONS.creates, min: 1 },
    'core-samples': { kind: 'int', help: 'core create/delete pairs timed, after a cold pair and 5 untimed', default: DEFAULT_API_BENCH_OPTIONS.coreSamples, min: 1 },
    subscribers: { kind: 'int', help: '/v2/events subscribers of the fan-out', default: DEFAULT_API_BENCH_OPTIONS.subscribers, min: 1 },
    events: { kind: 'int', help: 'events published to them', default: DEFAULT_API_BENCH_OPTIONS.events, min: 1 },
    'list-changes': { kind: 'int', help: 'one-app scale-ups, each followed by one GET /v2/apps and one GET /v2/tasks', default: DEFAULT_API_BENCH_OPTIONS.listChanges ?? DEFAULT_LIST_CHANGES, min: 0 },
    rounds: { kind: 'int', help: 'alternate rounds of the hello-world\'s and pacer\'s /ping, medians reported', default: 1, min: 1 },
    'settle-ms': { kind: 'int', help: 'ms the server stays idle after each set-up before its reads', default: 0, min: 0 },
    'tasks-right-after': { kind: 'flag', help: 'one GET /v2/tasks right after the first set-up, before the pass that keeps the apps ahead has run (reported, not judged)' },
    only: { kind: 'choice', help: 'lists: only the list reads and their set-up; ping: only /ping', default: DEFAULT_API_BENCH_OPTIONS.only ?? 'all', choices: ['all', 'lists', 'ping'] },
    'accept-encoding': { kind: 'choice', help: 'Accept-Encoding of the list reads (GET /v2/apps, /v2/tasks): gzip asks for compressed answers, identity sends none', default: DEFAULT_API_BENCH_OPTIONS.acceptEncoding ?? 'identity', choices: ['identity', 'gzip'] },
  },
};

/** The options of a bench:api command line: a bad value throws a usage error (one line, exit 2), `--help` the usage (exit 0). */
export function readApiBenchArgs(argv: readonly string[]): ApiBenchOptions {
  const a = readBenchArgs(API_BENCH_USAGE, argv);
  return {
    apps: a.int('apps'), instances: a.int('instances'), moreApps: a.int('more-apps'), agents: a.int('agents'), seconds: a.int('seconds'), connections: a.int('connections'),
    creates: a.int('creates'), coreSamples: a.int('core-samples'), subscribers: a.int('subscribers'), events: a.int('events'), listChanges: a.int('list-changes'),
    pingRounds: a.int('rounds'), settleMs: a.int('settle-ms'), tasksRightAfter: a.flag('tasks-right-after'), only: a.text('only') as ApiBenchOptions['only'],
    acceptEncoding: a.text('accept-encoding') as ApiBenchOptions['acceptEncoding'],
  };
}

async function main(): Promise<number> {
  const o = readApiBenchArgs(process.argv.slice(2));
  const info = runInfo();
  console.log(`bench:api  ${formatRunInfo(info)}`);
  const r = await runApiBench(o);
  if (r.pingCpuUs !== undefined) console.log(`  /ping server CPU per request: ${r.pingCpuUs.pacer} µs vs ${r.pingCpuUs.baseline} µs the baseline${(o.pingRounds ?? 1) > 1 ? ` (medians of ${o.pingRounds} rounds)` : ''}; ${r.pingRatio}× the baseline`);
  for (const t of r.targets) console.log(`  target ${t.target}: ${t.met ? 'met' : 'NOT MET'} — ${t.measured}`);
  return finishRun('bench:api', 'bench/results/api.json', info, { ...r }, r.problems);
}

runBenchMain('bench:api', module, main);
