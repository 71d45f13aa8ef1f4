import t from 'tap';
import type { SimAgentSpec } from '../../../../sim/cluster/sim-agent-spec';
import { loadScenario } from '../../../../sim/scenario/load-scenario';

function agentsOf(cluster: string, timeline = '[]'): { agents: readonly SimAgentSpec[]; added: readonly SimAgentSpec[] } {
  const result = loadScenario('a.yaml', `name: a\nseed: 1\nduration: 1h\ncluster:\n  agents:\n${cluster}\ntimeline: ${timeline}\n`);
  if (!result.ok) throw new Error(result.errors.join('\n'));
  const added = result.scenario.timeline.flatMap((step) => (step.action.type === 'addAgents' ? step.action.agents : []));
  return { agents: result.scenario.agents, added };
}

t.test('attribute templates: {n} and {n%K} in text and set items', async (t) => {
  const { agents } = agentsOf(`    - count: 4
      resources: { cpus: 1, mem: 1 }
      attributes:
        rack: "r{n%3}"
        name: "node-{n}-of-{n%2}"
        tags: { set: ["t{n}", plain, 7] }
        literal: "no template"`);
  t.strictSame(agents.map((agent) => agent.attributes.find((a) => a.name === 'rack')), [
    { name: 'rack', type: 'text', text: 'r1' },
    { name: 'rack', type: 'text', text: 'r2' },
    { name: 'rack', type: 'text', text: 'r0' },
    { name: 'rack', type: 'text', text: 'r1' },
  ]);
  t.strictSame(agents.map((agent) => agent.attributes.find((a) => a.name === 'name')), [1, 2, 3, 4].map((n) =>
    ({ name: 'name', type: 'text', text: `node-${n}-of-${n % 2}` })));
  t.strictSame(agents[2].attributes.find((a) => a.name === 'tags'), { name: 'tags', type: 'set', set: ['t3', 'plain', '7'] });
  t.strictSame(agents[0].attributes.find((a) => a.name === 'literal'), { name: 'literal', type: 'text', text: 'no template' });
  t.strictSame(agents[0].attributes.map((a) => a.name), ['rack', 'name', 'tags', 'literal'], 'attributes keep file order');
});

t.test('zones are assigned round-robin by position within the group', async (t) => {
  const { agents } = agentsOf(`    - count: 2
      resources: { cpus: 1, mem: 1 }
    - count: 5
      region: eu
      zones: [a, b, c]
      resources: { cpus: 1, mem: 1 }`);
  t.strictSame(agents.map((agent) => [agent.agentId, agent.region, agent.zone]), [
    ['agent-1', undefined, undefined],
    ['agent-2', undefined, undefined],
    ['agent-3', 'eu', 'a'],
    ['agent-4', 'eu', 'b'],
    ['agent-5', 'eu', 'c'],
    ['agent-6', 'eu', 'a'],
    ['agent-7', 'eu', 'b'],
  ]);
  t.notOk('zone' in agents[0], 'no zone key when the group gives none');
});

t.test('numbers run on per id prefix across groups and addAgents; start overrides', async (t) => {
  const { agents, added } = agentsOf(`    - count: 2
      resources: { cpus: 1, mem: 1 }
    - idPrefix: gpu
      hostnamePrefix: gpuhost
      resources: { cpus: 1, mem: 1 }
    - count: 1
      resources: { cpus: 1, mem: 1 }
    - start: 10
      resources: { cpus: 1, mem: 1 }`, `
  - at: 1m
    addAgents: { count: 2, resources: { cpus: 1, mem: 1 } }
  - at: 2m
    addAgents: { idPrefix: gpu, hostnamePrefix: gpuhost, resources: { cpus: 1, mem: 1 } }`);
  t.strictSame(agents.map((agent) => `${agent.agentId}@${agent.hostname}`),
    ['agent-1@agent-1', 'agent-2@agent-2', 'gpu-1@gpuhost-1', 'agent-3@agent-3', 'agent-10@agent-10']);
  t.strictSame(added.map((agent) => agent.agentId), ['agent-11', 'agent-12', 'gpu-2']);
});

t.test('resources: defaults, ports forms, static reservations', async (t) => {
  const { agents } = agentsOf(`    - resources: { cpus: 2.5, mem: 1024, disk: 100, gpus: 1, ports: "80, 31000-31005,443" }
      reserved:
        - { role: prod, cpus: 1, ports: [[9000, 9001]] }
        - { role: batch, mem: 64 }`);
  t.strictSame(agents[0].resources, { cpus: 2.5, mem: 1024, disk: 100, gpus: 1, ports: [[80, 80], [443, 443], [31000, 31005]] });
  t.strictSame(agents[0].reserved, [
    { role: 'prod', cpus: 1, mem: 0, disk: 0, gpus: 0, ports: [[9000, 9001]] },
    { role: 'batch', cpus: 0, mem: 64, disk: 0, gpus: 0, ports: [] },
  ]);
});

t.test('scalar and ranges attributes', async (t) => {
  const { agents } = agentsOf(`    - resources: { cpus: 1, mem: 1 }
      attributes: { weight: 0.5, slots: { ranges: "7-9,1-5" } }`);
  t.strictSame(agents[0].attributes, [
    { name: 'weight', type: 'scalar', scalar: 0.5 },
    { name: 'slots', type: 'ranges', ranges: [[1, 5], [7, 9]] },
  ]);
});

t.test('a reservation for "*" and an attribute named like a built-in field are refused', async (t) => {
  const result = loadScenario('a.yaml', `name: a\nseed: 1\nduration: 1h\ncluster:\n  agents:
    - resources: { cpus: 1, mem: 1 }
      reserved: [ { role: "*", cpus: 1 } ]
      attributes: { "@zone": a }
timeline: []`);
  t.strictSame(result.ok ? [] : result.errors, [
    'a.yaml: /cluster/agents/0/reserved/0/role: a static reservation needs a role other than "*" (line 7)',
    'a.yaml: /cluster/agents/0/attributes/@zone: attribute names cannot start with "@" (@hostname, @region and @zone are built in) (line 8)',
  ]);
});
