import t from 'tap';
import type { AgentAttribute, AgentInfo } from '../../../src/scheduler/model/agent';
import type { Constraint, ConstraintOperator } from '../../../src/scheduler/model/constraint';
import { compileConstraints } from '../../../src/scheduler/constraints/compile-constraints';
import { constraintsAccept } from '../../../src/scheduler/constraints/constraints-accept';
import { PlacementCounts } from '../../../src/scheduler/constraints/placement-counts';

type AttrSpec = string | number | readonly (readonly [number, number])[] | readonly string[];

function makeAgent(o: { hostname: string; region?: string; zone?: string; attrs?: Record<string, AttrSpec> }): AgentInfo {
  const attributes: AgentAttribute[] = Object.entries(o.attrs ?? {}).map(([name, v]): AgentAttribute => {
    if (typeof v === 'string') return { name, type: 'text', text: v };
    if (typeof v === 'number') return { name, type: 'scalar', scalar: v };
    if (v.length > 0 && Array.isArray(v[0])) return { name, type: 'ranges', ranges: v as readonly (readonly [number, number])[] };
    return { name, type: 'set', set: v as readonly string[] };
  });
  return { agentId: `id-${o.hostname}`, hostname: o.hostname, region: o.region, zone: o.zone, attributes };
}

const rackAgents = new Map<string, AgentInfo>();
/** One agent object per rack name (`undefined`: an agent without the rack attribute). */
function inRack(rack: string | undefined, host = `host-${rack ?? 'none'}`): AgentInfo {
  const key = `${rack}/${host}`;
  let agent = rackAgents.get(key);
  if (agent === undefined) {
    agent = makeAgent({ hostname: host, attrs: rack === undefined ? {} : { rack } });
    rackAgents.set(key, agent);
  }
  return agent;
}

/** The index of the first refusing constraint for `offer`, given instances placed on `placed`. */
function check(constraints: readonly Constraint[], placed: readonly AgentInfo[], offer: AgentInfo): number {
  const compiled = compileConstraints(constraints);
  const counts = new PlacementCounts(compiled);
  for (const agent of placed) counts.add(agent);
  return constraintsAccept(compiled, counts, offer);
}

function accepts(constraints: readonly Constraint[], placed: readonly AgentInfo[], offer: AgentInfo): boolean {
  return check(constraints, placed, offer) === -1;
}

/** Offers arrive one by one; each accepted one places an instance. Returns what was placed. */
function placeInOrder(constraints: readonly Constraint[], offers: readonly AgentInfo[], counts?: PlacementCounts): string[] {
  const compiled = compileConstraints(constraints);
  const c = counts ?? new PlacementCounts(compiled);
  const placed: string[] = [];
  for (const offer of offers) {
    if (constraintsAccept(compiled, c, offer) === -1) {
      c.add(offer);
      placed.push(offer.attributes.length > 0 ? rackOf(offer) : offer.hostname);
    }
  }
  return placed;
}

function rackOf(agent: AgentInfo): string {
  const attr = agent.attributes.find((a) => a.name === 'rack');
  return attr?.type === 'text' ? attr.text : '?';
}

const racks = (...names: string[]): AgentInfo[] => names.map((n) => inRack(n));

t.test('no constraints accept every agent', async (t) => {
  t.equal(check([], [inRack('r1')], inRack('r1')), -1);
});

t.test('a missing field: only UNLIKE accepts', async (t) => {
  const bare = makeAgent({ hostname: 'bare' });
  const cases: [ConstraintOperator, string | undefined, boolean][] = [
    ['UNIQUE', undefined, false],
    ['CLUSTER', undefined, false],
    ['CLUSTER', 'r1', false],
    ['GROUP_BY', undefined, false],
    ['GROUP_BY', '2', false],
    ['LIKE', '.*', false],
    ['MAX_PER', '5', false],
    ['IS', 'r1', false],
    ['UNLIKE', 'r1', true],
    ['UNLIKE', '.*', true],
    ['UNLIKE', '[', true], // even unusable: the missing-field rule comes first, as in Marathon
  ];
  for (const field of ['rack', '@region', '@zone']) {
    for (const [operator, value, want] of cases) {
      const constraint: Constraint = { field, operator, value };
      t.equal(accepts([constraint], [], bare), want, `${field} ${operator} ${value ?? ''}`);
    }
  }
  t.equal(accepts([{ field: 'rack', operator: 'UNIQUE' }], [], makeAgent({ hostname: 'x', attrs: { other: 'r1' } })), false,
    'another attribute does not stand in');
});

