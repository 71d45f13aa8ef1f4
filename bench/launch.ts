import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { hostProcesses } from '../src/cluster/local/sandbox-processes';
import { exitOf, hasExited, type PacerProcess, startPacerProcess, stderrReason } from './lib/pacer-process';
import { cleanUpOnSignals, runCleanup } from './lib/run-cleanup';
import { nearestRank } from './lib/quantile';
import { runBenchMain } from './lib/run-info';
import { formatMachineProbe, type MachineProbe, probeMachine } from './lib/machine-probe';
import { type BenchUsage, readBenchArgs } from './lib/bench-args';

/**
 * bench:launch — the launch rate of the embedded default, end to end: a real pacer process
 * (`node dist/src/main.js`, or `src/main.ts` through tsx when this file runs from source) on the
 * local cluster with its default single agent, `apps` apps of `instances` `sleep 3600` tasks each
 * created through the REST API, timed from the first POST until every task has reported
 * TASK_RUNNING on the event stream (`status_update_event`). Then it checks that it did all of
 * its work — every request answered 2xx, every task TASK_RUNNING on the stream and in
 * `GET /v2/tasks`, one process per task in the sandboxes — and reports the reasons when not. The
 * tasks ask for the smallest resources Marathon accepts (0.001 cpus, 0 MiB, no ports) so that the
 * agent's capacity is not what limits. Every process it started (pacer and the tasks, found
 * through their sandbox marker) is killed and its temp directory removed at the end, also on
 * failure, and also on SIGINT (Ctrl-C) or SIGTERM, after which it exits 130 or 143.
 *
 *   npm run bench:launch                                     # 10 apps × 100 tasks
 *   npm run bench:launch -- --apps 2 --instances 500
 *   npm run bench:launch -- --pacer "--max_instances_per_offer 5 --local_offer_interval 1000"
 *   npm run bench:launch -- --cpu-prof prof                 # pacer writes a .cpuprofile into prof/
 */

/** What to run. */
export interface LaunchBenchOptions {
  readonly apps: number;
  readonly instances: number;
  /** Extra flags for pacer. */
  readonly pacerArgs: readonly string[];
  /** Extra flags for pacer's node (e.g. `--cpu-prof`). */
  readonly nodeArgs?: readonly string[];
  /** Give up after this long (from the first POST). */
  readonly timeoutMs: number;
}

/** The figures of one run, and what went wrong. */
export interface LaunchBenchResult {
  readonly tasks: number;
  readonly requests: number;
  /** Tasks seen TASK_RUNNING on the event stream. */
  readonly runningOnStream: number;
  /** Tasks TASK_RUNNING in GET /v2/tasks at the end. */
  readonly runningInApi: number;
  /** Task processes found in the sandboxes at the end. */
  readonly processes: number;
  /** Until every create request was answered. */
  readonly createMs: number;
  readonly firstRunningMs: number;
  readonly allRunningMs: number;
  /** Tasks per second from the first POST to the last TASK_RUNNING. */
  readonly tasksPerSec: number;
  /** Tasks per second between the 10th and the 90th percentile TASK_RUNNING. */
  readonly steadyTasksPerSec: number;
  /** Why the run did not do all its work; empty when it did. */
  readonly problems: readonly string[];
}

