import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { DEFAULT_SIM_TIMINGS } from '../../sim/cluster/sim-models';
import { cliMain } from '../../sim/runner/cli-main';
import { runScenario, SAME_INSTANT_MAX, SAME_INSTANT_PER_TASK } from '../../sim/runner/run-scenario';
import type { Scenario, TimelineStep } from '../../sim/scenario/scenario';

t.test('a run whose clock stands still for too many steps fails as a livelock instead of hanging', async (t) => {
  const timeline: TimelineStep[] = Array.from({ length: SAME_INSTANT_MAX + 5 }, (_, i) => ({
    atMs: 1000, pointer: `/timeline/${i}`, action: { type: 'note', text: 'same instant' },
  }));
  const scenario: Scenario = {
    name: 'livelock', seed: 1, durationMs: 60_000,
    options: { taskKilling: false, defaultRole: '*', timings: DEFAULT_SIM_TIMINGS }, invariants: {},
    agents: [{ agentId: 'a1', hostname: 'h1', attributes: [], resources: { cpus: 1, mem: 1024, disk: 0, gpus: 0, ports: [] }, reserved: [] }],
    timeline,
  };
  const r = runScenario(scenario, { trace: false });
  t.equal(r.passed, false);
  t.match(r.violations, [/livelock: 100000 loop steps at one virtual instant/]);
  t.equal(r.violationAtMs, 1000, 'stopped at the instant that stood still');
  // The message says where the instant began and where the run stopped: one step past the bound.
  const [, began, stopped] = /the instant began at loop step (\d+), stopped at (\d+)\)$/.exec(r.violations[0]) ?? [];
  t.equal(Number(stopped) - Number(began), SAME_INSTANT_MAX + 1, 'stopped one step past the bound, counted from the instant\'s first step');
  t.equal(Number(stopped), r.loopSteps, 'at the run\'s last loop step');
});

// A reconciliation answers every task twice at one instant, so the bound grows with the cluster:
// SAME_INSTANT_MAX plus SAME_INSTANT_PER_TASK per task. Two running tasks here: the same burst of
// steps at one instant passes up to the raised bound and fails one step beyond it.
for (const extra of [0, 1]) {
  t.test(`the livelock bound grows with the tasks in the cluster (${extra === 0 ? 'at' : 'one past'} the bound)`, async (t) => {
    const tasks = 2;
    const bound = SAME_INSTANT_MAX + SAME_INSTANT_PER_TASK * tasks;
    const notes: TimelineStep[] = Array.from({ length: bound + 1 + extra }, (_, i) => ({
      atMs: 30_000, pointer: `/timeline/${i + 1}`, action: { type: 'note', text: 'same instant' },
    }));
    const scenario: Scenario = {
      name: 'livelock-bound', seed: 1, durationMs: 60_000,
      options: { taskKilling: false, defaultRole: '*', timings: DEFAULT_SIM_TIMINGS }, invariants: {},
      agents: [{ agentId: 'a1', hostname: 'h1', attributes: [], resources: { cpus: 1, mem: 1024, disk: 0, gpus: 0, ports: [[31000, 31009]] }, reserved: [] }],
      timeline: [
        { atMs: 0, pointer: '/timeline/0', action: { type: 'app', definition: { id: '/a', cmd: 'serve', instances: tasks, cpus: 0.1, mem: 32 }, pointer: '/timeline/0/app', runSpecId: '/a', force: false } },
        ...notes,
      ],
    };
    const r = runScenario(scenario, { trace: false });
    if (extra === 0) {
      t.same(r.violations, [], `${bound + 1} steps at one instant (the first the clock had there) pass`);
      t.same(r.finalCounts.map((c) => c.counts.Running), [tasks], 'both tasks ran');
    } else {
      t.match(r.violations, [new RegExp(`livelock: ${bound} loop steps at one virtual instant`)]);
      t.equal(r.violationAtMs, 30_000);
    }
  });
}

t.test('the swarm command runs in-process: summary line, exit code, --dump', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pacer-swarm-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const io = (out: string[]) => ({
    readFile: (p: string) => readFileSync(p, 'utf8'),
    writeFile: (p: string, text: string) => writeFileSync(p, text),
    stdout: (text: string) => void out.push(text),
    stderr: (text: string) => void out.push(text),
  });
  const out: string[] = [];
  t.equal(cliMain(['swarm', '--seeds', '3', '--from', '10'], io(out)), 0, out.join(''));
  t.match(out.join(''), /swarm: 3 seeds \(from 10\), [\d.]+ virtual hours, [\d.]+ s wall, 0 failures/);
  const dumped = join(dir, 'seed-10.yaml');
  const dumpOut: string[] = [];
  t.equal(cliMain(['swarm', '--seeds', '1', '--from', '10', '--dump', dumped], io(dumpOut)), 0, dumpOut.join(''));
  const replay: string[] = [];
  t.equal(cliMain([dumped, '--quiet'], io(replay)), 0, replay.join(''));
  t.match(replay.join(''), /^PASSED .*seed-10\.yaml seed \d+ sha256 [0-9a-f]{64}\n$/);
  const bad: string[] = [];
  t.equal(cliMain(['swarm', '--seeds', 'many'], io(bad)), 2, 'a bad count is a usage error');
});
