import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import type { RunResult } from '../../sim/runner/run-result';
import { runScenario } from '../../sim/runner/run-scenario';
import { loadScenario } from '../../sim/scenario/load-scenario';
import { compareGoldenHashes, describeDifference, GOLDEN_HASHES_FILE, parseGoldenHashes } from '../../sim/golden/golden-hashes';
import { findScenarioFiles } from '../../sim/golden/scenario-files';
import { nodeArgsFor } from '../harness/node-entry';
import { REPO_ROOT } from '../harness/repo-path';
import { PATIENCE_MS } from '../harness/wait';

/**
 * The scenario library as a test suite: every `scenarios/**\/*.yaml` loads, its definitions
 * convert, it passes (every expectation holds, no invariant violated), and it is deterministic —
 * two runs in this process give byte-identical traces, two separate processes print the same
 * trace hash, and every trace hash equals the one committed in `scenarios/hashes.json` (a change of
 * behaviour is a reviewed diff of that file: `npm run sim -- hashes --update`).
 */

const ROOT = REPO_ROOT;
/** The scenario run in two separate processes (a short one with seeded draws in many places). */
const CROSS_PROCESS_SCENARIO = 'scenarios/constraints/is.yaml';

/** The 1-based number and both versions of the first line where two traces differ. */
function firstDifference(a: string, b: string): string {
  const left = a.split('\n');
  const right = b.split('\n');
  const n = Math.max(left.length, right.length);
  for (let i = 0; i < n; i++) {
    if (left[i] !== right[i]) {
      return `line ${i + 1}:\n  run 1: ${left[i] ?? '<end of trace>'}\n  run 2: ${right[i] ?? '<end of trace>'}`;
    }
  }
  return 'no line differs';
}

/** The FAIL lines of a run's expectations, with their times, for a readable failure message. */
function failures(result: RunResult): string[] {
  return result.expectations
    .filter((e) => !e.passed)
    .flatMap((e) => e.lines.filter((line) => line.startsWith('FAIL')).map((line) => `at ${e.atMs} ms (line ${e.line ?? '?'}): ${line}`));
}

const files = findScenarioFiles(ROOT);
const golden = parseGoldenHashes(readFileSync(join(ROOT, GOLDEN_HASHES_FILE), 'utf8'));
const UPDATE_HINT = `run \`npm run sim -- hashes --update\` and review the diff of ${GOLDEN_HASHES_FILE}`;

t.test('the library has scenarios', async (t) => {
  t.ok(files.length > 0, `${files.length} scenario files under scenarios/`);
  t.ok(files.includes(CROSS_PROCESS_SCENARIO), `${CROSS_PROCESS_SCENARIO} exists`);
});

t.test(`${GOLDEN_HASHES_FILE} names exactly the scenarios that exist`, async (t) => {
  if (typeof golden === 'string') {
    t.fail(golden);
    return;
  }
  const present = Object.fromEntries(files.map((f) => [f, golden[f] ?? 'missing']));
  const stale = compareGoldenHashes(golden, present).filter((d) => d.actual === undefined || d.expected === undefined);
  t.strictSame(stale.map(describeDifference), [], UPDATE_HINT);
});

for (const file of files) {
  t.test(file, async (t) => {
    const loaded = loadScenario(file, readFileSync(join(ROOT, file), 'utf8'));
    // Loading checks every app and pod definition with the API's converter too.
    if (!loaded.ok) {
      t.fail('the scenario loads', { errors: loaded.errors });
      return;
    }
    const scenario = loaded.scenario;

    const first = runScenario(scenario, { keepTrace: true });
    const second = runScenario(scenario, { keepTrace: true });

    t.strictSame(first.violations, [], 'no invariant violated');
    t.strictSame(failures(first), [], 'every expectation holds');
    t.ok(first.passed, `passed (seed ${first.seed})`);
    t.ok(first.expectations.length > 0, 'the scenario checks something');
    t.equal(first.virtualMs, scenario.durationMs, 'the run lasted its whole duration');

    t.equal(second.traceHash, first.traceHash, 'the second run has the same trace hash');
    t.equal(first.traceHash, typeof golden === 'string' ? golden : golden[file], `the trace hash is the committed one (a behaviour change: ${UPDATE_HINT})`);
    const sameText = second.traceText === first.traceText;
    t.ok(sameText, 'the second run has a byte-identical trace', sameText ? {} : { firstDifference: firstDifference(first.traceText, second.traceText) });
    t.equal(second.passed, first.passed, 'the second run has the same verdict');
  });
}

/** Runs the CLI in a child process; resolves with its exit code and output. */
function runCli(file: string, timeoutMs: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgsFor('sim/cli.ts'), file, '--quiet'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: timeoutMs,
      killSignal: 'SIGKILL',
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => { stdout += chunk; });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk; });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

const HASH_LINE = /^(PASSED|FAILED) (\S+) seed (\d+) sha256 ([0-9a-f]{64})$/m;

t.test(`${CROSS_PROCESS_SCENARIO} gives the same trace hash in two separate processes`, async (t) => {
  const [a, b] = await Promise.all([
    runCli(CROSS_PROCESS_SCENARIO, PATIENCE_MS),
    runCli(CROSS_PROCESS_SCENARIO, PATIENCE_MS),
  ]);
  for (const [name, run] of [['process 1', a], ['process 2', b]] as const) {
    t.equal(run.signal, null, `${name} finished within ${PATIENCE_MS} ms`);
    t.equal(run.code, 0, `${name} exited 0`, { stderr: run.stderr });
  }
  const hashA = HASH_LINE.exec(a.stdout);
  const hashB = HASH_LINE.exec(b.stdout);
  t.ok(hashA !== null, 'process 1 printed its verdict line', { stdout: a.stdout });
  t.ok(hashB !== null, 'process 2 printed its verdict line', { stdout: b.stdout });
  if (hashA === null || hashB === null) return;
  t.equal(hashA[1], 'PASSED', 'process 1 passed');
  t.equal(hashB[4], hashA[4], 'both processes printed the same sha256');

  const loaded = loadScenario(CROSS_PROCESS_SCENARIO, readFileSync(join(ROOT, CROSS_PROCESS_SCENARIO), 'utf8'));
  if (!loaded.ok) {
    t.fail('the scenario loads', { errors: loaded.errors });
    return;
  }
  t.equal(runScenario(loaded.scenario).traceHash, hashA[4], 'an in-process run has the same sha256 as the processes');
});
