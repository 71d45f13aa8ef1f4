import t from 'tap';
import type { AgentAttribute, AgentInfo } from '../../../src/scheduler/model/agent';
import type { Constraint } from '../../../src/scheduler/model/constraint';
import { compileConstraints } from '../../../src/scheduler/constraints/compile-constraints';
import { PlacementCounts } from '../../../src/scheduler/constraints/placement-counts';
import { FieldCounts } from '../../../src/scheduler/constraints/field-counts';

function makeAgent(hostname: string, attrs: Record<string, string | number> = {}, zone?: string): AgentInfo {
  const attributes: AgentAttribute[] = Object.entries(attrs).map(([name, v]): AgentAttribute =>
    typeof v === 'string' ? { name, type: 'text', text: v } : { name, type: 'scalar', scalar: v });
  return { agentId: `id-${hostname}`, hostname, zone, attributes };
}

function countsFor(constraints: Constraint[]): PlacementCounts {
  return new PlacementCounts(compileConstraints(constraints));
}

t.test('counts per value, without value and in total, after adds and removes', async (t) => {
  const counts = countsFor([
    { field: 'hostname', operator: 'UNIQUE' },
    { field: 'rack', operator: 'GROUP_BY' },
    { field: '@zone', operator: 'MAX_PER', value: '3' },
  ]);
  const a = makeAgent('a', { rack: 'r1' }, 'z1');
  const b = makeAgent('b', { rack: 'r1' }, 'z2');
  const c = makeAgent('c', {}, 'z1');
  counts.add(a); counts.add(a); counts.add(b); counts.add(c);
  t.equal(counts.size, 4);
  const host = counts.field(0);
  const rack = counts.field(1);
  const zone = counts.field(2);
  t.same([host.countOf('a'), host.countOf('b'), host.countOf('c'), host.countOf('x')], [2, 1, 1, 0]);
  t.same([rack.countOf('r1'), rack.withoutValue, rack.total, rack.distinctValues], [3, 1, 4, 1]);
  t.same([zone.countOf('z1'), zone.countOf('z2')], [3, 1]);
  t.same([rack.groupCount, rack.minGroupCount], [2, 1], 'no value forms its own GROUP_BY group');

  counts.remove(a);
  t.equal(counts.size, 3);
  t.same([host.countOf('a'), rack.countOf('r1'), zone.countOf('z1')], [1, 2, 2]);
  counts.remove(c);
  t.same([rack.withoutValue, rack.groupCount, rack.minGroupCount], [0, 1, 2]);
  counts.remove(a); counts.remove(b);
  t.same([counts.size, host.countOf('a'), host.distinctValues, rack.total, rack.groupCount, rack.minGroupCount], [0, 0, 0, 0, 0, 0]);
});

t.test('hostname and @hostname constraints share counters', async (t) => {
  const compiled = compileConstraints([
    { field: 'hostname', operator: 'UNIQUE' },
    { field: '@hostname', operator: 'MAX_PER', value: '2' },
  ]);
  const counts = new PlacementCounts(compiled);
  counts.add(makeAgent('h1'));
  t.equal(compiled.fields.length, 1);
  t.equal(counts.field(compiled.constraints[1].fieldIndex).countOf('h1'), 1);
});

t.test('removing what was not added is a programmer error', async (t) => {
  const counts = countsFor([{ field: 'rack', operator: 'UNIQUE' }]);
  t.throws(() => counts.remove(makeAgent('h', { rack: 'r1' })), /assertion failed/);
  t.throws(() => counts.remove(makeAgent('h')), /assertion failed/, 'nor an instance without a value');
});

t.test('group statistics need tracksGroups', async (t) => {
  const f = new FieldCounts('rack', false, false);
  t.throws(() => f.groupCount, /assertion failed/);
  t.throws(() => f.minGroupCount, /assertion failed/);
  t.throws(() => f.clusterValue, /assertion failed/, 'nor the anchor without tracksAnchor');
});

t.test('CLUSTER anchor: first placed value, recomputed when emptied', async (t) => {
  const f = new FieldCounts('rack', false, true);
  // An agent with rack `v` (none when undefined); a new object each time, as offers bring them.
  const add = (v: string | undefined): void => f.addAgent(makeAgent('h', v === undefined ? {} : { rack: v }));
  const remove = (v: string | undefined): void => f.removeAgent(makeAgent('h', v === undefined ? {} : { rack: v }));
  t.equal(f.clusterValue, undefined);
  add('r1');
  t.equal(f.clusterValue, 'r1');
  add('r1');
  remove('r1');
  t.equal(f.clusterValue, 'r1', 'still placed');
  remove('r1');
  t.same([f.total, f.clusterValue], [0, undefined], 'all gone');
  add('r2');
  t.equal(f.clusterValue, 'r2', 'a new first instance anchors anew');

  // Mixed values (instances predating the constraint): the anchor moves on when emptied.
  add('r3'); add('r4'); add(undefined);
  remove('r2');
  t.equal(f.clusterValue, 'r3', 'the value in use longest');
  remove('r3'); remove('r4');
  t.equal(f.clusterValue, undefined, 'only instances without a value remain');
  t.equal(f.total, 1);
  add('r5');
  remove(undefined);
  t.equal(f.clusterValue, 'r5', 'the no-value anchor moves to a value when emptied');
  remove('r5');
  add(undefined);
  t.same([f.total, f.clusterValue], [1, undefined], 'a first instance without a value anchors to no value');
});

t.test('matches a brute-force recount over a pseudo-random walk', async (t) => {
  const compiled = compileConstraints([
    { field: 'rack', operator: 'GROUP_BY' },
    { field: 'hostname', operator: 'CLUSTER' },
  ]);
  const counts = new PlacementCounts(compiled);
  const agents = Array.from({ length: 9 }, (_, i) => makeAgent(`h${i}`, i % 4 === 3 ? {} : { rack: `r${i % 4}` }));
  const placed: AgentInfo[] = [];
  let seed = 99;
  const next = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  let mismatches = 0;
  for (let step = 0; step < 3000; step++) {
    if (placed.length > 0 && next(5) < 2) {
      const [gone] = placed.splice(next(placed.length), 1);
      counts.remove(gone);
    } else {
      const agent = agents[next(agents.length)];
      placed.push(agent);
      counts.add(agent);
    }
    const groups = new Map<string | undefined, number>();
    for (const p of placed) {
      const v = p.attributes.find((a) => a.name === 'rack');
      const key = v?.type === 'text' ? v.text : undefined;
      groups.set(key, (groups.get(key) ?? 0) + 1);
    }
    const rack = counts.field(0);
    const want = {
      groups: groups.size,
      min: groups.size === 0 ? 0 : Math.min(...groups.values()),
      r0: groups.get('r0') ?? 0,
      none: groups.get(undefined) ?? 0,
      total: placed.length,
    };
    const got = { groups: rack.groupCount, min: rack.minGroupCount, r0: rack.countOf('r0'), none: rack.withoutValue, total: counts.size };
    if (JSON.stringify(got) !== JSON.stringify(want)) mismatches++;
    const host = counts.field(1);
    if (placed.length > 0 && host.countOf(host.clusterValue ?? '') === 0) mismatches++;
  }
  t.equal(mismatches, 0);
});
