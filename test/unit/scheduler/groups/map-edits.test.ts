import t from 'tap';
import { mapWith, mapWithout, normalizeGroup } from '../../../../src/scheduler/groups/group-tree';
import { MAX_EDITS, editedKeys } from '../../../../src/scheduler/groups/map-edits';
import { dependencyGraph } from '../../../../src/scheduler/groups/dependencies';
import { emptyRoot, withRunSpec, withoutRunSpec } from '../../../../src/scheduler/groups/root-group';
import { assignServicePorts, servicePortsOf } from '../../../../src/scheduler/groups/service-ports';
import { allRunSpecs } from '../../../../src/scheduler/groups/tree-query';
import type { Group } from '../../../../src/scheduler/groups/group';
import { runSpecDiff } from '../../../../src/scheduler/deployments/run-spec-diff';
import type { AppSpec } from '../../../../src/scheduler/model/app';
import { makeApp } from '../../../builders/run-spec-builders';

/*
 * A map of the group tree made by mapWith/mapWithout remembers the keys edited since its last few
 * ancestors (map-edits.ts), and the plan's diff, the service port rule and the dependency check
 * read only those keys. Whatever is remembered, their answers must be those of reading every
 * entry: each case compares them with the same roots rebuilt whole (normalizeGroup makes new maps,
 * which have no remembered ancestry).
 */

const V = '2026-01-01T00:00:00.000Z';
const OPTS = { version: V, newGroupEnforceRole: 'off' as const };
const RANGE = { min: 10_000, max: 20_000 };

type Op = { put: AppSpec } | { del: string };

function applyOp(root: Group, op: Op): Group {
  const r = 'put' in op ? withRunSpec(root, op.put, OPTS) : withoutRunSpec(root, op.del, OPTS);
  if (!r.ok) throw new Error(r.message);
  return r.root;
}

/** Every root change as the deployment manager makes it: the tree edit, then the service port rule. */
function changeAll(start: Group, ops: readonly Op[]): Group[] {
  const roots = [start];
  for (const op of ops) {
    const from = roots[roots.length - 1];
    const ported = assignServicePorts(RANGE, from, applyOp(from, op));
    if (!ported.ok) throw new Error(ported.message);
    roots.push(ported.root);
  }
  return roots;
}

function app(id: string, o: Parameters<typeof makeApp>[0] = {}): AppSpec {
  return makeApp({ id, ...o });
}

function dynamic(id: string, ports = 1): AppSpec {
  return app(id, { hostPorts: Array.from({ length: ports }, () => 0), portDefinitions: Array.from({ length: ports }, () => ({ port: 0, protocol: 'tcp', labels: {} })) });
}

function fixed(id: string, port: number): AppSpec {
  return app(id, { hostPorts: [0], portDefinitions: [{ port, protocol: 'tcp', labels: {} }] });
}

function diffIds(from: Group, to: Group): { removed: string[]; changed: string[] } {
  const d = runSpecDiff(from, to);
  return { removed: d.removed.map((s) => s.id), changed: d.changed.map((c) => `${c.before === undefined ? 'new' : 'was'} ${c.after.id}`) };
}

function portsOf(root: Group): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  for (const spec of allRunSpecs(root)) if (spec.kind === 'app') out[spec.id] = servicePortsOf(spec);
  return out;
}

t.test('editedKeys: the keys edited from an ancestor up to MAX_EDITS edits back, else unknown', async (t) => {
  const m0: ReadonlyMap<string, number> = new Map([['/a', 1], ['/b', 2]]);
  const m1 = mapWith(m0, '/c', 3);
  const m2 = mapWithout(m1, '/a');
  const m3 = mapWith(m2, '/b', 4);
  t.same(editedKeys(m0, m0), [], 'the same map: nothing edited');
  t.same(editedKeys(m0, m1), ['/c']);
  t.same(editedKeys(m0, m3), ['/b', '/a', '/c'], 'nearest edit first');
  t.same(editedKeys(m1, m3), ['/b', '/a']);
  t.equal(editedKeys(m3, m0), undefined, 'not an ancestor (the other way round)');
  t.equal(editedKeys(new Map(m0), m1), undefined, 'a copy made whole has no ancestry');
  let m: ReadonlyMap<string, number> = m0;
  for (let i = 0; i < MAX_EDITS; i++) m = mapWith(m, `/k${i}`, i);
  t.equal(editedKeys(m0, m)?.length, MAX_EDITS, `${MAX_EDITS} edits back: known`);
  t.equal(editedKeys(m0, mapWith(m, '/more', 0)), undefined, 'one more: unknown, read whole');
});

