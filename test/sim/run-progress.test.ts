import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { REPO_ROOT } from '../harness/repo-path';
import { checkOutputPath } from '../../sim/runner/check-output-path';
import { cliMain } from '../../sim/runner/cli-main';
import type { CliIo } from '../../sim/runner/cli-io';
import { loadScenario } from '../../sim/scenario/load-scenario';
import { PROGRESS_EVERY_MS, progressLine, progressPrinter } from '../../sim/runner/progress-printer';
import { type RunProgress, runScenario } from '../../sim/runner/run-scenario';
import { RUN_LOOP_STEPS_DEFAULT } from '../../sim/scenario/scenario-limits';

// A long `npm run sim` says where it is on stderr now and then (sim/runner/progress-printer.ts);
// the run itself is the same with or without it. scenarios/demo.yaml takes about 500 loop steps.
const demo = join(REPO_ROOT, 'scenarios/demo.yaml');

function demoScenario() {
  const loaded = loadScenario('demo.yaml', readFileSync(demo, 'utf8'));
  if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
  return loaded.scenario;
}

t.test('the run tells its progress every N loop steps, and the run is the same as without', async (t) => {
  const scenario = demoScenario();
  const seen: RunProgress[] = [];
  const told = runScenario(scenario, { onProgress: (p) => void seen.push(p), progressSteps: 50 });
  const plain = runScenario(scenario);
  t.equal(told.traceHash, plain.traceHash, 'the same trace');
  t.equal(told.loopSteps, plain.loopSteps);
  t.equal(seen.length, Math.floor(plain.loopSteps / 50), `told every 50 of ${plain.loopSteps} steps`);
  for (let i = 0; i < seen.length; i++) {
    const p = seen[i];
    t.ok(p.loopSteps >= 50 * (i + 1) && p.loopSteps < 50 * (i + 1) + 50, `#${i}: after ${p.loopSteps} steps`);
    t.equal(p.maxLoopSteps, RUN_LOOP_STEPS_DEFAULT);
    t.equal(p.durationMs, scenario.durationMs);
    t.ok(p.atMs >= (i === 0 ? 0 : seen[i - 1].atMs) && p.atMs <= scenario.durationMs, `#${i}: virtual time ${p.atMs} ms, not going back`);
  }
});

t.test('the printer writes at most one line per interval of wall time, and nothing without a wall clock', async (t) => {
  const progress: RunProgress = { loopSteps: 1_200_000, maxLoopSteps: 10_000_000, atMs: 11_525_250, durationMs: 86_400_000 };
  // Wall times at which the run tells its progress, and whether a line is printed then.
  const cases: readonly [number, boolean][] = [
    [1000, false], [PROGRESS_EVERY_MS - 1, false], [PROGRESS_EVERY_MS, true], [PROGRESS_EVERY_MS + 10, false],
    [2 * PROGRESS_EVERY_MS - 1, false], [2 * PROGRESS_EVERY_MS + 5, true], [5 * PROGRESS_EVERY_MS, true],
  ];
  let wall = 0;
  const lines: string[] = [];
  const io = { stderr: (text: string) => void lines.push(text), wallMs: () => wall } as unknown as CliIo;
  const print = progressPrinter(io, 'scenarios/x.yaml');
  if (print === undefined) throw new Error('a printer with a wall clock');
  for (const [at, printed] of cases) {
    const before = lines.length;
    wall = at;
    print(progress);
    t.equal(lines.length - before, printed ? 1 : 0, `at ${at} ms: ${printed ? 'a line' : 'nothing'}`);
  }
  t.equal(lines[0], `${progressLine('scenarios/x.yaml', progress)}\n`);
  t.equal(progressPrinter({ stderr: () => undefined } as unknown as CliIo, 'x.yaml'), undefined, 'no wall clock: no printer');
});

t.test('the progress line', async (t) => {
  const cases: readonly [string, RunProgress, string][] = [
    ['a day, 13 % in', { loopSteps: 1_200_000, maxLoopSteps: 10_000_000, atMs: 11_525_250, durationMs: 86_400_000 },
      'scenarios/x.yaml: running: 1,200,000 loop steps, virtual time 3h12m5.250s of 24h0m0.000s (13 %); bound 10,000,000 steps (--max-steps)'],
    ['a short one', { loopSteps: 100_000, maxLoopSteps: 200_000, atMs: 30_000, durationMs: 60_000 },
      'scenarios/x.yaml: running: 100,000 loop steps, virtual time 30.000s of 1m0.000s (50 %); bound 200,000 steps (--max-steps)'],
    ['no duration', { loopSteps: 100_000, maxLoopSteps: 200_000, atMs: 0, durationMs: 0 },
      'scenarios/x.yaml: running: 100,000 loop steps, virtual time 0.000s of 0.000s (100 %); bound 200,000 steps (--max-steps)'],
  ];
  for (const [name, p, line] of cases) t.equal(progressLine('scenarios/x.yaml', p), line, name);
});

t.test('npm run sim with a wall clock: a short run prints no progress, and the same as without', async (t) => {
  const run = (wallMs?: () => number): { code: number; out: string; err: string } => {
    let out = '';
    let err = '';
    const io: CliIo = {
      readFile: (p) => readFileSync(p, 'utf8'), writeFile: () => undefined, checkOutput: checkOutputPath,
      stdout: (text) => void (out += text), stderr: (text) => void (err += text), ...(wallMs === undefined ? {} : { wallMs }),
    };
    return { code: cliMain([demo], io), out, err };
  };
  const withClock = run(() => 0);
  const without = run();
  t.equal(withClock.code, 0);
  t.equal(withClock.err, '', 'nothing on stderr');
  t.equal(withClock.out, without.out, 'the same summary');
});