/** Run the benchmark once. Never throws for a failed run: the reasons are in `problems`. */
export async function runLaunchBench(o: LaunchBenchOptions): Promise<LaunchBenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'pacer-bench-launch-'));
  const sandboxRoot = join(dir, 'sandboxes');
  mkdirSync(sandboxRoot);
  const problems: string[] = [];
  const tasks = o.apps * o.instances;
  const pacer = startPacer(dir, sandboxRoot, o.pacerArgs, o.nodeArgs ?? []);
  let stream: IncomingMessage | undefined;
  // The same clean-up at the end, on a failure and on SIGINT/SIGTERM (cleanUpOnSignals), registered before the first await.
  const cleanup = runCleanup(async () => {
    stream?.destroy();
    await pacer.stop();
    await killTasks(sandboxRoot);
    rmSync(dir, { recursive: true, force: true });
  });
  try {
    const address = await pacer.address;
    const running = new Map<string, number>();
    stream = await openStream(address, (event) => {
      if (event.eventType === 'status_update_event' && event.taskStatus === 'TASK_RUNNING' && typeof event.taskId === 'string' && !running.has(event.taskId)) {
        running.set(event.taskId, performance.now());
      }
    });
    const t0 = performance.now();
    const answers = await createApps(address, o);
    const createMs = performance.now() - t0;
    for (const a of answers) if (a.status < 200 || a.status > 299) problems.push(`${a.what} answered ${a.status}: ${a.body.slice(0, 200)}`);
    const deadline = t0 + o.timeoutMs;
    while (running.size < tasks && performance.now() < deadline && !hasExited(pacer.child)) await sleep(20);
    if (hasExited(pacer.child)) problems.push(`pacer exited (${exitOf(pacer.child)}): ${stderrReason(pacer.stderr())}`);
    if (running.size < tasks) problems.push(`only ${running.size} of ${tasks} tasks reached TASK_RUNNING within ${Math.round(o.timeoutMs / 1000)} s`);
    const times = [...running.values()].sort((a, b) => a - b);
    const last = times.at(-1) ?? performance.now();
    const runningInApi = await runningTasks(address).catch((err: Error) => {
      problems.push(`GET /v2/tasks failed: ${err.message}`);
      return 0;
    });
    if (runningInApi !== tasks) problems.push(`GET /v2/tasks shows ${runningInApi} running tasks, expected ${tasks}`);
    const processes = taskProcesses(sandboxRoot).length;
    if (processes !== tasks) problems.push(`${processes} task processes run in the sandboxes, expected ${tasks}`);
    // By nearest rank, as every quantile the benchmarks print; the rate is that of the tasks that reached TASK_RUNNING after p10, up to p90.
    const p10 = nearestRank(times, 0.1);
    const p90 = nearestRank(times, 0.9);
    const between = times.filter((at) => at > p10 && at <= p90).length;
    return {
      tasks, requests: answers.length, runningOnStream: running.size, runningInApi, processes,
      createMs: round(createMs), firstRunningMs: round((times[0] ?? last) - t0), allRunningMs: round(last - t0),
      tasksPerSec: Math.round(running.size / ((last - t0) / 1000)),
      steadyTasksPerSec: p90 > p10 ? Math.round(between / ((p90 - p10) / 1000)) : 0,
      problems,
    };
  } catch (err) {
    problems.push((err as Error).message);
    return { tasks, requests: 0, runningOnStream: 0, runningInApi: 0, processes: 0, createMs: 0, firstRunningMs: 0, allRunningMs: 0, tasksPerSec: 0, steadyTasksPerSec: 0, problems };
  } finally {
    await cleanup();
  }
}

/** pacer on a free port with its store in `dir` and its sandboxes under `sandboxRoot`. */
function startPacer(dir: string, sandboxRoot: string, extra: readonly string[], nodeArgs: readonly string[]): PacerProcess {
  return startPacerProcess({ args: ['--port', '0', '--store', join(dir, 'pacer.db'), '--sandbox', sandboxRoot, ...extra], nodeArgs, startTimeoutMs: 60_000 });
}

/** `GET /v2/events` for status updates; resolves once the stream is open. */
function openStream(address: string, onEvent: (event: Record<string, unknown>) => void): Promise<IncomingMessage> {
  const [host, port] = address.split(':');
  return new Promise((resolveStream, reject) => {
    const req = request({ host, port: Number(port), path: '/v2/events?event_type=status_update_event', headers: { Accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) {
        reject(new Error(`GET /v2/events answered ${res.statusCode}`));
        return;
      }
      // Server-sent events: blocks end with an empty line; Marathon ends lines with CRLF.
      let buffer = '';
      res.setEncoding('utf8').on('data', (chunk: string) => {
        buffer += chunk.replace(/\r\n/g, '\n');
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = block.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join('\n');
          if (data !== '') onEvent(JSON.parse(data) as Record<string, unknown>);
          end = buffer.indexOf('\n\n');
        }
      });
      res.on('error', () => undefined);
      resolveStream(res);
    });
    req.on('error', reject);
    req.end();
  });
}

interface Answer {
  readonly what: string;
  readonly status: number;
  readonly body: string;
}

const CONCURRENT_CREATES = 4;

/** POST every app, a few at a time. */
async function createApps(address: string, o: LaunchBenchOptions): Promise<Answer[]> {
  const answers: Answer[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < o.apps) {
      const i = next++;
      const app = { id: `/bench/launch-${i}`, cmd: 'sleep 3600', cpus: 0.001, mem: 0, instances: o.instances, portDefinitions: [] };
      const res = await fetch(`http://${address}/v2/apps`, {
        method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(app), signal: AbortSignal.timeout(30_000),
      });
      answers.push({ what: `POST /v2/apps ${app.id}`, status: res.status, body: await res.text() });
    }
  };
  await Promise.all(Array.from({ length: CONCURRENT_CREATES }, worker));
  return answers;
}

/** How many tasks GET /v2/tasks shows TASK_RUNNING. */
async function runningTasks(address: string): Promise<number> {
  const res = await fetch(`http://${address}/v2/tasks`, { signal: AbortSignal.timeout(30_000) });
  if (res.status !== 200) throw new Error(`answered ${res.status}`);
  const body = (await res.json()) as { tasks: { state?: string }[] };
  return body.tasks.filter((task) => task.state === 'TASK_RUNNING').length;
}