t.test('UNIQUE: no placed instance has the value', async (t) => {
  const unique: Constraint[] = [{ field: 'hostname', operator: 'UNIQUE' }];
  const h1 = makeAgent({ hostname: 'h1' });
  const h2 = makeAgent({ hostname: 'h2' });
  t.ok(accepts(unique, [], h1));
  t.notOk(accepts(unique, [h1], h1));
  t.ok(accepts(unique, [h1], h2));
  t.notOk(accepts([{ field: '@hostname', operator: 'UNIQUE' }], [h1], h1), '@hostname is the same field');
  t.ok(accepts([{ field: 'rack', operator: 'UNIQUE' }], [inRack(undefined), inRack(undefined)], inRack('r1')),
    'instances without the value do not block');
  t.notOk(accepts([{ field: 'rack', operator: 'UNIQUE' }], [inRack('r1', 'a')], inRack('r1', 'b')), 'by attribute value, not host');

  const compiled = compileConstraints(unique);
  const counts = new PlacementCounts(compiled);
  counts.add(h1);
  t.equal(constraintsAccept(compiled, counts, h1), 0);
  counts.remove(h1);
  t.equal(constraintsAccept(compiled, counts, h1), -1, 'free again after the instance ends');
});

t.test('CLUSTER with a value: the field equals it exactly', async (t) => {
  t.ok(accepts([{ field: 'hostname', operator: 'CLUSTER', value: 'h1' }], [], makeAgent({ hostname: 'h1' })));
  t.notOk(accepts([{ field: 'hostname', operator: 'CLUSTER', value: 'h1' }], [], makeAgent({ hostname: 'h10' })));
  t.ok(accepts([{ field: 'rack', operator: 'CLUSTER', value: 'r1' }], [inRack('r1')], inRack('r1', 'other')));
  t.notOk(accepts([{ field: 'rack', operator: 'CLUSTER', value: 'r1' }], [], inRack('R1')), 'case matters');
  const scalar = makeAgent({ hostname: 's', attrs: { level: 0.8 } });
  t.ok(accepts([{ field: 'level', operator: 'CLUSTER', value: '0.8' }], [], scalar), 'scalar compared as formatted');
  t.notOk(accepts([{ field: 'level', operator: 'CLUSTER', value: '0.80' }], [], scalar), 'CLUSTER is exact text, unlike IS');
  const set = makeAgent({ hostname: 's', attrs: { disks: ['ssd', 'nvme'] } });
  t.ok(accepts([{ field: 'disks', operator: 'CLUSTER', value: '{nvme,ssd}' }], [], set));
  t.ok(accepts([{ field: '@zone', operator: 'CLUSTER', value: 'z1' }], [], makeAgent({ hostname: 'a', zone: 'z1' })));
  t.notOk(accepts([{ field: '@region', operator: 'CLUSTER', value: 'eu' }], [], makeAgent({ hostname: 'a', region: 'us' })));
});

t.test('CLUSTER without a value: the first instance anchors the rest, until all are gone', async (t) => {
  const cluster: Constraint[] = [{ field: 'rack', operator: 'CLUSTER' }];
  t.same(placeInOrder(cluster, racks('r2', 'r1', 'r2', 'r3', 'r2')), ['r2', 'r2', 'r2']);

  const compiled = compileConstraints(cluster);
  const counts = new PlacementCounts(compiled);
  const a = inRack('r1', 'a');
  const b = inRack('r1', 'b');
  counts.add(a); counts.add(b);
  t.equal(constraintsAccept(compiled, counts, inRack('r2')), 0);
  counts.remove(a);
  t.equal(constraintsAccept(compiled, counts, inRack('r2')), 0, 'one instance still anchors r1');
  t.equal(constraintsAccept(compiled, counts, inRack('r1', 'c')), -1);
  counts.remove(b);
  t.equal(constraintsAccept(compiled, counts, inRack('r2')), -1, 'all gone: any value may anchor again');
  counts.add(inRack('r2'));
  t.equal(constraintsAccept(compiled, counts, inRack('r1', 'c')), 0, 'now anchored to r2');

  const byHost: Constraint[] = [{ field: 'hostname', operator: 'CLUSTER' }];
  const h1 = makeAgent({ hostname: 'h1' });
  t.same(placeInOrder(byHost, [h1, makeAgent({ hostname: 'h2' }), h1]), ['h1', 'h1']);
});

