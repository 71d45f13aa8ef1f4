import t, { type Test } from 'tap';
import { mapWith, mapWithout } from '../../../../src/scheduler/groups/group-tree';
import { comparePathIds } from '../../../../src/scheduler/groups/path-id';
import { MAX_CHUNK, PathMap } from '../../../../src/scheduler/groups/path-map';

/*
 * PathMap (the group tree's maps) must read exactly as the JavaScript Map it replaces: the same
 * entries in the same order through every reading method, whatever sequence of edits made it and
 * however many chunks it has. Each case runs a sequence of sets and removals on both a PathMap
 * (through mapWith/mapWithout, as the tree edits it) and on a plain Map kept sorted the way the
 * old mapWith kept it, and compares them after every step.
 */

type Step = { set: string; value: number } | { del: string };

/** The plain-Map model of mapWith/mapWithout: replace in place, insert in path id order, remove. */
function modelApply(map: Map<string, number>, step: Step): Map<string, number> {
  if ('del' in step) {
    const next = new Map(map);
    next.delete(step.del);
    return next;
  }
  if (map.has(step.set)) return new Map([...map].map(([k, v]) => [k, k === step.set ? step.value : v] as const));
  return new Map([...map, [step.set, step.value] as const].sort((a, b) => comparePathIds(a[0], b[0])));
}

function same(t: Test, actual: ReadonlyMap<string, number>, expected: Map<string, number>, at: string): void {
  t.equal(actual.size, expected.size, `${at}: size`);
  t.same([...actual], [...expected], `${at}: entries in order`);
  t.same([...actual.keys()], [...expected.keys()], `${at}: keys`);
  t.same([...actual.values()], [...expected.values()], `${at}: values`);
  const seen: [string, number][] = [];
  actual.forEach((v, k, m) => {
    seen.push([k, v]);
    if (m !== actual) t.fail(`${at}: forEach passes the map itself`);
  });
  t.same(seen, [...expected], `${at}: forEach`);
  for (const [k, v] of expected) {
    if (actual.get(k) !== v || !actual.has(k)) t.fail(`${at}: get/has ${k}`);
  }
  for (const k of ['/', '/a', '/zzz/none', '/g/app-x', '/g/app-00500x']) {
    if (actual.has(k) !== expected.has(k) || actual.get(k) !== expected.get(k)) t.fail(`${at}: absent key ${k}`);
  }
}

const id = (n: number): string => `/g/app-${String(n).padStart(5, '0')}`;
/** A deterministic shuffle of 0..n-1 (a linear congruential permutation). */
const order = (n: number, step: number): number[] => Array.from({ length: n }, (_, i) => (i * step) % n);

const cases: { name: string; steps: Step[] }[] = [
  { name: 'ascending inserts across several chunks', steps: order(3 * MAX_CHUNK + 5, 1).map((n) => ({ set: id(n), value: n })) },
  { name: 'descending inserts (always at the front)', steps: order(2 * MAX_CHUNK + 3, 1).reverse().map((n) => ({ set: id(n), value: n })) },
  { name: 'shuffled inserts, then replacements', steps: [
    ...order(5 * MAX_CHUNK + 1, 97).map((n) => ({ set: id(n), value: n })),
    ...order(40, 7).map((n) => ({ set: id(n * 7), value: -n })),
  ] },
  { name: 'inserts then removals down to empty (chunks emptied, first keys removed)', steps: [
    ...order(3 * MAX_CHUNK, 1).map((n) => ({ set: id(n), value: n })),
    ...order(3 * MAX_CHUNK, 1).map((n) => ({ del: id(n) })),
  ] },
  { name: 'removals from the middle and of absent keys, then inserts again', steps: [
    ...order(2 * MAX_CHUNK + 10, 13).map((n) => ({ set: id(n), value: n })),
    ...order(2 * MAX_CHUNK + 10, 29).filter((n) => n % 3 === 0).map((n) => ({ del: id(n) })),
    { del: id(99_999) },
    ...order(2 * MAX_CHUNK + 10, 31).filter((n) => n % 3 === 0).map((n) => ({ set: id(n), value: n + 1 })),
  ] },
  { name: 'path id order, not code unit order (/a/b before /a-b, a parent before its children)', steps: [
    { set: '/a-b', value: 1 }, { set: '/a/b', value: 2 }, { set: '/a', value: 3 }, { set: '/a/b/c', value: 4 }, { set: '/a0', value: 5 },
  ] },
];

for (const c of cases) {
  t.test(c.name, (t) => {
    let actual: ReadonlyMap<string, number> = new Map();
    let expected = new Map<string, number>();
    c.steps.forEach((step, i) => {
      const before = actual;
      actual = 'del' in step ? mapWithout(actual, step.del) : mapWith(actual, step.set, step.value);
      expected = modelApply(expected, step);
      t.not(actual, before, `step ${i}: a new map`);
      t.ok(actual instanceof Map, `step ${i}: still a Map to the codec`);
      if (i % 17 === 0 || i === c.steps.length - 1) same(t, actual, expected, `step ${i}`);
    });
    t.end();
  });
}