t.test('the plan diff, the service ports and the dependency graph are those of reading every entry', async (t) => {
  const big = Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? dynamic(`/g/app-${i}`) : app(`/g/app-${i}`)));
  const cases: [string, Op[]][] = [
    ['apps created one by one in one group, a third with a dynamic port', big.map((put) => ({ put }))],
    ['created, then updated, scaled and deleted', [
      ...big.slice(0, 10).map((put) => ({ put })),
      { put: app('/g/app-1', { cmd: 'sleep 2' }) },
      { put: app('/g/app-2', { instances: 5 }) },
      { del: '/g/app-3' },
      { put: dynamic('/g/app-1', 2) },
      { del: '/g/app-0' },
      { put: app('/g/app-0') },
    ]],
    ['two apps name the same fixed port; one is deleted, then the other', [
      { put: fixed('/g/x', 10_000) }, { put: fixed('/g/y', 10_000) }, { put: dynamic('/g/d1') },
      { del: '/g/x' }, { put: dynamic('/g/d2') }, { del: '/g/y' }, { put: dynamic('/g/d3') },
    ]],
    ['an app declares a dependency in a group where none did, then goes', [
      ...big.slice(0, 6).map((put) => ({ put })),
      { put: app('/g/dep', { dependencies: ['/g/app-1'] }) },
      { put: app('/g/app-9') },
      { del: '/g/dep' },
      { put: app('/g/app-10') },
    ]],
    ['apps in nested and sibling groups', [
      { put: app('/a/b/one') }, { put: dynamic('/a/two') }, { put: app('/c/three') }, { put: app('/a/b/four', { dependencies: ['/c'] }) },
      { del: '/a/b/one' }, { put: dynamic('/a/b/five') },
    ]],
  ];
  for (const [name, ops] of cases) {
    const roots = changeAll(emptyRoot(V), ops);
    const whole = roots.map((r) => normalizeGroup(r));
    for (let i = 1; i < roots.length; i++) {
      // Each change, and changes several and more than MAX_EDITS edits apart.
      for (const back of [1, 2, 5, MAX_EDITS + 2]) {
        const j = Math.max(0, i - back);
        t.same(diffIds(roots[j], roots[i]), diffIds(whole[j], whole[i]), `${name}: diff of roots ${j} → ${i}`);
      }
      t.same(Object.fromEntries(dependencyGraph(roots[i])), Object.fromEntries(dependencyGraph(whole[i])), `${name}: dependencies of root ${i}`);
    }
    // The service ports each change got equal those a rule reading every app gives.
    let replay = emptyRoot(V);
    for (const [k, op] of ops.entries()) {
      const ported = assignServicePorts(RANGE, normalizeGroup(replay), normalizeGroup(applyOp(replay, op)));
      if (!ported.ok) throw new Error(ported.message);
      replay = ported.root;
      t.same(portsOf(roots[k + 1]), portsOf(replay), `${name}: service ports after change ${k + 1}`);
    }
  }
});

t.test('the remembered ports follow fixed ports as a multiset: a port two apps name is used until both are gone', async (t) => {
  const roots = changeAll(emptyRoot(V), [
    { put: fixed('/g/x', 10_000) }, { put: fixed('/g/y', 10_000) }, { del: '/g/x' }, { put: dynamic('/g/d1') }, { del: '/g/y' }, { put: dynamic('/g/d2') },
  ]);
  const last = portsOf(roots[roots.length - 1]);
  t.same(last['/g/d1'], [10_001], 'while /g/y still names 10000');
  t.same(last['/g/d2'], [10_000], 'once neither does');
});
