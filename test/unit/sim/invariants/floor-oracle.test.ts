import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { FloorOracle } from '../../../../sim/invariants/floor-oracle';
import { runScenario } from '../../../../sim/runner/run-scenario';
import { loadScenario } from '../../../../sim/scenario/load-scenario';
import { UNHEALTHY_KILL_FLOOR_LABEL } from '../../../../src/scheduler/health/unhealthy-kill-floor';
import type { SchedulerOptions } from '../../../../src/scheduler/scheduler-options';
import { makeOffer } from '../../../builders/cluster-builders';
import { makeApp, makeHealthCheck } from '../../../builders/run-spec-builders';
import { Harness } from '../../../harness/core-harness';
import { healthyApp, nextRound } from '../../../harness/health-storm';
import { REPO_ROOT } from '../../../harness/repo-path';

/**
 * The swarm's floor invariant (sim/invariants/floor-oracle.ts, checked after every step of every
 * run by invariant-checker.ts): it holds where the core protects the floor, and it fails on a run
 * whose core has no protection (`unhealthyKillFloor: 0` for the core alone) while the invariant
 * expects the default floor.
 */

t.test('whole scenario runs: the invariant fails exactly when the core does not hold the floor the run expects', async (t) => {
  const cases: [string, string, Partial<SchedulerOptions> | undefined, RegExp | undefined][] = [
    ['the floor scenario, protected', 'scenarios/health-kill-storm-floor.yaml', undefined, undefined],
    ['the floor scenario, core without protection', 'scenarios/health-kill-storm-floor.yaml', { unhealthyKillFloor: 0 },
      /^\/(storm|half): an unhealthy kill left \d+ instances counting towards its floor of (9|2) \(target (10|4)\)$/],
    ['the Marathon storm (floor 0 for the run, so for the invariant too)', 'scenarios/health-kill-storm.yaml', undefined, undefined],
    ['the floor scenario with a core floor above the expected one (stricter is fine)', 'scenarios/health-kill-storm-floor.yaml', { unhealthyKillFloor: 1 }, undefined],
  ];
  for (const [name, file, coreOptions, violation] of cases) {
    t.test(name, async (t) => {
      const loaded = loadScenario(file, readFileSync(join(REPO_ROOT, file), 'utf8'));
      if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
      const result = runScenario(loaded.scenario, { ...(coreOptions === undefined ? {} : { coreOptions }), trace: false });
      if (violation === undefined) {
        t.same(result.violations, [], 'no violation');
      } else {
        t.equal(result.violations.length, 1, 'the run stops at the first violation');
        t.match(result.violations[0], violation);
        t.equal(result.passed, false, 'and fails');
        t.ok((result.violationAtMs ?? 0) >= 60_000 && (result.violationAtMs ?? 0) < 120_000, `inside the failing window (${result.violationAtMs} ms)`);
      }
    });
  }
});

t.test('the oracle over a core storm: table of floors, labels and storms', async (t) => {
  // [name, core options, oracle's flag, app labels, instances failing of 6, check, violation?]
  const cases: [string, Partial<SchedulerOptions>, number | undefined, Record<string, string>, number, boolean][] = [
    ['protected core, default floor', {}, undefined, {}, 6, false],
    ['unprotected core, default floor expected', { unhealthyKillFloor: 0 }, undefined, {}, 6, true],
    ['unprotected core, floor 0 expected', { unhealthyKillFloor: 0 }, 0, {}, 6, false],
    ['unprotected core, half expected by the flag', { unhealthyKillFloor: 0 }, 0.5, {}, 6, true],
    ['the app\'s label wins for both: protected at 0.5', { unhealthyKillFloor: 0 }, undefined, { [UNHEALTHY_KILL_FLOOR_LABEL]: '0.5' }, 6, false],
    ['unprotected core, one bad instance: one kill never breaks a floor of n − 1', { unhealthyKillFloor: 0 }, undefined, {}, 1, false],
    ['unprotected core, two bad instances of six', { unhealthyKillFloor: 0 }, undefined, {}, 2, true],
  ];
  for (const [name, options, flag, labels, failing, violated] of cases) {
    const h = new Harness({ options });
    const oracle = new FloorOracle(flag);
    h.scheduler.subscribe((e) => oracle.onEvent(e));
    const ids = healthyApp(h, 6, { labels });
    t.same(oracle.afterStep(h.scheduler), [], `${name}: nothing before the storm`);
    nextRound(h, ids.slice(0, failing), 500);
    const found = oracle.afterStep(h.scheduler);
    t.equal(found.length, violated ? 1 : 0, `${name}: ${found.join('; ')}`);
    t.same(oracle.afterStep(h.scheduler), [], `${name}: reported once, for the step of the kill`);
  }
});

t.test('kills of instances that never counted (failing from their first check) are not held to the floor', async (t) => {
  const h = new Harness({ options: { unhealthyKillFloor: 0 } });
  const oracle = new FloorOracle(undefined);
  h.scheduler.subscribe((e) => oracle.onEvent(e));
  const check = makeHealthCheck({ gracePeriodMs: 0, intervalMs: 10_000, timeoutMs: 2000, maxConsecutiveFailures: 1 });
  h.put(makeApp({ id: '/fresh', instances: 3, hostPorts: [0], healthChecks: [check] }));
  h.run(h.offer(makeOffer()));
  for (const inst of h.instances('/fresh')) h.probeInstance(inst.instanceId, { httpStatus: 500 });
  t.equal(h.events('unhealthy_instance_kill_event').length, 3, 'all three killed');
  t.same(oracle.afterStep(h.scheduler), [], 'no violation: none of them counted');
});

t.test('after a takeover the oracle counts what it counted before, as the new core does (proven is stored)', async (t) => {
  // Swarm seed 50084 found the core counting every instance it recovered running, ever healthy or
  // not; since store format 9 an instance's `proven` is stored, so the core built from the store
  // counts what the one before it counted, and the oracle, fed by events only, needs no step at a
  // takeover. A storm right after the restart: no violation, whether the instances were healthy
  // before it (the floor holds kills) or never (every kill goes).
  for (const provenBefore of [true, false]) {
    const h1 = new Harness();
    const oracle = new FloorOracle(undefined);
    h1.scheduler.subscribe((e) => oracle.onEvent(e));
    const check = makeHealthCheck({ gracePeriodMs: 0, intervalMs: 10_000, timeoutMs: 2000, maxConsecutiveFailures: 1 });
    h1.put(makeApp({ id: '/fresh', instances: 3, hostPorts: [0], healthChecks: [check] }));
    h1.run(h1.offer(makeOffer()));
    for (const inst of h1.instances('/fresh')) h1.status(inst.tasks[0].taskId, 'TASK_RUNNING');
    if (provenBefore) for (const inst of h1.instances('/fresh')) h1.probeInstance(inst.instanceId, { httpStatus: 200 });
    const h2 = new Harness({ stored: h1.store.load(), startMs: h1.nowMs });
    h2.scheduler.subscribe((e) => oracle.onEvent(e));
    h2.advance(10_000);
    for (const inst of h2.instances('/fresh')) h2.probeInstance(inst.instanceId, { httpStatus: 500 });
    const kills = h2.events('unhealthy_instance_kill_event').length;
    t.equal(kills, provenBefore ? 1 : 3, provenBefore ? 'healthy before: the floor of 2 lets one kill go' : 'never healthy: every kill goes');
    t.same(oracle.afterStep(h2.scheduler), [], `${provenBefore ? 'healthy' : 'never healthy'} before the takeover: the oracle agrees`);
  }
});
