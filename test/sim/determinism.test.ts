import { spawnSync } from 'node:child_process';
import t from 'tap';
import { runSimBench, simBenchScenario } from '../../bench/sim';
import { runScenario } from '../../sim/runner/run-scenario';
import { nodeArgsFor } from '../harness/node-entry';
import { repoPath } from '../harness/repo-path';

// The simulator must replay exactly: the same scenario and seed give the same trace, in one
// process or two, whatever ran before it in the process and however loaded the machine is. The
// golden hashes hold that for the scenario files; these runs hold it for bench:sim's generated
// workload at a size where everything it exercises happens (reconciliations every 10 virtual
// minutes, flaky health checks, declines and refuse filters, task failures, backoff and relaunches
// after the first virtual hour), because bench:sim's 100k row once stopped at a step that later
// runs of the same command never reached (bench/README.md, 2026-11-29).

t.test('bench:sim\'s workload gives the same trace twice in one process, with another run between them', async (t) => {
  const scenario = simBenchScenario(40, 400, 1.5);
  const first = runScenario(scenario, { invariants: false });
  // Another configuration in between: any state a run leaves in a module (caches, counters) shows.
  runScenario(simBenchScenario(7, 150, 0.5), { invariants: false });
  const second = runScenario(scenario, { invariants: false });
  t.ok(first.passed && second.passed, 'both runs passed');
  t.ok(first.loopSteps > 10_000, `a run of some size (${first.loopSteps} loop steps)`);
  t.ok((first.eventCounts.instance_changed_event ?? 0) > 800, 'instances failed and were relaunched (more instance changes than two per instance)');
  t.equal(second.loopSteps, first.loopSteps, 'same loop steps');
  t.equal(second.traceLines, first.traceLines, 'same trace length');
  t.equal(second.traceHash, first.traceHash, 'same trace hash');
});

t.test('bench:sim gives the same checkpoints in one process and in a fresh one', async (t) => {
  const a = runSimBench(30, 300, 1.25, false);
  const b = runSimBench(30, 300, 1.25, false);
  t.strictSame(a.problems, [], 'it did all of its work');
  t.equal(a.checkpoints.length, 8, 'seven 10-minute checkpoints and the end');
  t.strictSame(b.checkpoints, a.checkpoints, 'the same steps and events at every checkpoint, run twice in one process');
  t.equal(b.fingerprint, a.fingerprint);
  const run = spawnSync(process.execPath, [...nodeArgsFor('bench/sim.ts'), '--agents', '30', '--instances', '300', '--hours', '1.25'], { cwd: repoPath('.'), encoding: 'utf8', timeout: 300_000 });
  t.equal(run.status, 0, 'bench:sim in a fresh process did all of its work');
  t.match(run.stdout, new RegExp(` ${a.loopSteps} .* ${a.fingerprint}\\n`), 'and printed the same loop steps and fingerprint');
});
