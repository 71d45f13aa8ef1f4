import t from 'tap';
import type { AgentAttribute, AgentInfo } from '../../../src/scheduler/model/agent';
import type { Constraint } from '../../../src/scheduler/model/constraint';
import { constraintsHold } from '../../../sim/invariants/constraints-hold';

function makeAgent(o: { hostname: string; zone?: string; region?: string; attrs?: Record<string, string | number> }): AgentInfo {
  const attributes: AgentAttribute[] = Object.entries(o.attrs ?? {}).map(([name, v]): AgentAttribute =>
    typeof v === 'string' ? { name, type: 'text', text: v } : { name, type: 'scalar', scalar: v });
  return { agentId: `id-${o.hostname}`, hostname: o.hostname, zone: o.zone, region: o.region, attributes };
}

const h1 = makeAgent({ hostname: 'h1', zone: 'z1', region: 'eu', attrs: { rack: 'r1', level: 0.8 } });
const h2 = makeAgent({ hostname: 'h2', zone: 'z1', region: 'eu', attrs: { rack: 'r2', level: 1 } });
const h3 = makeAgent({ hostname: 'h3', zone: 'z2', attrs: { rack: 'r1', version: '1.0' } });
const bare = makeAgent({ hostname: 'bare' });

t.test('holding placements report nothing', async (t) => {
  const cases: [Constraint[], AgentInfo[]][] = [
    [[], [h1, h1, bare]],
    [[{ field: 'hostname', operator: 'UNIQUE' }], [h1, h2, h3]],
    [[{ field: 'rack', operator: 'UNIQUE' }], [h1, h2]],
    [[{ field: '@zone', operator: 'MAX_PER', value: '2' }], [h1, h2, h3]],
    [[{ field: 'hostname', operator: 'MAX_PER', value: '0' }], [h1, h2]],
    [[{ field: 'rack', operator: 'CLUSTER' }], [h1, h3, h1]],
    [[{ field: '@region', operator: 'CLUSTER', value: 'eu' }], [h1, h2]],
    [[{ field: '@hostname', operator: 'LIKE', value: 'h[12]' }], [h1, h2]],
    [[{ field: 'rack', operator: 'UNLIKE', value: 'r2' }], [h1, h3, bare]],
    [[{ field: 'level', operator: 'IS', value: '0.80' }], [h1]],
    [[{ field: 'level', operator: 'IS', value: '1.0' }], [h2]],
    [[{ field: 'version', operator: 'IS', value: '1.0' }], [h3]],
    [[{ field: 'rack', operator: 'GROUP_BY', value: '5' }], [h1, h1, h1, bare]],
    [[{ field: 'rack', operator: 'UNIQUE' }, { field: 'hostname', operator: 'LIKE', value: '.*' }], [h1, h2]],
    [[{ field: 'hostname', operator: 'UNIQUE' }], []],
  ];
  for (const [constraints, placed] of cases) {
    t.equal(constraintsHold(constraints, placed), undefined, JSON.stringify(constraints));
  }
});

t.test('violations are described, first one first', async (t) => {
  const cases: [Constraint[], AgentInfo[], RegExp][] = [
    [[{ field: 'hostname', operator: 'UNIQUE' }], [h1, h2, h1], /constraint #0 \["hostname","UNIQUE"\]: instance 2 on agent id-h1 \(h1\): value "h1" is used by 2 instances/],
    [[{ field: 'rack', operator: 'UNIQUE' }], [h1, h3], /value "r1" is used by 2 instances/],
    [[{ field: 'rack', operator: 'UNIQUE' }], [h1, bare], /instance 1 on agent id-bare \(bare\) lacks field rack/],
    [[{ field: '@zone', operator: 'MAX_PER', value: '1' }], [h1, h2], /value "z1" is used by 2 instances, more than 1/],
    [[{ field: 'hostname', operator: 'MAX_PER', value: '0' }], [h1, h1], /value "h1" is used by 2 instances, more than 0/],
    [[{ field: 'hostname', operator: 'MAX_PER', value: 'x' }], [h1], /MAX_PER without an integer/],
    [[{ field: 'rack', operator: 'CLUSTER' }], [h1, h3, h2], /instance 2 .*value "r2" differs from the first instance's "r1"/],
    [[{ field: 'hostname', operator: 'CLUSTER', value: 'h1' }], [h1, h2], /value "h2" is not "h1"/],
    [[{ field: '@region', operator: 'CLUSTER', value: 'eu' }], [h1, h3], /lacks field @region/],
    [[{ field: 'hostname', operator: 'LIKE', value: 'h' }], [h1], /value "h1" does not match h/],
    [[{ field: 'hostname', operator: 'LIKE', value: '[' }], [h1], /LIKE without a valid regular expression/],
    [[{ field: 'rack', operator: 'LIKE', value: 'r.*' }], [bare], /lacks field rack/],
    [[{ field: 'rack', operator: 'UNLIKE', value: 'r1' }], [h2, h1], /instance 1 .*value "r1" matches r1/],
    [[{ field: 'rack', operator: 'UNLIKE' }], [h1], /UNLIKE without a valid regular expression/],
    [[{ field: 'level', operator: 'IS', value: '0.801' }], [h1], /value "0.8" is not "0.801"/],
    [[{ field: 'version', operator: 'IS', value: '1' }], [h3], /value "1.0" is not "1"/],
    [[{ field: 'rack', operator: 'IS' }], [h1], /IS without a value/],
    [[{ field: 'rack', operator: 'BOGUS' as Constraint['operator'] }], [h1], /unknown operator BOGUS/],
    [
      [{ field: 'hostname', operator: 'LIKE', value: '.*' }, { field: '@zone', operator: 'UNIQUE' }, { field: 'hostname', operator: 'UNIQUE' }],
      [h1, h2, h2],
      /^constraint #1 \["@zone","UNIQUE"\]/,
    ],
  ];
  for (const [constraints, placed, want] of cases) {
    const got = constraintsHold(constraints, placed);
    t.match(got, want, JSON.stringify(constraints));
  }
});

t.test('GROUP_BY is not checked: the outcome depends on placement order', async (t) => {
  t.equal(constraintsHold([{ field: 'rack', operator: 'GROUP_BY' }], [h1, h1, h1, h1, h2]), undefined);
  t.equal(constraintsHold([{ field: 'rack', operator: 'GROUP_BY', value: '3' }], [bare]), undefined);
});
