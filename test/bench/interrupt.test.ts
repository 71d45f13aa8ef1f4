import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { nodeArgsFor } from '../harness/node-entry';
import { repoPath } from '../harness/repo-path';
import { waitFor, within } from '../harness/wait';
import { ZOOKEEPER_MISSING } from '../harness/zookeeper-server';

// Ctrl-C (SIGINT to the process group, as a terminal sends it, which reaches pacer and ZooKeeper
// too) or SIGTERM (to the benchmark alone, as `kill` sends it: only its clean-up can stop what it
// started) during bench:launch and bench:failover: each must stop every process
// it started — pacer, its task processes (in sessions of their own, so a terminal's SIGINT does
// not reach them), ZooKeeper — and remove its temp directories, then exit 130 or 143. Each run
// gets a TMPDIR of its own, so that everything it made is named by one path: afterwards no
// process may have that path on its command line or in its environment (pacer's flags, a task's
// MESOS_SANDBOX, the JVM's config, TMPDIR itself), and no pacer-* directory may be left. The waits are
// for events (a process seen, an exit), bounded generously; no timing is asserted.

const NO_PROC = existsSync('/proc/self/environ') ? false : 'needs /proc to find the processes left behind';

/** The processes whose command line or environment names `path` (pid and command line). */
function processesNaming(path: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    let cmdline: string;
    let environ: string;
    try {
      cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8');
      environ = readFileSync(`/proc/${name}/environ`, 'utf8');
    } catch {
      continue; // gone, or not ours
    }
    if (cmdline.includes(path) || environ.includes(path)) found.push(`${name}: ${cmdline.split('\0').join(' ').trim()}`);
  }
  return found;
}

