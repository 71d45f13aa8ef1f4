import t from 'tap';
import { runScenario } from '../../../../sim/runner/run-scenario';
import { loadScenario } from '../../../../sim/scenario/load-scenario';

/**
 * A step the core refuses as invalid (Marathon's 422 "Object is not valid") names what is not
 * valid in the summary's timeline: the refusal's details, as the API's body carries them. It read
 * only `refused (invalid: Object is not valid)`, so a file whose definitions clash (a dependency
 * cycle, an app and a pod of one id, an app where a group is) did not say why its step did nothing.
 */
const HEAD = `
name: refused
seed: 1
duration: 1m
cluster:
  agents:
    - count: 2
      resources: { cpus: 4, mem: 8192 }
timeline:
`;

const ROWS: readonly { name: string; timeline: string; step: string }[] = [
  {
    name: 'a dependency cycle in a deploy step',
    timeline: '  - { at: 0s, deploy: { apps: [{ id: /a, cmd: x, dependencies: [/b] }, { id: /b, cmd: x, dependencies: [/a] }] } }',
    step: 'deploy /a, /b: refused (invalid: Object is not valid (/: Dependency graph has cyclic dependencies.))',
  },
  {
    name: 'a pod with the id of an app',
    timeline: '  - { at: 0s, app: { id: /web, cmd: x } }\n  - { at: 1s, pod: { id: /web, containers: [{ name: c, resources: { cpus: 0.1, mem: 32 } }] } }',
    step: 'pod /web: 1 instance(s): refused (invalid: Object is not valid (/: Applications and Pods may not share the same id))',
  },
  {
    name: 'an app with the id of a group',
    timeline: '  - { at: 0s, app: { id: /g/web, cmd: x } }\n  - { at: 1s, app: { id: /g, cmd: x } }',
    step: 'app /g: 1 instance(s): refused (invalid: Object is not valid (/: Groups and Applications may not have the same identifier.))',
  },
];

for (const row of ROWS) {
  t.test(`a step refused as invalid says why: ${row.name}`, async (t) => {
    const loaded = loadScenario('refused.yaml', HEAD + row.timeline);
    if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
    const result = runScenario(loaded.scenario, { trace: false });
    const texts = result.steps.map((s) => s.text);
    t.ok(texts.includes(row.step), `${row.step}\n${texts.join('\n')}`);
  });
}
