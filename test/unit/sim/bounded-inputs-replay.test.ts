import { readFileSync } from 'node:fs';
import t from 'tap';
import { runScenario } from '../../../sim/runner/run-scenario';
import { loadScenario } from '../../../sim/scenario/load-scenario';
import type { SchedulerOptions } from '../../../src/scheduler/scheduler-options';
import { repoPath } from '../../harness/repo-path';

// Issue 11 item 4: the per-input bounds are counts, so a run whose inputs are cut into many small
// ones (offers kept for `continueOffers`, creations and kills deferred to `continueChanges`) is
// still deterministic (the same trace twice) and still does everything the scenario expects.
t.test('scenarios with one placement and one creation per input: same trace twice, every expectation holds', async (t) => {
  const tiny: Partial<SchedulerOptions> = { launchesPerInput: 1, launchesPerOfferBatch: 100_000, instancesPerInput: 1 };
  const files = ['scenarios/demo.yaml', 'scenarios/scheduler-failover.yaml', 'scenarios/partition.yaml', 'scenarios/deployments/rolling-upgrade.yaml'];
  for (const file of files) {
    const loaded = loadScenario(file, readFileSync(repoPath(file), 'utf8'));
    if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
    const first = runScenario(loaded.scenario, { coreOptions: tiny, keepTrace: true });
    const second = runScenario(loaded.scenario, { coreOptions: tiny, keepTrace: true });
    const usual = runScenario(loaded.scenario, { trace: true });
    t.strictSame(first.violations, [], `${file}: no invariant violated`);
    t.strictSame(first.expectations.filter((e) => !e.passed).map((e) => e.lines.join(' ')), [], `${file}: every expectation holds`);
    t.equal(second.traceHash, first.traceHash, `${file}: the same trace twice`);
    t.match(first.traceText, /continueOffers/, `${file}: offers were kept for later inputs`);
    t.not(first.traceHash, usual.traceHash, `${file}: a different run from the default bounds`);
  }
});
