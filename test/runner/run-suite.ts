import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Readable } from 'node:stream';
import { REPO_ROOT } from '../harness/repo-path';

/**
 * The runner of `npm test`: every `test/**\/*.test.ts` of the repository (new files are picked up
 * by that pattern, nothing to register), run from its compiled copy in `dist/tests/` (`npm run
 * build:tests`: test/runner/build-tests.mjs), JOBS files at a time, each in its own `node` process.
 * The files are node-tap tests and print TAP; this prints one TAP line per file and, for a file
 * that fails, everything it printed. Exit code 1 when any file fails.
 *
 * Why not the `tap` command: it loads tsx, its mock loader and @tapjs/processinfo into every test
 * process (and processinfo, through NODE_OPTIONS, into every process a test spawns), about 1 s of
 * CPU per file that this suite of ~170 files cannot afford on CI's 2 cores; coverage is c8's job
 * (`c8 node …run-suite.js`), not tap's. `npx tap test/x.test.ts` still runs one file from source.
 *
 * Arguments: repository-relative test files or directories to run instead of all (e.g.
 * `npm test -- test/e2e`). Environment: PACER_TEST_JOBS (4: most files spend their time waiting on processes and sockets, so four share two cores well), PACER_TEST_TIMEOUT_S (300, per file).
 */

const COMPILED_ROOT = join(__dirname, '..', '..');
const JOBS = positiveInt(process.env.PACER_TEST_JOBS, 4);
const TIMEOUT_S = positiveInt(process.env.PACER_TEST_TIMEOUT_S, 300);
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
 * The files that take longest (CI, 2026-11-29: 30–145 s each, mostly waiting on processes,
 * ZooKeeper restarts and sockets), started first so that the other files fill the cores around
 * them instead of the suite ending on one of them alone. Only the order depends on this list: a
 * stale entry changes nothing else.
 */
const SLOW_FIRST: readonly string[] = [
  'test/ha/leader-election.test.ts', 'test/e2e/local-crash.test.ts', 'test/ha/ha-failover.test.ts',
  'test/sim/swarm.test.ts', 'test/e2e/core-failure.test.ts', 'test/bench/smoke.test.ts',
];

/** Sorted by name, the {@link SLOW_FIRST} files ahead of the others. */
function slowFirst(a: string, b: string): number {
  const rank = (f: string): number => (SLOW_FIRST.includes(f) ? SLOW_FIRST.indexOf(f) : SLOW_FIRST.length);
  return rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0);
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

/** Runs one compiled test file in its own process group; resolves with what it printed, whether it passed and what it cost. */
function runFile(file: string): Promise<FileResult> {
  const compiled = join(COMPILED_ROOT, file.replace(/\.ts$/, '.js'));
  const started = Date.now();
  if (!existsSync(compiled)) {
    return Promise.resolve({ file, ok: false, output: `${compiled} is missing: run npm run build:tests\n`, stderr: '', ms: 0, cpuS: Number.NaN });
  }
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', CPU_WRAPPER, 'sh', process.execPath, '--enable-source-maps', compiled], {
      cwd: REPO_ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
      env: { ...process.env, TAP_TIMEOUT: String(TIMEOUT_S) },
    });
    running.add(child);
    let output = '';
    let stderr = '';
    let times = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => { output += chunk; });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk; });
    const timesPipe = child.stdio[3] as Readable | null;
    timesPipe?.setEncoding('utf8').on('data', (chunk: string) => { times += chunk; });
    const killer = setTimeout(() => {
      output += `\n# run-suite: still running ${TIMEOUT_S} s + ${KILL_GRACE_MS / 1000} s after it started; killed\n`;
      killGroup(child);
    }, TIMEOUT_S * 1000 + KILL_GRACE_MS);
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      running.delete(child);
      if (signal !== null) output += `\n# run-suite: ended by ${signal}\n`;
      resolve({ file, ok: code === 0 && signal === null, output, stderr, ms: Date.now() - started, cpuS: childrenCpuS(times) });
    });
  });
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
  lines.push(`${r.ok ? 'ok' : 'not ok'} ${n} - ${r.file} # time=${r.ms}ms cpu=${r.cpuS.toFixed(1)}s`);
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
  const worker = async (): Promise<void> => {
    while (next < files.length) {
      const result = await runFile(files[next++] as string);
      report(++reported, result);
      results.push(result);
      if (!result.ok) failed.push(result.file);
    }
  };
  await Promise.all(Array.from({ length: Math.min(JOBS, files.length) }, worker));
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  process.stdout.write(`1..${files.length}\n# ${files.length} test files in ${seconds} s (${JOBS} at a time): ${files.length - failed.length} passed, ${failed.length} failed\n`);
  for (const file of failed) process.stdout.write(`# failed: ${file}\n`);
  process.stdout.write(costSummary(results));
  process.exitCode = failed.length === 0 ? 0 : 1;
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    for (const child of running) killGroup(child);
    process.exit(130);
  });
}

void main();
