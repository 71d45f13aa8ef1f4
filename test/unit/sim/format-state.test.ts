import t from 'tap';
import { formatState, INSTANCE_LINES_MAX } from '../../../sim/replay/format-state';
import { createRunSession } from '../../../sim/runner/run-scenario';
import { VIRTUAL_EPOCH_MS } from '../../../sim/runner/virtual-epoch';
import { loadScenario } from '../../../sim/scenario/load-scenario';

/** The state `replay --until` prints, of a run of /grp/cons (`instances`) on one agent with room for `fit`, at 30 s. */
function stateAt30s(instances: number, fit: number): string[] {
  const text = `name: x\nseed: 1\nduration: 1m\ncluster:\n  agents:\n    - count: 1\n      resources: { cpus: ${fit}, mem: ${fit * 64 + 1} }\n`
    + `timeline:\n  - { at: 0s, app: { id: /grp/cons, cmd: sleep 1000, instances: ${instances}, cpus: 1, mem: 64 } }\n`;
  const loaded = loadScenario('x.yaml', text);
  if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
  const session = createRunSession(loaded.scenario);
  while (session.step(VIRTUAL_EPOCH_MS + 30_000)) {
    // to 30 s
  }
  return formatState(session.scheduler, VIRTUAL_EPOCH_MS);
}

t.test('the run spec line says what it counts: the target, then the instances the core holds by condition', async (t) => {
  const cases: { instances: number; fit: number; line: RegExp }[] = [
    { instances: 1, fit: 0, line: /^ {2}\/grp\/cons {2}target 1; instances 1: Scheduled 1 {2}version \S+$/ },
    { instances: 3, fit: 2, line: /^ {2}\/grp\/cons {2}target 3; instances 3: Running 2, Scheduled 1 {2}version \S+$/ },
    { instances: 0, fit: 1, line: /^ {2}\/grp\/cons {2}target 0; instances 0: none {2}version \S+$/ },
  ];
  for (const c of cases) {
    const lines = stateAt30s(c.instances, c.fit);
    t.match(lines[1], c.line, `${c.instances} on room for ${c.fit}`);
    t.notMatch(lines.join('\n'), /\d+\/\d+ instances/, 'no bare n/m');
  }
});

t.test('the instances listed per run spec are bounded; how many more is said', async (t) => {
  const lines = stateAt30s(INSTANCE_LINES_MAX + 30, 0);
  t.match(lines[1], `target ${INSTANCE_LINES_MAX + 30}; instances ${INSTANCE_LINES_MAX + 30}: Scheduled ${INSTANCE_LINES_MAX + 30}`);
  t.equal(lines.filter((l) => /^ {4}grp_cons\.instance-/.test(l)).length, INSTANCE_LINES_MAX);
  t.ok(lines.includes('    … 30 more instances'));
});