t.test('earlier versions are unchanged by later edits (persistence)', (t) => {
  const versions: ReadonlyMap<string, number>[] = [new Map()];
  const models: Map<string, number>[] = [new Map()];
  for (const n of order(3 * MAX_CHUNK, 41)) {
    versions.push(mapWith(versions[versions.length - 1], id(n), n));
    models.push(modelApply(models[models.length - 1], { set: id(n), value: n }));
  }
  for (const n of order(3 * MAX_CHUNK, 43).slice(0, MAX_CHUNK)) {
    versions.push(mapWithout(versions[versions.length - 1], id(n)));
    models.push(modelApply(models[models.length - 1], { del: id(n) }));
  }
  for (let i = 0; i < versions.length; i += 23) same(t, versions[i], models[i], `version ${i}`);
  t.end();
});

t.test('a map out of path id order is read and edited as a Map was', (t) => {
  const plain = new Map([['/z', 1], ['/b', 2], ['/m', 3]]);
  const edited = mapWith(plain, '/c', 4);
  t.same([...edited], [['/z', 1], ['/b', 2], ['/c', 4], ['/m', 3]], 'inserted where the binary search of the old order put it');
  t.equal(edited.get('/z'), 1);
  t.equal(edited.get('/m'), 3);
  t.same([...mapWithout(edited, '/z')], [['/b', 2], ['/c', 4], ['/m', 3]]);
  t.end();
});

t.test('the writing methods of Map throw', (t) => {
  const map = PathMap.from(new Map([['/a', 1]])) as unknown as Map<string, number>;
  t.throws(() => map.set('/b', 2));
  t.throws(() => map.delete('/a'));
  t.throws(() => map.clear());
  t.equal(map.get('/a'), 1);
  t.end();
});

t.test('many lookups of one map (its hash index) answer as the search did, before and after', (t) => {
  let map: ReadonlyMap<string, number> = new Map();
  const n = 20 * MAX_CHUNK;
  for (const k of order(n, 101)) map = mapWith(map, id(k), k);
  const absent = ['/g/app-x', id(n + 1), '/a', '/g', '/h/app-00001'];
  // Three passes: the first ones search, the index is built during them, the last reads it.
  for (let pass = 0; pass < 3; pass++) {
    let wrong = 0;
    for (let k = 0; k < n; k++) if (map.get(id(k)) !== k || !map.has(id(k))) wrong++;
    for (const k of absent) if (map.get(k) !== undefined || map.has(k)) wrong++;
    t.equal(wrong, 0, `pass ${pass}: every key found, no absent key found`);
  }
  const edited = mapWith(mapWithout(map, id(7)), id(n + 1), -1);
  t.equal(edited.get(id(7)), undefined, 'an edit of an indexed map does not read its index');
  t.equal(edited.get(id(n + 1)), -1);
  t.equal(map.get(id(7)), 7, 'the indexed map itself is unchanged');
  t.end();
});

t.test('the hash index passes on to the map an edit makes: every version, branches included, answers as the model', (t) => {
  // Versions are edited in a seeded order that branches (an older version edited again, as a
  // rollback does), and each is read many times, so that indexes are built, handed on to the
  // edit, and built again by a version that lost its own.
  const n = 10 * MAX_CHUNK;
  let seed = 7;
  const next = (m: number): number => (seed = (seed * 1103515245 + 12345) % 2147483648) % m;
  const versions: { map: ReadonlyMap<string, number>; model: Map<string, number> }[] = [];
  let map: ReadonlyMap<string, number> = new Map();
  for (const k of order(n, 37)) map = mapWith(map, id(k), k);
  versions.push({ map, model: new Map([...map]) });
  const wrongIn = (v: { map: ReadonlyMap<string, number>; model: Map<string, number> }): number => {
    let wrong = 0;
    for (let k = 0; k <= n + 40; k++) {
      const want = v.model.get(id(k));
      if (v.map.get(id(k)) !== want || v.map.has(id(k)) !== (want !== undefined)) wrong++;
    }
    return wrong;
  };
  let wrong = 0;
  for (let step = 0; step < 60; step++) {
    const from = versions[step % 5 === 4 ? next(versions.length) : versions.length - 1];
    const k = next(n + 40);
    const edit: Step = next(3) === 0 ? { del: id(k) } : { set: id(k), value: -step - 1 };
    const edited = 'del' in edit ? mapWithout(from.map, edit.del) : mapWith(from.map, edit.set, edit.value);
    versions.push({ map: edited, model: modelApply(from.model, edit) });
    // Two versions read in full each step: the new one and one chosen at random.
    wrong += wrongIn(versions[versions.length - 1]) + wrongIn(versions[next(versions.length)]);
  }
  for (const v of versions) wrong += wrongIn(v);
  t.equal(wrong, 0, 'every lookup in every version as the model answers');
  t.end();
});

t.test('ids that are not plain (`//`, a trailing `/`) are found by a scan', (t) => {
  const steps: Step[] = [
    { set: '/a/b', value: 1 }, { set: '/a//b', value: 2 }, { set: '/a/b/', value: 3 }, { set: '/a/c', value: 4 },
    ...order(2 * MAX_CHUNK, 1).map((n) => ({ set: id(n), value: n })),
  ];
  let actual: ReadonlyMap<string, number> = new Map();
  let expected = new Map<string, number>();
  for (const step of steps) {
    actual = 'del' in step ? mapWithout(actual, step.del) : mapWith(actual, step.set, step.value);
    expected = modelApply(expected, step);
  }
  // (Their order among ids that compare equal is where the binary search put them, as with a
  // Map; canonical ids are all plain, so the tree never holds two such ids.)
  for (const k of ['/a/b', '/a//b', '/a/b/', '/a/c', id(3)]) t.equal(actual.get(k), expected.get(k), `get ${k}`);
  t.equal(actual.size, expected.size, 'size');
  t.end();
});
