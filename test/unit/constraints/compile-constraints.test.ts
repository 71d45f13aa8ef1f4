import t from 'tap';
import type { Constraint } from '../../../src/scheduler/model/constraint';
import { compileConstraints } from '../../../src/scheduler/constraints/compile-constraints';

t.test('fields are deduplicated into slots; hostname and @hostname share one', async (t) => {
  const compiled = compileConstraints([
    { field: 'hostname', operator: 'UNIQUE' },
    { field: 'rack', operator: 'GROUP_BY', value: '3' },
    { field: '@hostname', operator: 'MAX_PER', value: '2' },
    { field: '@zone', operator: 'LIKE', value: 'eu-.*' },
    { field: 'rack', operator: 'MAX_PER', value: '5' },
    { field: '@region', operator: 'CLUSTER', value: 'eu' },
    { field: 'hostname', operator: 'CLUSTER' },
  ]);
  t.same(compiled.fields, [
    { name: '@hostname', kind: 'hostname', tracksGroups: false, tracksAnchor: true },
    { name: 'rack', kind: 'attribute', tracksGroups: true, tracksAnchor: false },
    { name: '@zone', kind: 'zone', tracksGroups: false, tracksAnchor: false },
    { name: '@region', kind: 'region', tracksGroups: false, tracksAnchor: false },
  ], 'only CLUSTER without a value keeps an anchor');
  t.same(compiled.constraints.map((c) => c.fieldIndex), [0, 1, 0, 2, 1, 3, 0]);
  t.same(compiled.constraints.map((c) => c.kind), ['hostname', 'attribute', 'hostname', 'zone', 'attribute', 'region', 'hostname']);
  t.same(compiled.constraints.map((c) => c.counted), [true, true, true, false, true, false, true], 'the checks that read the counters');
  t.equal(compileConstraints([]).constraints.length, 0);
});

t.test('LIKE/UNLIKE compile to full-match regexes', async (t) => {
  const [like, unlike] = compileConstraints([
    { field: 'rack', operator: 'LIKE', value: 'rack-[12]' },
    { field: 'rack', operator: 'UNLIKE', value: 'a|b' },
  ]).constraints;
  t.ok(like.usable);
  t.ok(like.regex?.test('rack-1'));
  t.notOk(like.regex?.test('rack-10'), 'no prefix match');
  t.notOk(like.regex?.test('xrack-1'), 'no suffix match');
  t.ok(unlike.regex?.test('a'));
  t.ok(unlike.regex?.test('b'));
  t.notOk(unlike.regex?.test('ab'), 'alternation is inside the anchors');
});

t.test('constraints that cannot be evaluated compile as unusable', async (t) => {
  const cases: Constraint[] = [
    { field: 'rack', operator: 'LIKE' },
    { field: 'rack', operator: 'LIKE', value: '' },
    { field: 'rack', operator: 'UNLIKE', value: '[' },
    { field: 'rack', operator: 'LIKE', value: 'a)|(b' },
    { field: 'rack', operator: 'MAX_PER' },
    { field: 'rack', operator: 'MAX_PER', value: 'x' },
    { field: 'rack', operator: 'MAX_PER', value: '1.5' },
    { field: 'rack', operator: 'IS' },
    { field: 'rack', operator: 'IS', value: '' },
    { field: 'rack', operator: 'NOPE' as Constraint['operator'] },
  ];
  for (const c of cases) t.equal(compileConstraints([c]).constraints[0].usable, false, JSON.stringify(c));
  const fine: Constraint[] = [
    { field: 'rack', operator: 'UNIQUE' },
    { field: 'rack', operator: 'CLUSTER' },
    { field: 'rack', operator: 'GROUP_BY', value: 'x' },
    { field: 'rack', operator: 'IS', value: 'x' },
  ];
  for (const c of fine) t.equal(compileConstraints([c]).constraints[0].usable, true, JSON.stringify(c));
});

