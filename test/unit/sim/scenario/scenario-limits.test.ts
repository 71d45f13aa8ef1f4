import t from 'tap';
import { loadScenario } from '../../../../sim/scenario/load-scenario';

/**
 * "A limit on everything" for scenario files (docs/limits.md, "Scenario files"): each case is a
 * hostile file that loaded (and then ran for minutes, or without end) before its bound existed.
 * Each must now be refused by loadScenario with one line naming the field and the bound.
 */
const base = (parts: { head?: string; cluster?: string; timeline?: string } = {}): string => `${parts.head ?? 'name: x\nseed: 1\nduration: 2m'}
cluster:
  agents:
${parts.cluster ?? '    - count: 2\n      resources: { cpus: 4, mem: 4096 }'}
timeline:
  - at: 0s
    app: { id: /web, cmd: sleep 1000, instances: 2, cpus: 0.5, mem: 128 }
${parts.timeline ?? ''}`;

const F = 'x.yaml';

const cases: readonly { name: string; text: string; error: RegExp }[] = [
  {
    name: 'a scale step beyond MAX_INSTANCES (it ran without end)',
    text: base({ timeline: '  - at: 1m\n    scale: { id: /web, instances: 1000000000000000000 }' }),
    error: /^x\.yaml: \/timeline\/1\/scale\/instances: expected a whole number <= 100000, got 1000000000000000000 \(line 12\)$/,
  },
  {
    name: 'a kill count beyond MAX_INSTANCES',
    text: base({ timeline: '  - at: 1m\n    kill: { id: /web, count: 100001 }' }),
    error: /^x\.yaml: \/timeline\/1\/kill\/count: expected a whole number <= 100000, got 100001 \(line 12\)$/,
  },
  {
    name: 'agent resources beyond MAX_RESOURCE (1e308 cpus ran; 1e300 gpus failed an invariant)',
    text: base({ cluster: '    - resources: { cpus: 4, mem: 4096, gpus: 1e300 }' }),
    error: /^x\.yaml: \/cluster\/agents\/0\/resources\/gpus: expected a whole number <= 1000000000, got 1e\+300 \(line 6\)$/,
  },
  {
    name: 'reserved resources beyond MAX_RESOURCE',
    text: base({ cluster: '    - resources: { cpus: 4, mem: 4096 }\n      reserved: [{ role: r, cpus: 1e308 }]' }),
    error: /^x\.yaml: \/cluster\/agents\/0\/reserved\/0\/cpus: expected a number <= 1000000000, got 1e\+308 \(line 7\)$/,
  },
  {
    name: 'a virtual duration beyond 24 hours (100000h ran for minutes, 1e15 ms for years)',
    text: base({ head: 'name: x\nseed: 1\nduration: 25h' }),
    error: /^x\.yaml: \/duration: expected at most 24h of virtual time, got 25h \(line 3\)$/,
  },
  {
    name: 'more than 10000 agents in all, over several groups',
    text: base({ cluster: '    - { count: 10000, resources: { cpus: 4, mem: 4096 } }\n    - { count: 1, idPrefix: b, hostnamePrefix: b, resources: { cpus: 4, mem: 4096 } }' }),
    error: /^x\.yaml: \/cluster\/agents\/1: expected at most 10000 agents in all \(the cluster and every addAgents step\), this group makes 10001 \(line 7\)$/,
  },
  {
    name: 'more than 10000 timeline steps (100000 took 19 s and 550 MB)',
    text: base({ timeline: '  - at: 1m\n    note: hi\n'.repeat(10_000) }),
    error: /^x\.yaml: \/timeline: expected a list of at most 10000 items, got a list of 10001 items \(line 9\)$/,
  },
  {
    name: 'more than MAX_ITEMS entries in a list of the file (100000 attributes ran for minutes)',
    text: base({ cluster: `    - resources: { cpus: 4, mem: 4096 }\n      attributes: { ${Array.from({ length: 1001 }, (_, i) => `a${i}: x`).join(', ')} }` }),
    error: /^x\.yaml: \/cluster\/agents\/0\/attributes: expected at most 1000 entries, got 1001 \(line 7\)$/,
  },
  {
    name: 'instances asked by all steps together beyond MAX_INSTANCES',
    text: base({ timeline: '  - at: 1m\n    app: { id: /b, cmd: sleep 1, instances: 100000, cpus: 0.1, mem: 1 }' }),
    error: /^x\.yaml: \/timeline\/1\/app\/instances: expected at most 100000 instances asked by all the file's app, pod, scale and deploy steps together, these make 100002 \(line 12\)$/,
  },
  {
    name: 'a string beyond MAX_STRING_LENGTH (a 5 MB name ran)',
    text: base({ head: `name: ${'x'.repeat(32_769)}\nseed: 1\nduration: 2m` }),
    error: /^x\.yaml: \/name: expected at most 32768 characters, got 32769 \(line 1\)$/,
  },
  {
    name: 'a key beyond MAX_KEY_LENGTH',
    text: base({ cluster: `    - resources: { cpus: 4, mem: 4096 }\n      attributes: { ${'k'.repeat(1025)}: x }` }),
    error: /^x\.yaml: \/cluster\/agents\/0\/attributes: expected keys of at most 1024 characters, got one of 1025 \(line 7\)$/,
  },
  {
    name: 'a __proto__ key (silently lost, or taken for the prototype)',
    text: base({ timeline: '  - at: 1m\n    app: { id: /b, cmd: sleep 1, instances: 1, labels: { __proto__: v } }' }),
    error: /^x\.yaml: \/timeline\/1\/app\/labels\/__proto__: the key "__proto__" is not allowed \(line 12\)$/,
  },
  {
    name: 'flow nesting deeper than 64 levels (100000 levels overflowed the stack)',
    text: `name: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`,
    error: /^x\.yaml: line 1, column 70: nesting deeper than 64 levels$/,
  },
  {
    name: 'block nesting deeper than 64 levels',
    text: `${Array.from({ length: 3000 }, (_, i) => `${' '.repeat(i)}a:`).join('\n')} 1\n`,
    error: /^x\.yaml: line 65, column 65: nesting deeper than 64 levels$/,
  },
  {
    name: 'more than SCENARIO_ALIASES_MAX aliases (yaml resolves each among those before it: 100,000 in a 300 KB file took minutes)',
    text: base({ head: 'name: x\nseed: 1\nduration: 2m\ndescription: &d text', timeline: Array.from({ length: 1001 }, () => '  - at: 1m\n    note: *d').join('\n') }),
    error: /^x\.yaml: \/timeline\/1001\/note: expected at most 1000 YAML aliases \(\*name\) in a file, this is one more \(line 2013\)$/,
  },
  {
    name: 'an alias bomb: more than SCENARIO_NODES_MAX values with its aliases expanded',
    text: base({
      head: ['name: x', 'seed: 1', 'duration: 2m', 'a: &a [x, x, x, x, x, x, x, x, x, x]',
        ...['b', 'c', 'd', 'e', 'f', 'g'].map((k, i) => `${k}: &${k} [${Array(10).fill(`*${'abcdef'[i]}`).join(', ')}]`)].join('\n'),
    }),
    error: /^x\.yaml: \/: expected at most 1000000 values with the YAML aliases expanded, got \d+ \(line 1\)$/,
  },
  {
    name: 'an error message clips the value it quotes',
    text: base({ head: `name: x\nseed: 1\nduration: "${'1'.repeat(20_000)}ms"` }),
    error: /^x\.yaml: \/duration: duration "1{100}…" \(20002 characters\) is too large \(line 3\)$/,
  },
];