t.test('GROUP_BY without a value spreads over the values seen, evenly', async (t) => {
  const groupBy: Constraint[] = [{ field: 'rack', operator: 'GROUP_BY' }];
  // r1, r1 (alone, r1 is the smallest group), r2 (new), r1 refused (2 > min 1), r2, r3 (new), r3
  t.same(placeInOrder(groupBy, racks('r1', 'r1', 'r2', 'r1', 'r2', 'r3', 'r3', 'r1', 'r2')),
    ['r1', 'r1', 'r2', 'r2', 'r3', 'r3', 'r1', 'r2']);
  // A late value is welcome however uneven, and then catches up alone (r1 waits for it).
  t.same(placeInOrder(groupBy, racks('r1', 'r2', 'r1', 'r2', 'r3', 'r1', 'r3', 'r2', 'r3')),
    ['r1', 'r2', 'r1', 'r2', 'r3', 'r3', 'r2', 'r3']);
  t.ok(accepts(groupBy, [], inRack('r1')), 'first placement');
});

t.test('GROUP_BY N waits for N values before a second instance per value, and allows more than N', async (t) => {
  const groupBy3: Constraint[] = [{ field: 'rack', operator: 'GROUP_BY', value: '3' }];
  t.same(placeInOrder(groupBy3, racks('r1', 'r1', 'r2', 'r2', 'r1', 'r3', 'r1', 'r2', 'r3', 'r4', 'r4')),
    ['r1', 'r2', 'r3', 'r1', 'r2', 'r3', 'r4', 'r4']);
  t.notOk(accepts(groupBy3, racks('r1', 'r2'), inRack('r1')), 'two values of three: waits');
  t.ok(accepts(groupBy3, racks('r1', 'r2'), inRack('r3')), 'a third value is welcome');
  t.ok(accepts(groupBy3, racks('r1', 'r2', 'r3'), inRack('r2')), 'three values: the smallest group may grow');
  t.notOk(accepts(groupBy3, racks('r1', 'r2', 'r3', 'r2'), inRack('r2')), 'but not beyond the smallest');
  t.ok(accepts([{ field: 'rack', operator: 'GROUP_BY', value: '1' }], racks('r1'), inRack('r1')), 'GROUP_BY 1 is like none');
  t.notOk(accepts([{ field: 'rack', operator: 'GROUP_BY', value: 'inf' }], racks('r1'), inRack('r1')), 'inf waits forever');
});

t.test('GROUP_BY after removals and with instances lacking the field', async (t) => {
  const groupBy: Constraint[] = [{ field: 'rack', operator: 'GROUP_BY' }];
  const compiled = compileConstraints(groupBy);
  const counts = new PlacementCounts(compiled);
  const [a1, a2] = [inRack('r1', 'a1'), inRack('r1', 'a2')];
  const [b1, b2] = [inRack('r2', 'b1'), inRack('r2', 'b2')];
  for (const agent of [a1, a2, b1, b2]) counts.add(agent);
  t.equal(constraintsAccept(compiled, counts, inRack('r1')), -1, 'even: any');
  counts.remove(b1);
  t.equal(constraintsAccept(compiled, counts, inRack('r1')), 0, 'r2 is now the smallest');
  t.equal(constraintsAccept(compiled, counts, inRack('r2')), -1);
  counts.remove(b2);
  t.equal(constraintsAccept(compiled, counts, inRack('r1')), -1, 'r2 gone entirely: r1 is the only group');
  t.equal(constraintsAccept(compiled, counts, inRack('r2')), -1, 'and r2 is new again');

  // Marathon groups placed instances by an optional value: those without it are one group.
  const none = inRack(undefined);
  t.ok(accepts(groupBy, [none, none, inRack('r1'), inRack('r1')], inRack('r1')), 'r1 (2) is among the smallest (2)');
  t.notOk(accepts(groupBy, [none, none, inRack('r1'), inRack('r1'), inRack('r1')], inRack('r1')), 'r1 (3) above the no-value group (2)');
  t.ok(accepts([{ field: 'rack', operator: 'GROUP_BY', value: '2' }], [none, inRack('r1')], inRack('r1')),
    'the no-value group counts towards N');
});

