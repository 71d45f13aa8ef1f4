import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BenchUsage, readBenchArgs, UsageError } from './lib/bench-args';
import { hasExited, type PacerProcess, startPacerProcess, stderrReason } from './lib/pacer-process';
import { cleanUpOnSignals, runCleanup } from './lib/run-cleanup';
import { nearestRank } from './lib/quantile';
import { finishRun, formatRunInfo, runInfo, runBenchMain } from './lib/run-info';
import { startBenchZooKeeper, type BenchZooKeeper } from './lib/zookeeper';

/**
 * bench:failover — how long pacer takes to serve writes again after its leader dies: three real
 * pacer processes (`node dist/src/main.js --zk …`, the local cluster, one host: shared `--sandbox`)
 * on a real ZooKeeper (Debian's, started here, or `--zk host:port`), `--zk_session_timeout 3000`.
 * Each failover: find the leader every live pacer names, SIGKILL it (so its ZooKeeper session must
 * expire: the slow case; a stopped pacer leaves at once), then send `POST /v2/apps` (an app of no
 * instances, a write through the whole path: API, core, ZooKeeper store, durable reply) to a
 * surviving pacer — a standby forwards it — until one is accepted (201); the time from the kill to
 * that 201 is the failover time. The killed pacer is started again before the next failover, so
 * there are always three.
 *
 * It checks that it did all of its work: every failover ended with a 201 from a leader other
 * than the one killed, within `--timeout` seconds, and at the end every app written survived every
 * later failover (`GET /v2/apps` lists them all). Target (issue 16): ≤ 5 s with a 3 s session
 * timeout. Its pacers and its ZooKeeper are stopped and its temp directories removed at the end,
 * also on failure, and also on SIGINT (Ctrl-C) or SIGTERM, after which it exits 130 or 143.
 *
 *   npm run bench:failover                       # 20 failovers
 *   npm run bench:failover -- --failovers 50 --session 3000
 *   npm run bench:failover -- --zk 127.0.0.1:2181
 *   npm run bench:failover -- --failovers 1      # the smallest run
 *   npm run bench:failover -- --help
 */

/** What to run. */
export interface FailoverBenchOptions {
  readonly failovers: number;
  readonly sessionTimeoutMs: number;
  /** `host:port` of a running ZooKeeper; absent: one is started from Debian's package. */
  readonly zk?: string;
  /** Most time one failover may take before it counts as failed. */
  readonly timeoutMs: number;
}

/** The figures of one run, and what went wrong. */
export interface FailoverBenchResult {
  /** Milliseconds from each SIGKILL to the first 201, in order. */
  readonly failoverMs: readonly number[];
  /**
   * Where each failover's time went, from the new leader's log (ms after the kill): `electedMs` its
   * `elected leader` line (the old session expired, the survivors saw its znode go),
   * `loadedMs` its `loaded the state` line (the ZooKeeper store read); undefined when not found.
   */
  readonly phases: readonly { readonly electedMs?: number; readonly loadedMs?: number }[];
  readonly minMs: number;
  readonly medianMs: number;
  readonly p90Ms: number;
  readonly maxMs: number;
  readonly completed: number;
  readonly problems: readonly string[];
}

function startPacer(dir: string, zkUrl: string, sessionTimeoutMs: number): PacerProcess {
  return startPacerProcess({
    args: ['--zk', zkUrl, '--zk_session_timeout', String(sessionTimeoutMs), '--port', '0', '--store', join(dir, 'pacer.db'), '--sandbox', join(dir, 'sandboxes')],
    startTimeoutMs: 300_000,
  });
}

