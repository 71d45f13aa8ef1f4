import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Readable } from 'node:stream';
import { REPO_ROOT } from '../harness/repo-path';

/**
 * The runner of `npm test`: every `test/**\/*.test.ts` of the repository (new files are picked up
 * by that pattern, nothing to register), run from its compiled copy in `dist/tests/` (`npm run
 * build:tests`: test/runner/build-tests.mjs), JOBS processes at a time, each file in its own
 * `node` process but the core's unit tests, several to a process ({@link batched}).
 * The files are node-tap tests and print TAP; this prints one TAP line per file and, for a file
 * that fails, everything it printed. Exit code 1 when any file fails.
 *
 * Why not the `tap` command: it loads tsx, its mock loader and @tapjs/processinfo into every test
 * process (and processinfo, through NODE_OPTIONS, into every process a test spawns), about 1 s of
 * CPU per file that this suite of ~170 files cannot afford on CI's 2 cores; coverage is c8's job
 * (`c8 node …run-suite.js`), not tap's. `npx tap test/x.test.ts` still runs one file from source.
 *
 * Arguments: repository-relative test files or directories to run instead of all (e.g.
 * `npm test -- test/e2e`). Environment: PACER_TEST_JOBS (4: most files spend their time waiting on processes and sockets, so four share two cores well), PACER_TEST_TIMEOUT_S (300, per file),
 * PACER_TEST_COSTS (a file name: each file's wall and CPU time is appended to it as one JSON line,
 * a batched file's from its batch's process, test/runner/batch.ts; for finding where the time goes).
 */

const COMPILED_ROOT = join(__dirname, '..', '..');
const JOBS = positiveInt(process.env.PACER_TEST_JOBS, 4);
const TIMEOUT_S = positiveInt(process.env.PACER_TEST_TIMEOUT_S, 300);
/** Where each file's costs are appended as JSON lines, when set. */
const COSTS_FILE = process.env.PACER_TEST_COSTS;
/** After tap's own timeout (TAP_TIMEOUT) has had its chance to report, the process group is killed. */
const KILL_GRACE_MS = 30_000;

interface FileResult {
  readonly file: string;
  readonly ok: boolean;
  readonly output: string;
  readonly stderr: string;
  readonly ms: number;
  /** CPU seconds (user + sys) of the file's process and every descendant it waited for; NaN when unknown. */
  readonly cpuS: number;
}

const running = new Set<ChildProcess>();

function positiveInt(text: string | undefined, fallback: number): number {
  const n = Number(text);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

/**
 * The files run alone that take longest (CI at d849424, 2026-11-30: 28–170 s of wall time each,
 * mostly waiting on processes, ZooKeeper restarts, sockets and a browser), longest first, started
 * ahead of everything so that the other files fill the cores around them instead of the suite
 * ending on one of them alone (web-ui and zk-store, late by name, were that run's last two files
 * to end). Only the order depends on this list: a stale entry changes nothing else.
 */
const SLOW_FIRST: readonly string[] = [
  'test/ha/leader-election.test.ts', 'test/ha/ha-failover.test.ts', 'test/e2e/local-crash.test.ts', 'test/bench/smoke.test.ts',
  'test/ui/web-ui.test.ts', 'test/store/zk/zk-store.test.ts', 'test/sim/swarm.test.ts',
];

/** Sorted by name, the {@link SLOW_FIRST} files ahead of the others. */
function slowFirst(a: string, b: string): number {
  const rank = (f: string): number => (SLOW_FIRST.includes(f) ? SLOW_FIRST.indexOf(f) : SLOW_FIRST.length);
  return rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0);
}

/**
 * Files run several to a process (test/runner/batch.ts), {@link BATCH_SIZE} at a time: those under
 * {@link BATCHED_DIRS} but the {@link ALONE} ones, and the {@link BATCHED_FILES}. A process costs
 * about 0.5 s of CPU before its first test (node, tap, coverage), one that loads fastify and most
 * of src/ (the API's tests, conformance, the drivers over a core) about 1.3 s and a coverage file
 * of ~4.6 MB that c8 reads at the end: more than most of these files take. A batch that fails runs
 * its failed files again alone, so that the report names each (and says when one passes only alone).
 *
 * A batched file shares its process with the others of its batch, one file after the other: it
 * must leave nothing behind that another could see (globals, environment, fixed ports, shared
 * files, processes); the files of these directories listen on port 0 of 127.0.0.1, write in temp
 * dirs of their own and stop what they start in their teardowns.
 */