t.test('LIKE and UNLIKE: full regex match on the formatted value', async (t) => {
  const h = (hostname: string): AgentInfo => makeAgent({ hostname });
  const cases: [ConstraintOperator, string, AgentInfo, boolean][] = [
    ['LIKE', 'h[0-9]', h('h1'), true],
    ['LIKE', 'h[0-9]', h('h10'), false],
    ['LIKE', 'h', h('h1'), false],
    ['LIKE', '.*', h('anything'), true],
    ['LIKE', 'a|h1', h('h1'), true],
    ['UNLIKE', 'h1', h('h1'), false],
    ['UNLIKE', 'h1', h('h2'), true],
    ['UNLIKE', 'h1', h('h12'), true],
    ['UNLIKE', '.*', h('x'), false],
    ['LIKE', '[', h('['), false],
    ['UNLIKE', '[', h('x'), false],
    ['LIKE', '', h(''), false],
  ];
  for (const [operator, value, agent, want] of cases) {
    t.equal(accepts([{ field: 'hostname', operator, value }], [], agent), want, `${agent.hostname} ${operator} ${value}`);
  }
  const rich = makeAgent({ hostname: 'x', region: 'eu-west', attrs: { ports: [[31000, 32000]], level: 2.5, disks: ['a', 'b'] } });
  t.ok(accepts([{ field: 'ports', operator: 'LIKE', value: '\\[31000-32000\\]' }], [], rich), 'ranges');
  t.ok(accepts([{ field: 'level', operator: 'LIKE', value: '2\\.5' }], [], rich), 'scalar');
  t.ok(accepts([{ field: 'disks', operator: 'UNLIKE', value: '\\{b,a\\}' }], [], rich), 'set');
  t.ok(accepts([{ field: '@region', operator: 'LIKE', value: 'eu-.*' }], [], rich), '@region');
});

t.test('MAX_PER n: fewer than n placed with the value (Marathon admits the first even for n = 0)', async (t) => {
  const h1 = makeAgent({ hostname: 'h1' });
  const h2 = makeAgent({ hostname: 'h2' });
  t.same(placeInOrder([{ field: 'hostname', operator: 'MAX_PER', value: '2' }], [h1, h1, h1, h2, h2, h2, h1]),
    ['h1', 'h1', 'h2', 'h2']);
  t.same(placeInOrder([{ field: 'hostname', operator: 'MAX_PER', value: '1' }], [h1, h1, h2]), ['h1', 'h2']);
  t.same(placeInOrder([{ field: 'hostname', operator: 'MAX_PER', value: '0' }], [h1, h1, h2]), ['h1', 'h2']);
  t.notOk(accepts([{ field: 'hostname', operator: 'MAX_PER', value: 'x' }], [], h1), 'unusable MAX_PER refuses');
  t.notOk(accepts([{ field: 'hostname', operator: 'MAX_PER' }], [], h1));

  const compiled = compileConstraints([{ field: 'rack', operator: 'MAX_PER', value: '2' }]);
  const counts = new PlacementCounts(compiled);
  const [a, b] = [inRack('r1', 'a'), inRack('r1', 'b')];
  counts.add(a); counts.add(b);
  t.equal(constraintsAccept(compiled, counts, inRack('r1', 'c')), 0);
  counts.remove(a);
  t.equal(constraintsAccept(compiled, counts, inRack('r1', 'c')), -1, 'room again after a removal');
});

t.test('IS: scalar to the thousandth, otherwise exact text', async (t) => {
  const scalar = makeAgent({ hostname: 's', attrs: { level: 0.8, one: 1 } });
  const text = makeAgent({ hostname: 't', zone: 'eu-1a', attrs: { disk: 'ssd', version: '1.0' } });
  const cases: [AgentInfo, string, string, boolean][] = [
    [scalar, 'level', '0.8', true],
    [scalar, 'level', '0.80', true],
    [scalar, 'level', '0.8001', true],
    [scalar, 'level', '0.8004', true],
    [scalar, 'level', '0.801', false],
    [scalar, 'level', '0.8006', false],
    [scalar, 'level', '8', false],
    [scalar, 'one', '1', true],
    [scalar, 'one', '1.0', true],
    [scalar, 'one', '1.000', true],
    [text, 'disk', 'ssd', true],
    [text, 'disk', 'SSD', false],
    [text, 'disk', 'ss', false],
    [text, 'version', '1.0', true],
    [text, 'version', '1', false],
    [text, '@zone', 'eu-1a', true],
    [text, 'hostname', 't', true],
  ];
  for (const [agent, field, value, want] of cases) {
    t.equal(accepts([{ field, operator: 'IS', value }], [], agent), want, `${agent.hostname}.${field} IS ${value}`);
  }
  t.notOk(accepts([{ field: 'disk', operator: 'IS' }], [], text), 'IS without a value refuses');
});

t.test('the result is the index of the first refusing constraint', async (t) => {
  const h1 = makeAgent({ hostname: 'h1', zone: 'z1', attrs: { rack: 'r1' } });
  const constraints: Constraint[] = [
    { field: 'hostname', operator: 'LIKE', value: 'h.*' },
    { field: '@zone', operator: 'UNIQUE' },
    { field: 'rack', operator: 'MAX_PER', value: '1' },
    { field: 'rack', operator: 'CLUSTER', value: 'r2' },
  ];
  t.equal(check(constraints, [], h1), 3);
  t.equal(check(constraints, [h1], h1), 1);
  t.equal(check(constraints.slice(2), [h1], h1), 0);
  t.equal(check([{ field: 'hostname', operator: 'NOPE' as ConstraintOperator }], [], h1), 0, 'an unknown operator refuses');
});