for (const c of cases) {
  t.test(c.name, async (t) => {
    const result = loadScenario(F, c.text);
    t.equal(result.ok, false, 'refused');
    if (!result.ok) {
      t.ok(result.errors.some((e) => c.error.test(e)), `an error matches ${c.error}:\n${result.errors.map((e) => e.slice(0, 400)).join('\n')}`);
      t.ok(result.errors.every((e) => e.length <= 1000), 'every error line is short');
    }
  });
}

t.test('an instance count beyond MAX_INSTANCES by itself is one error, at its own pointer (the total said it a second time)', async (t) => {
  const rows: readonly { where: string; step: string; error: string }[] = [
    { where: 'an app', step: 'app: { id: /b, cmd: sleep 1, instances: 99999999999 }', error: 'x.yaml: /timeline/1/app/instances: expected a whole number <= 100000, got 99999999999 (line 12)' },
    { where: 'a scale step', step: 'scale: { id: /web, instances: 200000 }', error: 'x.yaml: /timeline/1/scale/instances: expected a whole number <= 100000, got 200000 (line 12)' },
    { where: 'a pod', step: 'pod: { id: /p, scaling: { kind: fixed, instances: 200000 }, containers: [{ name: c, resources: { cpus: 0.1, mem: 32 } }] }', error: 'x.yaml: /timeline/1/pod/scaling/instances: expected a number <= 100000, got 200000 (line 12)' },
    { where: 'a deploy step', step: 'deploy: { apps: [{ id: /a, cmd: x, instances: 200000 }] }', error: 'x.yaml: /timeline/1/deploy/apps/0/instances: expected a whole number <= 100000, got 200000 (line 12)' },
  ];
  for (const row of rows) {
    const result = loadScenario(F, base({ timeline: `  - at: 1m\n    ${row.step}` }));
    t.strictSame(result.ok ? [] : result.errors, [row.error], row.where);
  }
});