/** The task processes (session leaders marked with a sandbox of `sandboxRoot`). */
function taskProcesses(sandboxRoot: string): number[] {
  return hostProcesses(sandboxRoot).filter((p) => p.sandbox !== undefined && p.pid === p.session).map((p) => p.pid);
}

/** SIGKILL every process of the sandboxes, and wait (bounded) until none is left. */
async function killTasks(sandboxRoot: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const left = hostProcesses(sandboxRoot).filter((p) => p.sandbox !== undefined);
    if (left.length === 0) return;
    if (Date.now() > deadline) {
      console.error(`bench:launch: ${left.length} task processes outlived 10 s of SIGKILL; pids ${left.map((p) => p.pid).join(' ')}`);
      return;
    }
    for (const p of left) {
      try {
        process.kill(p.pgrp === p.pid ? -p.pid : p.pid, 'SIGKILL');
      } catch {
        // gone already
      }
    }
    await sleep(50);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}

function round(x: number): number {
  return Math.round(x * 10) / 10;
}

/** The machine, Node.js version and date, for the figures, with what a process spawn costs here (machine-probe.ts). */
export function machineLine(probe: MachineProbe): string {
  const cpu = cpus();
  return `${new Date().toISOString()}  node ${process.version}  ${cpu.length} × ${cpu[0]?.model ?? 'unknown cpu'}, `
    + `${Math.round(totalmem() / 2 ** 30)} GiB, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}; ${formatMachineProbe(probe)}`;
}

/** bench:launch's command line (bench/lib/bench-args.ts: every value checked before any work). */
export const LAUNCH_USAGE: BenchUsage = {
  name: 'bench:launch',
  summary: 'The launch rate of the embedded default: a real pacer on the local cluster, N apps of M `sleep 3600` tasks created through the API, timed until every task is TASK_RUNNING.',
  options: {
    apps: { kind: 'int', help: 'apps to create', default: 10, min: 1, max: 1000 },
    instances: { kind: 'int', help: 'tasks per app', default: 100, min: 1, max: 10_000 },
    pacer: { kind: 'string', help: 'more flags for pacer, in one argument (e.g. "--max_instances_per_offer 5")' },
    'cpu-prof': { kind: 'string', help: 'a directory: pacer writes a .cpuprofile into it' },
    timeout: { kind: 'int', help: 'seconds to wait from the first POST (default: max(120, tasks / 5))', min: 1, max: 86_400 },
  },
};

async function main(): Promise<number> {
  const args = readBenchArgs(LAUNCH_USAGE, process.argv.slice(2));
  cleanUpOnSignals('bench:launch');
  const apps = args.int('apps');
  const instances = args.int('instances');
  const pacerArgs = (args.text('pacer') ?? '').split(/\s+/).filter((a) => a !== '');
  const profileDir = args.text('cpu-prof');
  const nodeArgs = profileDir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${resolve(profileDir)}`];
  const timeoutMs = (args.maybeNumber('timeout') ?? Math.max(120, (apps * instances) / 5)) * 1000;
  const probe = probeMachine();
  console.log(`bench:launch  ${machineLine(probe)}`);
  console.log(`${apps} apps × ${instances} \`sleep 3600\` tasks on the local cluster's default agent${pacerArgs.length > 0 ? `, pacer ${pacerArgs.join(' ')}` : ''}`);
  const r = await runLaunchBench({ apps, instances, pacerArgs, nodeArgs, timeoutMs });
  console.log('tasks  requests  create-ms  first-running-ms  all-running-ms  tasks/s  steady-tasks/s');
  console.log(`${String(r.tasks).padStart(5)} ${String(r.requests).padStart(9)} ${String(r.createMs).padStart(10)} ${String(r.firstRunningMs).padStart(17)} ${String(r.allRunningMs).padStart(15)} ${String(r.tasksPerSec).padStart(8)} ${String(r.steadyTasksPerSec).padStart(15)}`);
  writeFileSync('bench/results/launch.json', `${JSON.stringify({ machine: machineLine(probe), probe, node: process.version, apps, instances, pacerArgs, result: r }, null, 2)}\n`);
  if (r.problems.length > 0) {
    console.log(`FAILED: the benchmark did not do all of its work:\n- ${r.problems.join('\n- ')}`);
    return 1;
  }
  console.log(`ok: every request answered 2xx, all ${r.tasks} tasks TASK_RUNNING (stream and /v2/tasks), one process each`);
  return 0;
}

runBenchMain('bench:launch', module, main);