t.test('checks are pure: repeating one changes nothing', async (t) => {
  const compiled = compileConstraints([{ field: 'rack', operator: 'GROUP_BY', value: '2' }]);
  const counts = new PlacementCounts(compiled);
  counts.add(inRack('r1'));
  const first = constraintsAccept(compiled, counts, inRack('r1'));
  const second = constraintsAccept(compiled, counts, inRack('r1'));
  t.same([first, second, counts.size], [0, 0, 1]);
});

/** Marathon's rules, recomputed from the full list of placed instances (slow and obvious). */
function referenceAccepts(c: Constraint, placed: readonly AgentInfo[], offer: AgentInfo): boolean {
  const read = (a: AgentInfo): string | undefined => (c.field === 'hostname' ? a.hostname : a.attributes.length > 0 ? rackOf(a) : undefined);
  const v = read(offer);
  if (v === undefined) return c.operator === 'UNLIKE';
  const groups = new Map<string | undefined, number>();
  for (const p of placed) groups.set(read(p), (groups.get(read(p)) ?? 0) + 1);
  const count = groups.get(v) ?? 0;
  switch (c.operator) {
    case 'UNIQUE': return count === 0;
    case 'MAX_PER': return count === 0 || count < Number(c.value);
    case 'CLUSTER': return c.value !== undefined ? v === c.value : placed.length === 0 || read(placed[0]) === v;
    case 'GROUP_BY': {
      const minimum = Math.max(0, c.value === undefined ? 0 : Number(c.value));
      const minCount = groups.size === 0 ? 0 : Math.min(...groups.values());
      return count === 0 || (groups.size >= minimum && count === minCount);
    }
    case 'LIKE': return new RegExp(`^(?:${c.value})$`).test(v);
    case 'UNLIKE': return !new RegExp(`^(?:${c.value})$`).test(v);
    case 'IS': return v === c.value;
  }
}

t.test('agrees with a from-scratch recomputation over pseudo-random placements and removals', async (t) => {
  const constraintsPool: Constraint[] = [
    { field: 'rack', operator: 'UNIQUE' },
    { field: 'rack', operator: 'MAX_PER', value: '3' },
    { field: 'hostname', operator: 'MAX_PER', value: '2' },
    { field: 'rack', operator: 'GROUP_BY' },
    { field: 'rack', operator: 'GROUP_BY', value: '3' },
    { field: 'hostname', operator: 'GROUP_BY', value: '2' },
    { field: 'rack', operator: 'CLUSTER' },
    { field: 'rack', operator: 'CLUSTER', value: 'r2' },
    { field: 'rack', operator: 'LIKE', value: 'r[01]' },
    { field: 'rack', operator: 'UNLIKE', value: 'r3' },
    { field: 'rack', operator: 'IS', value: 'r1' },
  ];
  // CLUSTER without a value anchors on the first placement, which the reference reads as placed[0]:
  // both agree as long as instances are removed newest-first or the anchor value stays in use, so
  // the walk below removes from the end for that constraint.
  const agents: AgentInfo[] = [];
  for (let i = 0; i < 10; i++) agents.push(inRack(i % 5 === 4 ? undefined : `r${i % 4}`, `w${i % 3}`));
  let seed = 7;
  const next = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  let checks = 0;
  let disagreements = 0;
  for (const constraint of constraintsPool) {
    const compiled = compileConstraints([constraint]);
    const counts = new PlacementCounts(compiled);
    const placed: AgentInfo[] = [];
    for (let step = 0; step < 400; step++) {
      if (placed.length > 0 && next(4) === 0) {
        const at = constraint.operator === 'CLUSTER' ? placed.length - 1 : next(placed.length);
        counts.remove(placed.splice(at, 1)[0]);
        continue;
      }
      const offer = agents[next(agents.length)];
      const got = constraintsAccept(compiled, counts, offer) === -1;
      const want = referenceAccepts(constraint, placed, offer);
      checks++;
      if (got !== want) disagreements++;
      if (got || next(5) === 0) {
        // place accepted offers, and now and then a refused one (as if placed before the constraint)
        placed.push(offer);
        counts.add(offer);
      }
    }
  }
  t.equal(disagreements, 0, `${checks} checks`);
});