t.test('a __proto__ key is reported at its own pointer and line, wherever it is (it was at line 1 at the top level)', async (t) => {
  const rows: readonly { where: string; text: string; error: string }[] = [
    { where: 'top level', text: base({ head: 'name: x\nseed: 1\n__proto__: 1\nduration: 2m' }), error: 'x.yaml: /__proto__: the key "__proto__" is not allowed (line 3)' },
    { where: 'a timeline step', text: base({ timeline: '  - at: 1m\n    note: hi\n    __proto__: { x: 1 }' }), error: 'x.yaml: /timeline/1/__proto__: the key "__proto__" is not allowed (line 13)' },
    { where: 'an agent group', text: base({ cluster: '    - count: 2\n      resources: { cpus: 4, mem: 4096 }\n      __proto__: 2' }), error: 'x.yaml: /cluster/agents/0/__proto__: the key "__proto__" is not allowed (line 8)' },
    { where: 'an app definition, block style', text: base({ timeline: '  - at: 1m\n    app:\n      id: /b\n      cmd: sleep 1\n      env:\n        __proto__: x' }), error: 'x.yaml: /timeline/1/app/env/__proto__: the key "__proto__" is not allowed (line 16)' },
  ];
  for (const row of rows) {
    const result = loadScenario(F, row.text);
    t.equal(result.ok, false, row.where);
    if (!result.ok) t.ok(result.errors.includes(row.error), `${row.where}: ${row.error}\n${result.errors.join('\n')}`);
  }
});

t.test('the largest accepted values still load', async (t) => {
  const text = base({
    head: 'name: x\nseed: 1\nduration: 24h',
    cluster: '    - { count: 9999, resources: { cpus: 1000000000, mem: 4096, gpus: 1000000000 } }\n    - { count: 1, idPrefix: b, hostnamePrefix: b, resources: { cpus: 4, mem: 4096 } }',
    timeline: '  - at: 1m\n    scale: { id: /web, instances: 99998 }',
  });
  const result = loadScenario(F, text);
  t.ok(result.ok, result.ok ? '' : result.errors.join('\n'));
  // SCENARIO_ALIASES_MAX aliases.
  const aliased = loadScenario(F, base({
    head: 'name: x\nseed: 1\nduration: 2m\ndescription: &d text',
    timeline: Array.from({ length: 1000 }, () => '  - at: 1m\n    note: *d').join('\n'),
  }));
  t.ok(aliased.ok, `1000 aliases load: ${aliased.ok ? '' : aliased.errors.join('\n')}`);
});