/** How many task processes run in sandboxes under `root` (their environment names MESOS_SANDBOX there). */
function taskProcessCount(root: string): number {
  let n = 0;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/environ`, 'utf8').includes(`\0MESOS_SANDBOX=${root}/`)) n++;
    } catch {
      // gone, or not ours
    }
  }
  return n;
}

interface Bench {
  readonly child: ChildProcess;
  readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
}

/** Starts a benchmark's entry point with TMPDIR = `root`, leading a process group of its own (as a terminal's foreground job). */
function startBench(entry: string, args: readonly string[], root: string): Bench {
  const child = spawn(process.execPath, [...nodeArgsFor(entry), ...args], {
    cwd: repoPath('.'), env: { ...process.env, TMPDIR: root }, detached: true, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (d: string) => { output += d; });
  child.stderr?.setEncoding('utf8').on('data', (d: string) => { output += d; });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return { child, exit, output: () => output };
}

/** A fresh TMPDIR for one run; the teardown kills whatever the run left (the test has then failed already) and removes it. */
function scratch(t: Test): string {
  const root = mkdtempSync(join(tmpdir(), 'pacer-interrupt-test-'));
  t.teardown(() => {
    for (const p of processesNaming(root)) {
      try {
        process.kill(Number(p.split(':')[0]), 'SIGKILL');
      } catch {
        // gone already
      }
    }
    rmSync(root, { recursive: true, force: true });
  });
  return root;
}

/** The benchmark exits with `code` (bounded), and nothing it started survives. */
async function expectCleanExit(t: Test, bench: Bench, root: string, code: number): Promise<void> {
  const exit = await within(bench.exit, 'the interrupted benchmark\'s exit', 180_000);
  if (exit.code !== code) t.comment(bench.output());
  t.same(exit, { code, signal: null }, `exits ${code}`);
  t.match(bench.output(), /: SIG(INT|TERM): stopping what it started and removing its temp directories/, 'says what it does');
  t.strictSame(processesNaming(root), [], 'no process it started survives');
  // (tsx, when the benchmark runs from source, keeps its cache in TMPDIR too.)
  t.strictSame(readdirSync(root).filter((f) => f.startsWith('pacer-')), [], 'its temp directories are gone');
}

t.test('Ctrl-C while bench:launch waits for its tasks: pacer and every task process stopped, the temp directory removed, exit 130', { skip: NO_PROC, timeout: 300_000 }, async (t) => {
  const root = scratch(t);
  // One running deployment at a time: of the 5 apps, posted 4 at once, the first is accepted and
  // the others refused while it deploys, so the run cannot end on its own: it waits for tasks that
  // never come (--timeout 600) and is interrupted in that wait, with the first app's tasks running.
  const bench = startBench('bench/launch.ts', ['--apps', '5', '--instances', '3', '--timeout', '600', '--pacer', '--max_running_deployments 1'], root);
  await waitFor(() => taskProcessCount(root) >= 1 || bench.child.exitCode !== null, 'a task process of bench:launch', 180_000);
  t.equal(bench.child.exitCode, null, `the run is in progress: ${bench.output()}`);
  process.kill(-(bench.child.pid as number), 'SIGINT');
  await expectCleanExit(t, bench, root, 130);
});

t.test('SIGTERM to bench:launch alone while its tasks run: its clean-up stops pacer and every task process (none got the signal), exit 143', { skip: NO_PROC, timeout: 300_000 }, async (t) => {
  const root = scratch(t);
  const bench = startBench('bench/launch.ts', ['--apps', '5', '--instances', '3', '--timeout', '600', '--pacer', '--max_running_deployments 1'], root);
  await waitFor(() => taskProcessCount(root) >= 1 || bench.child.exitCode !== null, 'a task process of bench:launch', 180_000);
  t.equal(bench.child.exitCode, null, `the run is in progress: ${bench.output()}`);
  process.kill(bench.child.pid as number, 'SIGTERM');
  await expectCleanExit(t, bench, root, 143);
});

t.test('SIGTERM to bench:launch alone while pacer starts: pacer stopped, the temp directory removed, exit 143', { skip: NO_PROC, timeout: 300_000 }, async (t) => {
  const root = scratch(t);
  const bench = startBench('bench/launch.ts', ['--apps', '1', '--instances', '3'], root);
  // pacer is started in the same step as the directory is made: signalled as soon as it exists.
  await waitFor(() => readdirSync(root).some((f) => f.startsWith('pacer-bench-launch-')) || bench.child.exitCode !== null, 'the temp directory of bench:launch', 180_000);
  t.equal(bench.child.exitCode, null, `the run is in progress: ${bench.output()}`);
  process.kill(bench.child.pid as number, 'SIGTERM');
  await expectCleanExit(t, bench, root, 143);
});

const NO_ZK = NO_PROC || ZOOKEEPER_MISSING;

t.test('SIGTERM to bench:failover while its ZooKeeper starts: the JVM stopped, both temp directories removed, exit 143', { skip: NO_ZK, timeout: 300_000 }, async (t) => {
  const root = scratch(t);
  const bench = startBench('bench/failover.ts', ['--failovers', '1'], root);
  await waitFor(() => readdirSync(root).some((f) => f.startsWith('pacer-bench-zk-')) || bench.child.exitCode !== null, 'the ZooKeeper directory of bench:failover', 180_000);
  t.equal(bench.child.exitCode, null, `the run is in progress: ${bench.output()}`);
  process.kill(bench.child.pid as number, 'SIGTERM');
  await expectCleanExit(t, bench, root, 143);
});

t.test('SIGTERM to bench:failover alone while it runs its pacers: its clean-up stops the pacers and ZooKeeper (none got the signal), both temp directories removed, exit 143', { skip: NO_ZK, timeout: 300_000 }, async (t) => {
  const root = scratch(t);
  const bench = startBench('bench/failover.ts', ['--failovers', '20'], root);
  // A pacer process names the failover directory (its --store and --sandbox): ZooKeeper is up by then.
  await waitFor(() => processesNaming(join(root, 'pacer-bench-failover-')).some((p) => p.includes('--zk_session_timeout')) || bench.child.exitCode !== null, 'a pacer of bench:failover', 180_000);
  t.equal(bench.child.exitCode, null, `the run is in progress: ${bench.output()}`);
  process.kill(bench.child.pid as number, 'SIGTERM');
  await expectCleanExit(t, bench, root, 143);
});