const BATCHED_DIRS: readonly string[] = [
  'test/unit/', 'test/api/', 'test/conformance/', 'test/store/', 'test/cluster/', 'test/runtime/', 'test/whatif/',
];
/**
 * Files of the other directories that are batched too: in-process only (no process, socket,
 * browser, signal handler or environment change; a temp dir of their own at most). Alone, these
 * 13 took 19.8 s of CPU under coverage, most of it their processes' start; in one batch 7.7–8.1 s.
 */
const BATCHED_FILES: readonly string[] = [
  'test/bench/api-scale-lag-args.test.ts', 'test/bench/api-targets.test.ts', 'test/bench/bench-args.test.ts',
  'test/bench/bench-cluster.test.ts', 'test/bench/quantile.test.ts', 'test/bench/run-cleanup.test.ts',
  'test/bench/scale-lag-spent.test.ts', 'test/bench/stall-attribution.test.ts', 'test/sim/docs-scenario-examples.test.ts',
  'test/sim/runner-bounds.test.ts', 'test/sim/scheduler-failover.test.ts', 'test/ui/ui-model.test.ts', 'test/ui/what-if-text.test.ts',
];
/**
 * Files of {@link BATCHED_DIRS} that run alone: the files on a real ZooKeeper (started per file or
 * shared by the whole run). The lint rules' tests (test/unit/lint/, ESLint in-process without type
 * information) are batched: alone, each paid a process and ESLint's loading, 13.1 s of CPU for the
 * four under coverage; in their batch of 50 they add 2.7–3.6 s to it.
 */
const ALONE: readonly string[] = [
  'test/store/zk/', 'test/cluster/mesos/zk/real-zookeeper.test.ts', 'test/cluster/mesos/driver/zk-failover.test.ts',
];
function batched(file: string): boolean {
  const under = (prefix: string): boolean => file === prefix || file.startsWith(prefix);
  return (BATCHED_DIRS.some(under) || BATCHED_FILES.includes(file)) && !ALONE.some(under);
}
/**
 * 50: each batch process costs about 4 s of CPU under c8 that its files would not (node, tap, all
 * of src/ loaded, compiled and coverage-counted, its ~12 MB coverage file written and read). The
 * batched directories (332 files) as 13 batches of 25: 183.3 and 182.2 s of batch CPU; as 7 of
 * 50: 156.8 and 165.7 s, and less wall time (4 processes at a time still fill CI's 2 cores).
 */
const BATCH_SIZE = 50;

/** One job of the runner: a file alone, or a batch of files in one process. */
type Job = { readonly file: string } | { readonly batch: readonly string[] };

/** The jobs of `files` (in their order): the batchable ones in batches, ahead of the rest but after the slow ones. */
function jobsOf(files: readonly string[]): Job[] {
  const alone = files.filter((f) => !batched(f));
  const together = files.filter(batched);
  if (together.length < 2) return files.map((file) => ({ file }));
  const batches: Job[] = [];
  for (let i = 0; i < together.length; i += BATCH_SIZE) batches.push({ batch: together.slice(i, i + BATCH_SIZE) });
  const slow = alone.filter((f) => SLOW_FIRST.includes(f));
  return [...slow.map((file) => ({ file })), ...batches, ...alone.filter((f) => !SLOW_FIRST.includes(f)).map((file) => ({ file }))];
}

