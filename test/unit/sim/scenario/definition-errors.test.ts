import t from 'tap';
import { loadScenario } from '../../../../sim/scenario/load-scenario';

const F = 'scenarios/x.yaml';

/** A scenario whose timeline holds the given entries (YAML, indented as timeline items). */
function scenarioWith(timeline: string): string {
  return `name: x\nseed: 1\nduration: 30m\ncluster:\n  agents:\n    - count: 3\n      resources: { cpus: 4, mem: 8192 }\ntimeline:\n${timeline}`;
}

/** The loader's errors, without their lines. */
function definitionErrors(text: string): string[] {
  const loaded = loadScenario(F, text);
  return loaded.ok ? [] : loaded.errors.map((e) => e.replace(/ \(line \d+\)$/, ''));
}

t.test('a bad constraint in a scenario fails the file up front, naming the file, the JSON path and Marathon\'s message', async (t) => {
  const errors = definitionErrors(scenarioWith([
    '  - at: 0s',
    '    app: { id: /web, cmd: sleep 100, constraints: [[hostname, UNIQUE], [hostname, UNIQUE, x]] }',
    '  - at: 1m',
    '    pod:',
    '      id: /p',
    '      containers: [{ name: c, resources: { cpus: 0.1, mem: 32 } }]',
    '      scheduling: { placement: { constraints: [{ fieldName: rack, operator: MAX_PER, value: two }] } }',
    '  - at: 2m',
    '    app: { id: /db, cmd: sleep 100, constraints: [[rack, IS, "rack 1!"]] }',
  ].join('\n')));
  t.strictSame(errors, [
    `${F}: /timeline/0/app/constraints/1: UNIQUE does not accept a value`,
    `${F}: /timeline/1/pod/scheduling/placement/constraints/0: MAX_PER requires an integer value`,
    `${F}: /timeline/2/app/constraints/0: IS only supports Mesos text and float values (see http://mesos.apache.org/documentation/latest/attributes-resources/)`,
  ]);
});

t.test('each semantic error of a definition carries its line', async (t) => {
  const loaded = loadScenario(F, scenarioWith('  - at: 0s\n    app:\n      id: /web\n      instances: 2\n  - at: 1m\n    app: { id: /db, cmd: sleep 1, constraints: [[hostname, UNIQUE, x]] }'));
  t.strictSame(loaded.ok ? [] : loaded.errors, [
    `${F}: /timeline/0/app: AppDefinition must either contain one of 'cmd' or 'args', and/or a 'container'. (line 11)`,
    `${F}: /timeline/1/app/constraints/0: UNIQUE does not accept a value (line 14)`,
  ]);
});

t.test('valid constraints load without errors', async (t) => {
  t.strictSame(definitionErrors(scenarioWith('  - at: 0s\n    app: { id: /web, cmd: sleep 100, constraints: [[rack, MAX_PER, "2"], [rack, LIKE, "r[0-9]"]] }')), []);
});

t.test('an id or name that breaks its pattern is said in words, not as the regular expression (80 characters of it for an id)', async (t) => {
  const rows: readonly { name: string; step: string; error: string }[] = [
    {
      name: 'an app id with a capital, an underscore and a non-ASCII letter',
      step: '    app: { id: /Wéb_1, cmd: sleep 100 }',
      error: `${F}: /timeline/0/app/id: expected an id of names separated by "/" (such as "/web" or "/prod/api"), each of lowercase letters, digits, "-" and ".", starting and ending with a letter or digit, as each part between dots does, got "/Wéb_1"`,
    },
    {
      name: 'a pod container name',
      step: '    pod: { id: /p, containers: [{ name: My_C, resources: { cpus: 0.1, mem: 32 } }] }',
      error: `${F}: /timeline/0/pod/containers/0/name: expected a name of lowercase letters, digits and "-" that starts and ends with a letter or digit, got "My_C"`,
    },
  ];
  for (const row of rows) t.strictSame(definitionErrors(scenarioWith(`  - at: 0s\n${row.step}`)), [row.error], row.name);
});
