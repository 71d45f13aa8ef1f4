import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { runSimCli } from '../harness/run-sim-cli';
import { REPO_ROOT } from '../harness/repo-path';
import { loadScenario } from '../../sim/scenario/load-scenario';
import { runScenario } from '../../sim/runner/run-scenario';
import { RUN_LOOP_STEPS_DEFAULT, RUN_LOOP_STEPS_MAX } from '../../sim/scenario/scenario-limits';

// The bound on a run's overall work (docs/limits.md, "Scenario files"): loop steps, counted, so a
// run stops at the same step, with the same trace, every time. scenarios/demo.yaml takes about 500.
const demo = join(REPO_ROOT, 'scenarios/demo.yaml');
const dir = mkdtempSync(join(tmpdir(), 'pacer-step-bound-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

t.test('a run past --max-steps stops there: one line on stderr naming the bound and where it got, exit 2, the same stop twice', async (t) => {
  const runs = [1, 2].map((n) => {
    const trace = join(dir, `trace-${n}.jsonl`);
    return { ...runSimCli([demo, '--max-steps', '100', '--trace', trace]), trace: readFileSync(trace, 'utf8') };
  });
  const [first, second] = runs;
  t.equal(first.code, 2, 'exit 2');
  t.equal(first.err.split('\n').filter((l) => l !== '').length, 1, 'one line on stderr');
  t.match(first.err, /^.*demo\.yaml: stopped by the bound on a run's work, 100 loop steps \(--max-steps\), at virtual time \d+m[\d.]+s of 10m0\.000s; raise it with --max-steps N \(at most 1000000000\)/);
  t.notMatch(first.err, /\n\s+at /, 'no stack trace');
  t.match(first.out, /loop steps 100\n/, 'the summary says the run took 100 steps');
  t.match(first.out, /\nstopped by its bound of 100 loop steps at \d+m[\d.]+s of 10m0\.000s, before its expectations; no verdict\n$/, 'the verdict line');
  const records = first.trace.trim().split('\n').map((l) => JSON.parse(l) as { k: string; loopSteps?: number; maxLoopSteps?: number });
  t.match(records.at(-2), { k: 'stopped', loopSteps: 100, maxLoopSteps: 100 }, 'the trace says where and why the run stopped');
  t.equal(second.code, first.code);
  t.equal(second.err, first.err, 'the same stop point');
  t.equal(second.out, first.out);
  t.equal(second.trace, first.trace, 'the same trace, byte for byte');
});

t.test('the bound admits a run that needs exactly that many steps, and stops one that needs one more', async (t) => {
  const loaded = loadScenario('demo.yaml', readFileSync(demo, 'utf8'));
  if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
  const full = runScenario(loaded.scenario, { trace: false });
  t.equal(full.passed, true);
  t.ok(full.loopSteps < RUN_LOOP_STEPS_DEFAULT, 'the default admits it');
  const exact = runScenario(loaded.scenario, { trace: false, maxLoopSteps: full.loopSteps });
  t.equal(exact.passed, true, `${full.loopSteps} steps allowed: the run passes`);
  t.equal(exact.stopped, undefined);
  const short = runScenario(loaded.scenario, { trace: false, maxLoopSteps: full.loopSteps - 1 });
  t.equal(short.passed, false);
  t.equal(short.loopSteps, full.loopSteps - 1);
  t.match(short.stopped, { maxLoopSteps: full.loopSteps - 1, durationMs: 600_000 });
});

t.test('--max-steps takes an integer from 1 to its own bound', async (t) => {
  for (const bad of ['0', String(RUN_LOOP_STEPS_MAX + 1), '1e6', '-5', 'many']) {
    const r = runSimCli([demo, '--max-steps', bad]);
    t.equal(r.code, 2, bad);
    t.match(r.err, `sim: --max-steps: expected an integer from 1 to ${RUN_LOOP_STEPS_MAX}, got "${bad}"`);
  }
  const missing = runSimCli([demo, '--max-steps']);
  t.equal(missing.code, 2);
  t.match(missing.err, /^sim: --max-steps needs a number\n/);
  const ok = runSimCli([demo, '--max-steps', String(RUN_LOOP_STEPS_MAX), '--quiet']);
  t.equal(ok.code, 0, ok.err);
  t.match(ok.out, /^PASSED /);
});

t.test('--quiet: a run stopped by its bound before anything failed says STOPPED, not FAILED, and exits 2', async (t) => {
  const r = runSimCli([demo, '--max-steps', '10', '--quiet']);
  t.equal(r.code, 2, r.err);
  t.match(r.out, /^STOPPED \S+ seed \d+ sha256 [0-9a-f]{64}\n$/);
  t.match(r.err, /stopped by the bound on a run's work, 10 loop steps/);
});