/** Every `*.test.ts` under `test/`, repository-relative with `/`, slow ones first; restricted to `only` when given. */
function testFiles(only: readonly string[]): string[] {
  const all = readdirSync(join(REPO_ROOT, 'test'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.test.ts'))
    .map((name) => `test/${name.split('\\').join('/')}`)
    .sort(slowFirst);
  if (only.length === 0) return all;
  const wanted = only.map((arg) => relative(REPO_ROOT, join(process.cwd(), arg)).split('\\').join('/').replace(/\/$/, ''));
  return all.filter((file) => wanted.some((w) => file === w || file.startsWith(`${w}/`)));
}

/**
 * The shell that runs a test file's `node`: when node has ended it writes its `times` (the CPU its
 * children used: node's own plus that of every process node waited for) to fd 3, then exits with
 * node's status. A wrapper because Node gives a parent no rusage of a child.
 */
const CPU_WRAPPER = '"$@"; s=$?; times >&3; exit $s';

/** CPU seconds of the children from a `times` output (its second line: user and sys). */
function childrenCpuS(times: string): number {
  const line = times.trim().split('\n')[1] ?? '';
  const parts = [...line.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
  return parts.length === 2 ? (parts[0] as number) + (parts[1] as number) : Number.NaN;
}

const compiledOf = (file: string): string => join(COMPILED_ROOT, file.replace(/\.ts$/, '.js'));

/** Runs one compiled test file in its own process group; resolves with what it printed, whether it passed and what it cost. */
function runFile(file: string): Promise<FileResult> {
  const compiled = compiledOf(file);
  if (!existsSync(compiled)) {
    return Promise.resolve({ file, ok: false, output: `${compiled} is missing: run npm run build:tests\n`, stderr: '', ms: 0, cpuS: Number.NaN });
  }
  return runProcess(file, [compiled], 1);
}

/**
 * Runs `node --enable-source-maps ...args` in its own process group, reported as `label`: one
 * test file, or a batch of `files` (test/runner/batch.ts). A file has {@link TIMEOUT_S}: tap's
 * timeout, then the kill {@link KILL_GRACE_MS} later. In a batch each file has its own TIMEOUT_S
 * (its test's timeout in batch.ts; the batch's tap timeout is their sum), and the kill comes when
 * no file has ended for TIMEOUT_S + the grace (a file that hangs, or a process that does not exit
 * after its last file), not after the whole batch's sum.
 */
function runProcess(label: string, args: readonly string[], files: number): Promise<FileResult> {
  const file = label;
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', CPU_WRAPPER, 'sh', process.execPath, '--enable-source-maps', ...args], {
      cwd: REPO_ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
      env: { ...process.env, TAP_TIMEOUT: String(TIMEOUT_S * files), PACER_TEST_TIMEOUT_S: String(TIMEOUT_S) },
    });
    running.add(child);
    let output = '';
    let stderr = '';
    let times = '';
    const killer = setTimeout(() => {
      output += `\n# run-suite: still running ${TIMEOUT_S} s + ${KILL_GRACE_MS / 1000} s after it ${files > 1 ? 'started or a file of it ended' : 'started'}; killed\n`;
      killGroup(child);
    }, TIMEOUT_S * 1000 + KILL_GRACE_MS);
    let scanned = 0;
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      // A batch's file ended (its line at the top level of the TAP): it has time again.
      if (files > 1 && /^(?:not )?ok \d+ - /m.test(output.slice(scanned))) killer.refresh();
      scanned = output.lastIndexOf('\n') + 1;
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk; });
    const timesPipe = child.stdio[3] as Readable | null;
    timesPipe?.setEncoding('utf8').on('data', (chunk: string) => { times += chunk; });
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      running.delete(child);
      if (signal !== null) output += `\n# run-suite: ended by ${signal}\n`;
      resolve({ file, ok: code === 0 && signal === null, output, stderr, ms: Date.now() - started, cpuS: childrenCpuS(times) });
    });
  });
}

/**
 * Runs `files` in one process (test/runner/batch.ts); resolves with one result per file (its time
 * from tap, its CPU unknown) and one for the batch (its CPU). A file that did not pass in the
 * batch is run again alone: its result is that run's, and failed either way.
 */
async function runBatch(files: readonly string[]): Promise<{ batch: FileResult; files: FileResult[] }> {
  const missing = files.filter((f) => !existsSync(compiledOf(f)));
  if (missing.length > 0) return { batch: { file: `batch of ${files.length}`, ok: true, output: '', stderr: '', ms: 0, cpuS: 0 }, files: await Promise.all(files.map(runFile)) };
  const label = `batch of ${files.length} (${files[0]} … ${files[files.length - 1]})`;
  const batch = await runProcess(label, [join(COMPILED_ROOT, 'test', 'runner', 'batch.js'), ...files.flatMap((f) => [f, compiledOf(f)])], files.length);
  const results: FileResult[] = [];
  for (const file of files) {
    const line = new RegExp(`^(ok|not ok) \\d+ - ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?: # time=([\\d.]+)ms)?`, 'm').exec(batch.output);
    if (line !== null && line[1] === 'ok') {
      results.push({ file, ok: true, output: '', stderr: '', ms: Math.round(Number(line[2] ?? 0)), cpuS: Number.NaN });
      continue;
    }
    const alone = await runFile(file);
    results.push({
      ...alone, ok: false,
      output: `${line === null ? 'it did not report in its batch' : 'it failed in its batch'} (${label}: everything it printed follows), ${alone.ok ? 'and PASSED alone: a test of another file of the batch interferes with it' : 'and failed alone too'}\n`
        + `--- alone:\n${alone.output}\n--- the batch:\n${batch.output}\n`,
      stderr: `${alone.stderr}${batch.stderr}`,
    });
  }
  // The batch's process failing is accounted for when one of its files failed; not otherwise.
  return { batch: { ...batch, ok: batch.ok || results.some((r) => !r.ok) }, files: results };
}

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