async function request(url: string, init: RequestInit = {}): Promise<{ status: number; text: string; leader: string | undefined } | undefined> {
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
    return { status: res.status, text: await res.text(), leader: res.headers.get('x-marathon-leader')?.replace(/^https?:\/\//, '') };
  } catch {
    return undefined;
  }
}

/** The first `elected leader` and `loaded the state` records of a pacer's JSON log after `sinceEpochMs`, as ms after it. */
function phasesOf(stderr: string, sinceEpochMs: number): { electedMs?: number; loadedMs?: number } {
  const out: { electedMs?: number; loadedMs?: number } = {};
  for (const line of stderr.split('\n')) {
    if (!line.startsWith('{')) continue;
    let record: { time?: number; msg?: string };
    try {
      record = JSON.parse(line) as { time?: number; msg?: string };
    } catch {
      continue;
    }
    if (typeof record.time !== 'number' || record.time < sinceEpochMs || typeof record.msg !== 'string') continue;
    if (out.electedMs === undefined && record.msg.startsWith('elected leader')) out.electedMs = record.time - sinceEpochMs;
    if (out.loadedMs === undefined && record.msg.startsWith('loaded the state')) out.loadedMs = record.time - sinceEpochMs;
  }
  return out;
}

/** The leader every pacer names, once they agree (undefined after `limitMs`). */
async function agreedLeader(addresses: readonly string[], limitMs: number): Promise<string | undefined> {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    const named = await Promise.all(addresses.map(async (a) => {
      const r = await request(`http://${a}/v2/leader`);
      return r?.status === 200 ? (JSON.parse(r.text) as { leader: string }).leader : undefined;
    }));
    const first = named[0];
    if (first !== undefined && named.every((n) => n === first) && addresses.includes(first)) return first;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return undefined;
}

/** Runs the failovers; every process it started is stopped at the end, also on failure. */
export async function runFailoverBench(o: FailoverBenchOptions): Promise<FailoverBenchResult> {
  const problems: string[] = [];
  const failoverMs: number[] = [];
  const phases: { electedMs?: number; loadedMs?: number }[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'pacer-bench-failover-'));
  let zk: BenchZooKeeper | undefined;
  let zkStarting: Promise<unknown> | undefined;
  /** The pacers that serve, by address (the leader being killed is taken out). */
  const pacers = new Map<string, PacerProcess>();
  /** Every pacer started that has not exited yet, serving or not: what the clean-up stops. */
  const started = new Set<PacerProcess>();
  /** Set when the clean-up starts: nothing is started after it (a run interrupted by a signal goes on until the process exits). */
  let closing = false;
  // The same clean-up at the end, on a failure and on SIGINT/SIGTERM (cleanUpOnSignals), registered before the first await.
  const cleanup = runCleanup(async () => {
    closing = true;
    await Promise.all([...started].map((p) => p.stop('SIGTERM')));
    await zk?.stop();
    await zkStarting; // a ZooKeeper still starting is stopped by its onSpawned or by the line above, and then throws
    rmSync(dir, { recursive: true, force: true });
  });
  try {
    if (o.zk === undefined) {
      const starting = startBenchZooKeeper({
        onSpawned: (z) => {
          zk = z;
          if (closing) void z.stop();
        },
      });
      zkStarting = starting.catch(() => undefined);
      await starting;
    }
    const zkUrl = `zk://${o.zk ?? zk?.connect ?? ''}/pacer-bench-failover-${process.pid}-${Date.now()}`;
    const start = async (): Promise<void> => {
      if (closing) throw new Error('stopped: no pacer is started during the clean-up');
      const p = startPacer(dir, zkUrl, o.sessionTimeoutMs);
      started.add(p);
      void p.exited.then(() => started.delete(p));
      try {
        pacers.set(await p.address, p);
      } catch (err) {
        await p.stop('SIGKILL'); // did not start in time: stopped here, since the map does not hold it
        throw err;
      }
    };
    for (let i = 0; i < 3; i++) await start();
    const written: string[] = [];
    for (let n = 1; n <= o.failovers; n++) {
      const leader = await agreedLeader([...pacers.keys()], o.timeoutMs);
      if (leader === undefined) {
        problems.push(`failover ${n}: the three pacers did not agree on a leader within ${o.timeoutMs / 1000} s`);
        break;
      }
      const victim = pacers.get(leader) as PacerProcess;
      pacers.delete(leader);
      const killedAtMs = performance.now();
      const killedAtEpochMs = Date.now();
      victim.child.kill('SIGKILL');
      const id = `/bench/failover-${n}`;
      const survivors = [...pacers.keys()];
      let accepted: number | undefined;
      let acceptedBy: string | undefined;
      for (let attempt = 0; accepted === undefined && performance.now() - killedAtMs < o.timeoutMs; attempt++) {
        const target = survivors[attempt % survivors.length] as string;
        const r = await request(`http://${target}/v2/apps`, {
          method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ id, cmd: 'sleep 1', cpus: 0.01, mem: 8, instances: 0 }),
        });
        if (r?.status === 201) {
          accepted = performance.now() - killedAtMs;
          acceptedBy = r.leader;
        }
        else if (r?.status === 409) problems.push(`failover ${n}: ${id} existed before its write was accepted (a write answered 503 was applied)`);
        else await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await victim.exited;
      if (accepted === undefined) {
        const tails = survivors.map((a) => `${a}${pacers.get(a) !== undefined && hasExited((pacers.get(a) as PacerProcess).child) ? ' (exited)' : ''}: ${stderrReason(pacers.get(a)?.stderr() ?? '')}`);
        problems.push(`failover ${n}: no write accepted within ${o.timeoutMs / 1000} s of the kill; the survivors' last log lines: ${tails.join(' ;; ')}`);
        break;
      }
      failoverMs.push(Math.round(accepted));
      written.push(id);
      const newLeader = await agreedLeader(survivors, o.timeoutMs);
      if (newLeader === undefined || newLeader === leader) problems.push(`failover ${n}: the survivors name ${newLeader ?? 'no leader'} after the kill of ${leader}`);
      // The leader that accepted the write (X-Marathon-Leader), whose log tells when it was elected and loaded the state.
      const phase = phasesOf(pacers.get(acceptedBy ?? newLeader ?? '')?.stderr() ?? '', killedAtEpochMs);
      phases.push(phase);
      console.log(`failover ${String(n).padStart(2)}: ${String(Math.round(accepted)).padStart(6)} ms  (elected at ${phase.electedMs ?? '?'} ms, state loaded at ${phase.loadedMs ?? '?'} ms; ${leader} killed, ${newLeader ?? '?'} leads)`);
      await start();
    }
    const leader = await agreedLeader([...pacers.keys()], o.timeoutMs);
    const apps = leader === undefined ? undefined : await request(`http://${leader}/v2/apps`);
    const ids = new Set(apps?.status === 200 ? (JSON.parse(apps.text) as { apps: { id: string }[] }).apps.map((a) => a.id) : []);
    const lost = written.filter((id) => !ids.has(id));
    if (apps?.status !== 200) problems.push('could not list the apps at the end');
    else if (lost.length > 0) problems.push(`${lost.length} app(s) accepted during a failover are gone: ${lost.join(', ')}`);
    if (failoverMs.length < o.failovers) problems.push(`${failoverMs.length} of ${o.failovers} failovers completed`);
  } catch (err) {
    problems.push((err as Error).message);
  } finally {
    await cleanup();
  }
  const sorted = [...failoverMs].sort((a, b) => a - b);
  return {
    failoverMs, phases, minMs: sorted[0] ?? 0, medianMs: nearestRank(sorted, 0.5), p90Ms: nearestRank(sorted, 0.9), maxMs: sorted[sorted.length - 1] ?? 0,
    completed: failoverMs.length, problems,
  };
}

