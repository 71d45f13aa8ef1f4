import t from 'tap';
import { emptyRoot } from '../../../src/scheduler/groups/root-group';
import { decode, encode } from '../../../src/store/sqlite/codec';
import { constraint, makeApp, makeContainer, makeEndpoint, makeHealthCheck, makePod } from '../../builders/run-spec-builders';
import { populatedHarness } from './core-scenario';
import { exactDiff } from './store-fixture';
import { Instance } from '../../../src/scheduler/model/instance';

const roundTrip = (x: unknown): unknown => decode(encode(x));

t.test('values of every shape the codec knows round-trip exactly', async (t) => {
  const cases: [string, unknown][] = [
    ['primitives', { s: 'x', n: 1.5, b: false, z: null }],
    ['Infinity, -Infinity, NaN and -0', [Infinity, -Infinity, NaN, -0, 0]],
    ['a Map keeps insertion order (not sorted)', new Map([['/b', 1], ['/a', 2], ['/c', 3]])],
    ['nested Maps and a Set', { m: new Map([['k', new Map([['z', new Set(['y', 'x'])]])]]) }],
    ['undefined inside an array', [1, undefined, 3]],
    ['objects that look like tags are escaped', [{ $map: [] }, { $obj: { $set: 1 } }, { $num: 'NaN' }, { $undefined: 1 }]],
    ['a tag-named key next to others needs no escape', { $map: 1, other: 2 }],
    ['an empty object and an empty array', { o: {}, a: [] }],
    ['a port range tuple', { ports: [[31000, 32000]] }],
    ['an app with checks, ports, args, constraints', makeApp({
      id: '/prod/web', hostPorts: [0, 8080], args: ['a', 'b'], cmd: undefined, labels: { a: 'b' },
      constraints: [constraint('hostname', 'UNIQUE'), constraint('rack', 'MAX_PER', '2')],
      healthChecks: [makeHealthCheck(), makeHealthCheck({ protocol: 'COMMAND', command: 'true' })],
      unreachable: { kind: 'disabled' },
    })],
    ['a pod with endpoints and container checks', makePod({
      containers: [
        makeContainer({ name: 'a', endpoints: [makeEndpoint({ name: 'http', hostPort: 0 })], healthCheck: makeHealthCheck({ protocol: 'MESOS_HTTP', endpoint: 'http' }) }),
        { name: 'b', command: undefined },
      ],
      networkMode: 'container',
    })],
    ['an empty root group', emptyRoot('2026-01-01T00:00:00.000Z')],
  ];
  for (const [name, value] of cases) {
    t.equal(exactDiff(roundTrip(value), value), undefined, name);
  }
});

t.test('undefined object fields are dropped, not written as null', async (t) => {
  const text = encode({ a: 1, b: undefined, c: { d: undefined } });
  t.equal(text, '{"a":1,"c":{}}');
  t.same(decode(text), { a: 1, c: {} });
});

t.test('everything a real core run stores round-trips, Map order included', async (t) => {
  const state = populatedHarness().store.load();
  t.ok(state.root !== undefined && state.deployments.length > 0 && state.instances.length > 0 && state.rootVersions.length > 0, 'the scenario stores a bit of everything');
  const objects: [string, unknown][] = [
    ['root', state.root],
    ...state.runSpecs.map((s): [string, unknown] => [`run spec ${s.id}`, s]),
    ...state.versions.map((s): [string, unknown] => [`version ${s.id} ${s.version}`, s]),
    ...state.rootVersions.map((g): [string, unknown] => [`root version ${g.version}`, g]),
    ...state.deployments.map((d): [string, unknown] => [`deployment ${d.plan.id} (with original and target roots)`, d]),
    // An instance is stored as its record (its toJSON): that is what decodes.
    ...state.instances.map((i): [string, unknown] => [`instance ${i.instanceId} (${i.condition})`, Instance.from(i).toJSON()]),
  ];
  for (const [name, value] of objects) t.equal(exactDiff(roundTrip(value), value), undefined, name);
});

t.test('values JSON would silently change are refused, naming where they are', async (t) => {
  const cases: [string, unknown, RegExp][] = [
    ['a Date', { at: new Date(0) }, /instance of Date at \$\.at/],
    ['a function', { f: () => 1 }, /function at \$\.f/],
    ['a bigint', [1n], /bigint at \$\[0\]/],
    ['a symbol', { s: Symbol('x') }, /symbol at \$\.s/],
    ['a class instance inside a Map', new Map([['k', new (class Thing {})()]]), /instance of Thing at \$<k>/],
    ['a class whose toJSON gives an array', { v: new (class Listed { toJSON(): number[] { return [1]; } })() }, /instance of Listed at \$\.v/],
    ['a class whose toJSON gives another class instance', { v: new (class Dated { toJSON(): Date { return new Date(0); } })() }, /instance of Dated at \$\.v/],
    ['undefined at the top', undefined, /undefined at \$/],
  ];
  for (const [name, value, message] of cases) t.throws(() => encode(value), { message }, name);
});

t.test('malformed tagged values are refused on decode', async (t) => {
  const cases: [string, string][] = [
    ['$map that is not an array', '{"$map":1}'],
    ['$map entry that is not a pair', '{"$map":[[1]]}'],
    ['$set that is not an array', '{"$set":"x"}'],
    ['$num of an ordinary number', '{"$num":"1"}'],
    ['$obj that is not an object', '{"$obj":[1]}'],
  ];
  for (const [name, text] of cases) t.throws(() => decode(text), { message: /codec: malformed/ }, name);
  t.throws(() => decode('{not json'), SyntaxError, 'text that is not JSON');
});

t.test('decoded objects are fresh copies the caller may mutate', async (t) => {
  const tasks = [{ taskId: 't1', state: 'TASK_RUNNING' }];
  const decoded = roundTrip({ tasks }) as { tasks: { state: string }[] };
  decoded.tasks[0].state = 'TASK_KILLED';
  t.equal(tasks[0].state, 'TASK_RUNNING');
});

t.test('the comparator these tests rely on sees what strictSame would miss', async (t) => {
  const cases: [string, unknown, unknown][] = [
    ['Map order', new Map([['a', 1], ['b', 2]]), new Map([['b', 2], ['a', 1]])],
    ['Set order', new Set([1, 2]), new Set([2, 1])],
    ['-0 and 0', -0, 0],
    ['a Map and a plain object', new Map(), {}],
    ['a missing field', { a: 1 }, { a: 1, b: 2 }],
    ['an array length', [1], [1, 2]],
  ];
  for (const [name, a, b] of cases) t.not(exactDiff(a, b), undefined, name);
  t.equal(exactDiff({ a: 1, b: undefined }, { a: 1 }), undefined, 'an undefined field is an absent field');
});

t.test('a class instance whose toJSON gives a plain object (the core\'s Instance) is encoded as that object', async (t) => {
  class Point {
    readonly #secret = 7;
    constructor(readonly x: number) {}
    get doubled(): number {
      return this.x * 2 + this.#secret * 0;
    }
    toJSON(): { x: number; doubled: number } {
      return { x: this.x, doubled: this.doubled };
    }
  }
  t.strictSame(decode(encode({ p: new Point(3) })), { p: { x: 3, doubled: 6 } }, 'its JSON, a plain record, with what its getters give');
});
