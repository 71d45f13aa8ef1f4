import t from 'tap';
import type { AgentAttribute, AgentInfo } from '../../../src/scheduler/model/agent';
import {
  canonicalFieldName, fieldKindOf, fieldValue, readField,
} from '../../../src/scheduler/constraints/field-value';
import { agentAttributeValues } from '../../../src/scheduler/constraints/agent-attribute-values';

type AttrSpec = string | number | readonly (readonly [number, number])[] | readonly string[];

function makeAgent(o: { hostname?: string; region?: string; zone?: string; attrs?: Record<string, AttrSpec> }): AgentInfo {
  const attributes: AgentAttribute[] = Object.entries(o.attrs ?? {}).map(([name, v]): AgentAttribute => {
    if (typeof v === 'string') return { name, type: 'text', text: v };
    if (typeof v === 'number') return { name, type: 'scalar', scalar: v };
    if (v.length > 0 && Array.isArray(v[0])) return { name, type: 'ranges', ranges: v as readonly (readonly [number, number])[] };
    return { name, type: 'set', set: v as readonly string[] };
  });
  const hostname = o.hostname ?? 'host-1';
  return { agentId: `agent-${hostname}`, hostname, region: o.region, zone: o.zone, attributes };
}

t.test('hostname, @hostname, @region, @zone', async (t) => {
  const agent = makeAgent({ hostname: 'h1.example', region: 'eu-west', zone: 'eu-west-1a', attrs: { hostname: 'not-me', '@zone': 'nor-me' } });
  t.equal(fieldValue(agent, 'hostname'), 'h1.example');
  t.equal(fieldValue(agent, '@hostname'), 'h1.example');
  t.equal(fieldValue(agent, '@region'), 'eu-west');
  t.equal(fieldValue(agent, '@zone'), 'eu-west-1a', 'the fault domain wins over an attribute named @zone');
  const bare = makeAgent({ hostname: 'h2' });
  t.equal(fieldValue(bare, '@region'), undefined, 'no fault domain: missing');
  t.equal(fieldValue(bare, '@zone'), undefined);
  t.equal(fieldValue(bare, 'region'), undefined, '"region" without @ is an attribute name');
});

t.test('attributes of every type, formatted; missing → undefined', async (t) => {
  const agent = makeAgent({
    attrs: { rack: 'rack-1', level: 0.80, cpuScore: 0.0025, ports: [[31000, 31005], [80, 80]], tags: ['ssd', 'gpu'] },
  });
  t.equal(fieldValue(agent, 'rack'), 'rack-1');
  t.equal(fieldValue(agent, 'level'), '0.8');
  t.equal(fieldValue(agent, 'cpuScore'), '0.002');
  t.equal(fieldValue(agent, 'ports'), '[80-80,31000-31005]');
  t.equal(fieldValue(agent, 'tags'), '{gpu,ssd}');
  t.equal(fieldValue(agent, 'missing'), undefined);
  t.equal(fieldValue(agent, '@rack'), undefined, 'an @ name that is not a fault domain field is an attribute name');
});

t.test('the first attribute of a name wins', async (t) => {
  const agent: AgentInfo = {
    agentId: 'a', hostname: 'h', attributes: [
      { name: 'rack', type: 'text', text: 'first' },
      { name: 'rack', type: 'text', text: 'second' },
    ],
  };
  t.equal(fieldValue(agent, 'rack'), 'first');
});

t.test('attribute values are formatted once per agent object', async (t) => {
  const agent = makeAgent({ attrs: { rack: 'r1', level: 2 } });
  const first = agentAttributeValues(agent);
  t.equal(agentAttributeValues(agent), first, 'same map on the second call');
  t.same([...first.entries()], [['rack', 'r1'], ['level', '2']]);
  const twin = makeAgent({ attrs: { rack: 'r1', level: 2 } });
  t.not(agentAttributeValues(twin), first, 'another object gets its own entry');
});

t.test('field kinds, canonical names and readField', async (t) => {
  const cases: [string, string, string][] = [
    ['hostname', 'hostname', '@hostname'],
    ['@hostname', 'hostname', '@hostname'],
    ['@region', 'region', '@region'],
    ['@zone', 'zone', '@zone'],
    ['rack', 'attribute', 'rack'],
    ['zone', 'attribute', 'zone'],
  ];
  for (const [field, kind, canonical] of cases) {
    t.equal(fieldKindOf(field), kind, `${field} kind`);
    t.equal(canonicalFieldName(field), canonical, `${field} canonical`);
  }
  const agent = makeAgent({ hostname: 'h9', region: 'r', zone: 'z', attrs: { rack: 'x' } });
  t.equal(readField(agent, 'hostname', 'ignored'), 'h9');
  t.equal(readField(agent, 'region', 'ignored'), 'r');
  t.equal(readField(agent, 'zone', 'ignored'), 'z');
  t.equal(readField(agent, 'attribute', 'rack'), 'x');
});
