import t from 'tap';
import { createRunSession, type RunOptions, type RunSession } from '../../sim/runner/run-scenario';
import { loadScenario } from '../../sim/scenario/load-scenario';
import { makeApp } from '../builders/run-spec-builders';

/**
 * A served `--cluster sim` session runs on without end after its workload (extendTo), steered by
 * API commands: what it keeps must not grow with the churn (the soak trial of 2026-11-30). Each
 * round creates uniquely named apps, lets them run, and deletes them.
 */

function session(options: RunOptions): RunSession {
  const yaml = [
    'name: churn-test', 'seed: 5', 'duration: 10s',
    'cluster:', '  agents:', '    - { count: 3, resources: { cpus: 8, mem: 8192 } }',
    'timeline: []', '',
  ].join('\n');
  const loaded = loadScenario('churn-test.yaml', yaml);
  if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
  return createRunSession(loaded.scenario, options);
}

function runFor(s: RunSession, ms: number): void {
  const until = s.nowMs() + ms;
  while (s.step(until)) {
    // each step handled in s.step
  }
}

/** One round: `apps` apps named after the round, placed, one of them unplaceable (offer rejections), then all deleted. */
function churn(s: RunSession, round: number, apps = 6): void {
  for (let i = 0; i < apps; i++) s.submit({ type: 'putRunSpec', spec: makeApp({ id: `/r${round}/app${i}`, instances: 2, cpus: 0.1, mem: 16 }) });
  s.submit({ type: 'putRunSpec', spec: makeApp({ id: `/r${round}/huge`, instances: 1, cpus: 64 }) });
  runFor(s, 30_000);
  for (let i = 0; i < apps; i++) s.submit({ type: 'deleteRunSpec', runSpecId: `/r${round}/app${i}`, force: true });
  s.submit({ type: 'deleteRunSpec', runSpecId: `/r${round}/huge`, force: true });
  runFor(s, 30_000);
}

t.test('after finish() the session keeps no more steps, decisions or events, whatever runs on', async (t) => {
  const s = session({ trace: false, decisions: true });
  const told: unknown[] = [];
  s.onDecision((d) => told.push(d));
  runFor(s, 10_000);
  const result = s.finish();
  s.extendTo(Number.POSITIVE_INFINITY);
  const kept = { steps: result.steps.length, decisions: result.decisions.length };
  const toldBefore = told.length;
  for (let round = 0; round < 5; round++) churn(s, round);
  t.ok(told.length > toldBefore + 50, `listeners still hear every decision (${told.length - toldBefore} after finish)`);
  t.same({ steps: result.steps.length, decisions: result.decisions.length }, kept, 'the result taken at finish() does not grow');
  t.same(s.stop().steps.length, kept.steps, 'nor does a later result');
});

t.test('keepDecisions: false tells decisions to the listeners only', async (t) => {
  const s = session({ trace: false, decisions: true, keepDecisions: false });
  let told = 0;
  s.onDecision(() => told++);
  churn(s, 0);
  t.ok(told > 10, 'decisions were read and told');
  t.equal(s.finish().decisions.length, 0, 'none kept');
});

t.test('the oracles and the reported rejections forget deleted apps and their instances', async (t) => {
  const s = session({ trace: false, decisions: true, keepDecisions: false });
  runFor(s, 10_000);
  s.finish();
  s.extendTo(Number.POSITIVE_INFINITY);
  const sizes: { oracleEntries: number; rejectionCounts: number }[] = [];
  for (let round = 0; round < 120; round++) {
    churn(s, round);
    sizes.push(s.retained());
  }
  t.same(s.violations(), [], 'no invariant broke');
  const series = (key: 'oracleEntries' | 'rejectionCounts'): number[] => sizes.map((x) => x[key]);
  const swept = (xs: number[]): boolean => xs.some((x, i) => i > 0 && x < (xs[i - 1] as number));
  // 120 rounds made about 1,500 instances (several entries each) and 840 apps; nothing is left.
  const oracle = series('oracleEntries');
  t.ok(swept(oracle) && Math.max(...oracle) <= 1300, `oracle entries are swept, at most about 1,024 (${oracle.join(' ')})`);
  const rejections = series('rejectionCounts');
  t.ok(swept(rejections) && Math.max(...rejections) <= 80, `reported rejections are swept, at most about 64 (${rejections.join(' ')})`);
});