t.test('integers: MAX_PER maximum, GROUP_BY minimum group count', async (t) => {
  const limit = (c: Constraint): number => compileConstraints([c]).constraints[0].limit;
  t.equal(limit({ field: 'f', operator: 'MAX_PER', value: '3' }), 3);
  t.equal(limit({ field: 'f', operator: 'MAX_PER', value: '+7' }), 7);
  t.equal(limit({ field: 'f', operator: 'MAX_PER', value: '0' }), 0);
  t.equal(limit({ field: 'f', operator: 'GROUP_BY' }), 0, 'no value → 0');
  t.equal(limit({ field: 'f', operator: 'GROUP_BY', value: '' }), 0, 'empty value → 0');
  t.equal(limit({ field: 'f', operator: 'GROUP_BY', value: '4' }), 4);
  t.equal(limit({ field: 'f', operator: 'GROUP_BY', value: '-2' }), 0, 'negative → 0');
  t.equal(limit({ field: 'f', operator: 'GROUP_BY', value: 'x' }), 0, 'unparseable → 0, as Marathon');
  t.equal(limit({ field: 'f', operator: 'GROUP_BY', value: 'inf' }), 2147483647, 'inf → Int.MaxValue, as Marathon');
  t.equal(limit({ field: 'f', operator: 'GROUP_BY', value: '99999999999' }), 0, 'out of int range → 0');
});

t.test('IS values: plain decimals are rounded to the thousandth, text kept as is', async (t) => {
  const isScalar = (value: string): string | undefined =>
    compileConstraints([{ field: 'f', operator: 'IS', value }]).constraints[0].isScalar;
  t.equal(isScalar('0.8'), '0.8');
  t.equal(isScalar('0.80'), '0.8');
  t.equal(isScalar('0.8001'), '0.8');
  t.equal(isScalar('0.8005'), '0.8');
  t.equal(isScalar('0.8015'), '0.802');
  t.equal(isScalar('2'), '2');
  t.equal(isScalar('2.000'), '2');
  t.equal(isScalar('rack-1'), undefined);
  t.equal(isScalar('1.2.3'), undefined);
  t.equal(isScalar('.5'), undefined, 'not a plain decimal for Mesos');
  t.equal(isScalar('-1'), undefined);
});

t.test('CLUSTER keeps its value; an empty value counts as none', async (t) => {
  const [withValue, empty, none] = compileConstraints([
    { field: 'hostname', operator: 'CLUSTER', value: 'h1' },
    { field: 'hostname', operator: 'CLUSTER', value: '' },
    { field: 'hostname', operator: 'CLUSTER' },
  ]).constraints;
  t.equal(withValue.value, 'h1');
  t.equal(empty.value, undefined);
  t.equal(none.value, undefined);
  t.same(withValue.source, { field: 'hostname', operator: 'CLUSTER', value: 'h1' });
});

t.test('agentOnly: true exactly when no constraint reads the placement counters', async (t) => {
  const cases: { constraints: Constraint[]; agentOnly: boolean }[] = [
    { constraints: [], agentOnly: true },
    { constraints: [{ field: 'rack', operator: 'LIKE', value: 'r.*' }], agentOnly: true },
    { constraints: [{ field: 'disks', operator: 'UNLIKE', value: '\\{hdd.*' }], agentOnly: true },
    { constraints: [{ field: 'generation', operator: 'IS', value: '2' }], agentOnly: true },
    { constraints: [{ field: '@region', operator: 'CLUSTER', value: 'eu' }], agentOnly: true },
    { constraints: [{ field: 'rack', operator: 'MAX_PER' }], agentOnly: true },
    { constraints: [{ field: '@region', operator: 'CLUSTER' }], agentOnly: false },
    { constraints: [{ field: 'hostname', operator: 'UNIQUE' }], agentOnly: false },
    { constraints: [{ field: '@zone', operator: 'GROUP_BY' }], agentOnly: false },
    { constraints: [{ field: 'rack', operator: 'MAX_PER', value: '2' }], agentOnly: false },
    { constraints: [{ field: 'rack', operator: 'LIKE', value: 'r.*' }, { field: 'hostname', operator: 'UNIQUE' }], agentOnly: false },
  ];
  for (const c of cases) t.equal(compileConstraints(c.constraints).agentOnly, c.agentOnly, JSON.stringify(c.constraints));
});