function indent(text: string): string {
  return text.trimEnd().replace(/^/gm, '    ');
}

/** Prints a file's TAP line, preceded by its output when it failed (or its stderr when it passed). */
function report(n: number, r: FileResult): void {
  const lines: string[] = [];
  if (!r.ok) lines.push(`# Subtest: ${r.file}`, indent(r.output + r.stderr));
  else if (r.stderr.trim() !== '') lines.push(`# stderr of ${r.file}:`, indent(r.stderr));
  lines.push(`${r.ok ? 'ok' : 'not ok'} ${n} - ${r.file} # time=${r.ms}ms ${Number.isNaN(r.cpuS) ? 'in a batch' : `cpu=${r.cpuS.toFixed(1)}s`}`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** How many of the costliest files {@link costSummary} lists. */
const COSTLIEST_LISTED = 20;

/**
 * TAP comments: the CPU of all files together and the costliest files (CPU, then wall), so that a
 * run shows where the suite's time goes (CI's 2 cores make CPU, not wall, the limit).
 */
function costSummary(results: readonly FileResult[]): string {
  const cpuS = results.reduce((sum, r) => sum + (Number.isNaN(r.cpuS) ? 0 : r.cpuS), 0);
  const wallS = results.reduce((sum, r) => sum + r.ms / 1000, 0);
  const costliest = [...results].sort((a, b) => b.cpuS - a.cpuS || b.ms - a.ms).slice(0, COSTLIEST_LISTED);
  return [
    `# test files' CPU (user + sys, with the processes they waited for): ${cpuS.toFixed(1)} s; their wall times add up to ${wallS.toFixed(1)} s`,
    `# the ${costliest.length} costliest files: CPU s, wall s, file`,
    ...costliest.map((r) => `#   ${r.cpuS.toFixed(1).padStart(6)} ${(r.ms / 1000).toFixed(1).padStart(6)}  ${r.file}`),
  ].join('\n') + '\n';
}

async function main(): Promise<void> {
  const files = testFiles(process.argv.slice(2));
  const started = Date.now();
  process.stdout.write('TAP version 14\n');
  if (files.length === 0) {
    process.stdout.write(`1..0\n# no test file matches ${process.argv.slice(2).join(' ')}\n`);
    process.exitCode = 1;
    return;
  }
  const failed: string[] = [];
  const results: FileResult[] = [];
  let next = 0;
  let reported = 0;
  const jobs = jobsOf(files);
  const costs: FileResult[] = [];
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      const job = jobs[next++] as Job;
      const { batch, files: done } = 'file' in job ? { batch: undefined, files: [await runFile(job.file)] } : await runBatch(job.batch);
      for (const result of done) {
        report(++reported, result);
        results.push(result);
        if (!result.ok) failed.push(result.file);
      }
      if (COSTS_FILE !== undefined) {
        const alone = batch === undefined ? done : done.filter((r) => !Number.isNaN(r.cpuS));
        const lines = alone.map((r) => ({ file: r.file, in: 'alone', ms: r.ms, cpuS: r.cpuS }));
        if (batch !== undefined) lines.push({ file: batch.file, in: 'batch process', ms: batch.ms, cpuS: batch.cpuS });
        appendFileSync(COSTS_FILE, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
      }
      if (batch !== undefined) {
        process.stdout.write(`# ${batch.file}: ${(batch.ms / 1000).toFixed(1)} s, cpu=${batch.cpuS.toFixed(1)}s\n`);
        if (!batch.ok) {
          process.stdout.write(`# ${batch.file} failed though each of its files passed:\n${indent(batch.output + batch.stderr)}\n`);
          failed.push(batch.file);
        }
        costs.push(batch);
      } else {
        costs.push(...done);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(JOBS, jobs.length) }, worker));
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const failedFiles = failed.filter((f) => files.includes(f)).length;
  process.stdout.write(`1..${files.length}\n# ${files.length} test files in ${seconds} s (${JOBS} processes at a time, ${jobs.length - jobs.filter((j) => 'file' in j).length} of them batches): ${files.length - failedFiles} passed, ${failedFiles} failed\n`);
  for (const file of failed) process.stdout.write(`# failed: ${file}\n`);
  process.stdout.write(costSummary(costs));
  process.exitCode = failed.length === 0 ? 0 : 1;
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    for (const child of running) killGroup(child);
    process.exit(130);
  });
}

void main();