/** bench:failover's command line (`--timeout` in seconds, as bench:launch's and bench:scale-lag's). */
export const FAILOVER_USAGE: BenchUsage = {
  name: 'bench:failover',
  summary: 'Three pacers on ZooKeeper: the leader killed -9 again and again, each time timed until a survivor accepts a write.',
  options: {
    failovers: { kind: 'int', help: 'leader kills, one after the other', default: 20, min: 1 },
    session: { kind: 'int', help: "each pacer's --zk_session_timeout, ms", default: 3000, min: 1000, max: 600_000 },
    timeout: { kind: 'number', help: 'seconds one failover may take (and the pacers to agree on a leader) before the run fails', default: 60, min: 1, max: 3600 },
    zk: { kind: 'string', help: "host:port of a running ZooKeeper (several: host:port,host:port); without it one is started from Debian's zookeeper package for the run" },
  },
};

/** `host:port` (a name, an IPv4 address or a bracketed IPv6 one), one or more, separated by commas. */
const ZK_HOST_PORT = /^(?:[A-Za-z0-9._-]+|\[[0-9A-Fa-f:.]+\]):(\d{1,5})$/;

function isHostPort(text: string): boolean {
  const port = Number(ZK_HOST_PORT.exec(text)?.[1]);
  return port >= 1 && port <= 65_535;
}

/** The options of a command line; a {@link UsageError} (one line, exit 2) for one it cannot run. */
export function failoverOptions(argv: readonly string[]): FailoverBenchOptions {
  const args = readBenchArgs(FAILOVER_USAGE, argv);
  const zk = args.text('zk');
  if (zk !== undefined && !zk.split(',').every(isHostPort)) {
    throw new UsageError(`--zk must be host:port of a running ZooKeeper, or several separated by commas (got '${zk}')`);
  }
  return {
    failovers: args.int('failovers'), sessionTimeoutMs: args.int('session'), timeoutMs: Math.round(args.number('timeout') * 1000), ...(zk === undefined ? {} : { zk }),
  };
}

async function main(): Promise<number> {
  const options = failoverOptions(process.argv.slice(2));
  cleanUpOnSignals('bench:failover');
  const info = runInfo();
  console.log(`bench:failover  ${formatRunInfo(info)}`);
  console.log(`${options.failovers} failovers of 3 pacers (local cluster, one host), --zk_session_timeout ${options.sessionTimeoutMs}, --timeout ${options.timeoutMs / 1000} s; leader killed with SIGKILL, timed to the first 201 of POST /v2/apps`);
  const r = await runFailoverBench(options);
  console.log(`completed ${r.completed}: min ${r.minMs} ms, median ${r.medianMs} ms, p90 ${r.p90Ms} ms, max ${r.maxMs} ms; target ≤ 5000 ms ${r.maxMs <= 5000 && r.completed > 0 ? 'met by every failover' : `met by ${r.failoverMs.filter((ms) => ms <= 5000).length} of ${r.completed}`}`);
  return finishRun('bench:failover', 'bench/results/failover.json', info, { options, ...r }, r.problems);
}

runBenchMain('bench:failover', module, main);
