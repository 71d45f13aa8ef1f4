import t from 'tap';
import { createRunSession, type RunOptions, type RunSession } from '../../sim/runner/run-scenario';
import { VIRTUAL_EPOCH_MS } from '../../sim/runner/virtual-epoch';
import { loadScenario } from '../../sim/scenario/load-scenario';
import { makeApp } from '../builders/run-spec-builders';

/**
 * What startSim relies on in a RunSession, in virtual time (no pacing): `submit` handles an
 * outside command as a timeline command (trace, summary, invariants), and `extendTo` runs the
 * loop past the workload's duration.
 */

/** A session of an empty-timeline workload on 2 agents, 1m long unless `extra` (top-level YAML lines) says otherwise. */
function session(options: RunOptions = {}, extra = 'duration: 1m'): RunSession {
  const yaml = [
    'name: session-test', 'seed: 3', extra,
    'cluster:', '  agents:', '    - { count: 2, resources: { cpus: 2, mem: 1024 } }',
    'timeline: []', '',
  ].join('\n');
  const loaded = loadScenario('session-test.yaml', yaml);
  if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
  return createRunSession(loaded.scenario, options);
}

function runUntil(s: RunSession, untilMs: number): void {
  while (s.step(untilMs)) {
    // each step handled in s.step
  }
}

t.test('submit handles a command at the current instant, traced and listed like a timeline step', async (t) => {
  const s = session({ keepTrace: true });
  runUntil(s, VIRTUAL_EPOCH_MS + 5000);
  const atMs = s.nowMs();
  const put = s.submit({ type: 'putRunSpec', spec: makeApp({ id: '/api', instances: 2 }) });
  t.match(put, { ok: true, deploymentId: String });
  t.equal(s.nowMs(), atMs, 'handled at the current virtual instant');
  t.equal(s.scheduler.runSpec('/api')?.instances, 2, 'the core has the app');
  t.match(s.submit({ type: 'scale', runSpecId: '/missing', instances: 1 }), { ok: false });
  runUntil(s, s.endMs);
  const running = s.scheduler.instances('/api').filter((i) => i.condition === 'Running').length;
  t.equal(running, 2, 'placed and running on the simulated agents');
  const result = s.finish();
  t.ok(result.passed);
  t.match(result.steps.map((step) => step.text), [/^api putRunSpec: deployment /, /^api scale: refused \(/]);
  const cmds = result.traceText.split('\n').filter((line) => line.includes('"k":"cmd"'));
  t.same(cmds.map((line) => (JSON.parse(line) as { type: string; from: string }).type), ['putRunSpec', 'scale']);
  t.ok(cmds.every((line) => line.includes('"from":"api"')), 'marked as coming from the API');
});

t.test('invariants are checked on what API commands did: an app that cannot fit never converges', async (t) => {
  // Declined offers come back after the refuse filter (120 s): the check runs on that step.
  const s = session({}, 'duration: 5m\ninvariants: { convergeWithin: 10s }');
  s.submit({ type: 'putRunSpec', spec: makeApp({ id: '/huge', instances: 1, cpus: 64 }) });
  runUntil(s, s.endMs);
  t.match(s.violations(), [/\/huge has 0 running instances, target 1/], 'the run stopped on the violation');
  t.equal(s.nextDueMs(), undefined, 'nothing more runs');
  t.notOk(s.finish().passed);
});

t.test('extendTo lets the loop run on past the workload after finish()', async (t) => {
  const s = session({ trace: false });
  runUntil(s, s.endMs);
  const first = s.finish();
  t.equal(first.virtualMs, 60_000, 'the workload ran to its duration');
  s.extendTo(Number.POSITIVE_INFINITY);
  s.submit({ type: 'putRunSpec', spec: makeApp({ id: '/late', instances: 1 }) });
  runUntil(s, VIRTUAL_EPOCH_MS + 120_000);
  t.ok(s.nowMs() > VIRTUAL_EPOCH_MS + 60_000, 'virtual time moved on');
  t.equal(s.scheduler.instances('/late').filter((i) => i.condition === 'Running').length, 1, 'and the late app runs');
});
