import t from 'tap';
import { runScenario } from '../../../../sim/runner/run-scenario';
import { loadScenario } from '../../../../sim/scenario/load-scenario';

/**
 * A `kill` step naming a run spec that does not exist at that moment (docs/scenario-format.md,
 * Timeline): not yet created or already deleted, it is a no-op the summary names as the step
 * asked it and as the core refused it, like `scale` or `delete` (it read "kill 0 instance(s)");
 * an id that no app or pod step of the file creates is a validation error of the scenario.
 */
const HEAD = `
name: kill-missing
seed: 1
duration: 2m
cluster:
  agents:
    - count: 2
      resources: { cpus: 4, mem: 8192, disk: 20000, ports: "31000-32000" }
timeline:
`;

const RUNS: readonly { name: string; timeline: string; steps: string[] }[] = [
  {
    name: 'before the app is created, and after it was deleted',
    timeline: `
  - { at: 0s, kill: { id: /web, count: 2, scale: true } }
  - { at: 10s, app: { id: /web, cmd: "sleep 3600", instances: 2, cpus: 0.5, mem: 128 } }
  - { at: 30s, kill: { id: /web, count: 1 } }
  - { at: 40s, delete: /web }
  - { at: 50s, kill: { id: web, agent: agent-1, wipe: true } }
  - { at: 55s, scale: { id: /web, instances: 3 } }
`,
    steps: [
      "kill 2 instance(s) of /web (scale): refused (unknown-run-spec: App '/web' does not exist), nothing killed",
      'app /web: 2 instance(s): deployment *',
      'kill 1 instance(s) of /web: ok',
      'delete /web: deployment *',
      "kill the instances on agent-1 of /web (wipe): refused (unknown-run-spec: App '/web' does not exist), nothing killed",
      "scale /web to 3: refused (unknown-run-spec: App '/web' does not exist)",
    ],
  },
  {
    name: 'an app that exists with no instance left to kill: zero, as before',
    timeline: `
  - { at: 0s, app: { id: /web, cmd: "sleep 3600", instances: 0, cpus: 0.5, mem: 128 } }
  - { at: 10s, kill: { id: /web } }
`,
    steps: ['app /web: 0 instance(s): deployment *', 'kill 0 instance(s) of /web: ok'],
  },
];

for (const r of RUNS) {
  t.test(`a kill step of a run spec that does not exist then: ${r.name}`, async (t) => {
    const loaded = loadScenario('kill-missing.yaml', HEAD + r.timeline);
    if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
    const result = runScenario(loaded.scenario, { trace: false });
    const texts = result.steps.map((s) => s.text.replace(/deployment [0-9a-f-]{36}$/, 'deployment *'));
    t.same(texts, r.steps);
    t.notMatch(texts.join('\n'), /kill 0 instance\(s\) of \/web: refused/, 'never "kill 0 instance(s)" of a missing run spec');
  });
}

t.test('a kill step of an id no app or pod step creates is a validation error, with its line', async (t) => {
  const loaded = loadScenario('kill-missing.yaml', `${HEAD}
  - { at: 0s, app: { id: /web, cmd: "sleep 3600", instances: 1, cpus: 0.5, mem: 128 } }
  - { at: 10s, kill: { id: /nope } }
`);
  t.notOk(loaded.ok);
  if (loaded.ok) return;
  t.same(loaded.errors, ['kill-missing.yaml: /timeline/1/kill/id: no app or pod with id "/nope" in this scenario (apps and pods: /web) (line 12)']);
});

/**
 * `kill { agent }` of a resident instance whose agent is gone (killed, or cut off): it waits to
 * relaunch on its reservation there, unplaced, with no agent of its own. The step finds it by its
 * reservation's agent (it used to find nothing: "kill 0 instance(s)"); with `wipe` the instance
 * is given up and a new one is placed elsewhere, as Marathon's kill with wipe=true does; without
 * `wipe` the core keeps it waiting for its reservation (a kill keeps a resident instance's).
 */
const RESIDENT = `
name: kill-resident
seed: 902
options: { defaultRole: db }
duration: 10m
cluster:
  agents:
    - count: 3
      resources: { cpus: 2, mem: 2048, disk: 1000, ports: "31000-31010" }
timeline:
  - at: 0s
    app: { id: /db, cmd: sleep 1000, instances: 1, cpus: 0.5, mem: 128, container: { type: MESOS, volumes: [{ containerPath: data, mode: RW, persistent: { size: 100 } }] } }
  - { at: 30s, expect: { onAgents: { id: /db, agents: [agent-1] } } }
  - { at: 1m, FAULT: agent-1 }
  - { at: 5m, expect: { instances: { /db: { Scheduled: 1, total: 1 } } } }
  - { at: 5m, kill: KILL }
  - { at: 9m, expect: { instances: { /db: { Running: RUNNING, total: 1 } } } }
  - { at: 9m, note: ON_AGENTS }
`;

const RESIDENT_ROWS: readonly { name: string; fault: string; kill: string; step: string; running: number; agents?: readonly string[] }[] = [
  { name: 'agent killed, kill with wipe: replaced elsewhere', fault: 'killAgent', kill: '{ id: /db, agent: agent-1, wipe: true }', step: 'kill 1 instance(s) of /db (wipe): ok', running: 1, agents: ['agent-2', 'agent-3'] },
  { name: 'agent killed, kill without wipe: still waits for its reservation', fault: 'killAgent', kill: '{ id: /db, agent: agent-1 }', step: 'kill 1 instance(s) of /db: ok', running: 0 },
  { name: 'another agent: nothing of /db there', fault: 'killAgent', kill: '{ id: /db, agent: agent-2, wipe: true }', step: 'kill 0 instance(s) of /db (wipe): ok', running: 0 },
];

for (const row of RESIDENT_ROWS) {
  t.test(`kill { agent } of a resident instance waiting for its reservation: ${row.name}`, async (t) => {
    const onAgents = row.agents === undefined ? 'nothing placed' : `expect: { onAgents: { id: /db, agents: [${row.agents.join(', ')}] } }`;
    const text = RESIDENT.replace('FAULT', row.fault).replace('KILL', row.kill).replace('RUNNING', String(row.running))
      .replace('note: ON_AGENTS', row.agents === undefined ? `note: ${onAgents}` : onAgents);
    const loaded = loadScenario('kill-resident.yaml', text);
    if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
    const result = runScenario(loaded.scenario, { trace: false });
    t.ok(result.steps.some((s) => s.text === row.step), `${row.step}\n${result.steps.map((s) => s.text).join('\n')}`);
    t.ok(result.passed, result.expectations.flatMap((e) => e.lines).join('\n'));
  });
}

t.test('heal of an agent killed while partitioned: accepted (the partition was real), a warning at the step', async (t) => {
  const loaded = loadScenario('heal-dead.yaml', `${HEAD}
  - { at: 0s, partition: agent-1 }
  - { at: 10s, killAgent: agent-1 }
  - { at: 20s, heal: agent-1 }
  - { at: 30s, partition: agent-2 }
  - { at: 40s, heal: agent-2 }
`);
  if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
  const result = runScenario(loaded.scenario, { trace: false });
  t.same(result.steps.map((s) => s.text), [
    'partition agent-1',
    'kill agent agent-1',
    'heal agent-1: warning: nothing to heal, the agent was killed while partitioned (the killAgent step at line 12)',
    'partition agent-2',
    'heal agent-2',
  ]);
});
