import t from 'tap';
import seedrandom from 'seedrandom';
import { makeApp, makePod, versionAt } from '../../../builders/run-spec-builders';
import type { ChangeOptions } from '../../../../src/scheduler/groups/change-options';
import type { Group } from '../../../../src/scheduler/groups/group';
import type { GroupResult } from '../../../../src/scheduler/groups/group-result';
import {
  APP_GROUP_CONFLICT_MESSAGE, APP_POD_CONFLICT_MESSAGE, POD_GROUP_CONFLICT_MESSAGE, type NamespaceKind,
} from '../../../../src/scheduler/groups/namespace-conflict';
import {
  allGroups, allRunSpecs, emptyRoot, findGroup, findRunSpec, namespaceConflict, putGroup, withRunSpec, removeGroup,
  withoutRunSpec, setEnforceRole, treeConflict, updateGroup,
} from '../../../../src/scheduler/groups/root-group';
import { comparePathIds } from '../../../../src/scheduler/groups/path-id';
import { walkRunSpecs } from '../../../../src/scheduler/groups/tree-query';
import { NOT_TOP_LEVEL_MESSAGE } from '../../../../src/scheduler/groups/role-rules';
import type { RunSpec } from '../../../../src/scheduler/model/run-spec';

const V0 = versionAt(0);
const OFF = (n: number): ChangeOptions => ({ version: versionAt(n), newGroupEnforceRole: 'off' });
const TOP = (n: number): ChangeOptions => ({ version: versionAt(n), newGroupEnforceRole: 'top' });

function ok(r: GroupResult): Group {
  if (!r.ok) throw new Error(`expected ok, got ${r.error}: ${r.message}`);
  return r.root;
}

/** A root holding the given run specs, each put at version n = its index + 1. */
function rootWith(...specs: RunSpec[]): Group {
  return specs.reduce((root, spec, i) => ok(withRunSpec(root, spec, OFF(i + 1))), emptyRoot(V0));
}

function group(id: string, o: Partial<Group> = {}): Group {
  return { id, apps: new Map(), pods: new Map(), groups: new Map(), dependencies: [], enforceRole: false, version: V0, ...o };
}

function versionsOf(root: Group): [string, string][] {
  return allGroups(root).map((g) => [g.id, g.version]);
}

t.test('emptyRoot', async (t) => {
  t.same(emptyRoot(V0), { id: '/', apps: new Map(), pods: new Map(), groups: new Map(), dependencies: [], enforceRole: false, version: V0 });
});

t.test('withRunSpec creates missing parents; enforceRole of new top-level groups follows --new_group_enforce_role (fact 112)', async (t) => {
  const app = makeApp({ id: '/dev/apps/sleeper' });
  for (const [opts, want] of [[OFF(1), false], [TOP(1), true]] as const) {
    const root = ok(withRunSpec(emptyRoot(V0), app, opts));
    t.equal(findGroup(root, '/dev')?.enforceRole, want, `top-level /dev with ${opts.newGroupEnforceRole}`);
    t.equal(findGroup(root, '/dev/apps')?.enforceRole, false, 'mid-level groups never enforce');
    t.equal(findRunSpec(root, '/dev/apps/sleeper'), app, 'the spec is stored as given');
    t.same(versionsOf(root), [['/', versionAt(1)], ['/dev', versionAt(1)], ['/dev/apps', versionAt(1)]]);
  }
  const pod = makePod({ id: '/top-pod' });
  const root = ok(withRunSpec(emptyRoot(V0), pod, TOP(1)));
  t.equal(findRunSpec(root, '/top-pod'), pod, 'a pod directly in the root creates no group');
  t.same(allGroups(root).map((g) => g.id), ['/']);
});

t.test('existing groups keep enforceRole; the option only applies to groups created now', async (t) => {
  const root1 = ok(withRunSpec(emptyRoot(V0), makeApp({ id: '/dev/a' }), OFF(1)));
  const root2 = ok(withRunSpec(root1, makeApp({ id: '/dev/b' }), TOP(2)));
  t.equal(findGroup(root2, '/dev')?.enforceRole, false);
  const root3 = ok(withRunSpec(root2, makeApp({ id: '/qa/b' }), TOP(3)));
  t.equal(findGroup(root3, '/qa')?.enforceRole, true);
  t.equal(findGroup(root3, '/dev')?.enforceRole, false);
});

t.test('every change stamps its version on the root and on every group (Marathon RootGroup.putGroup)', async (t) => {
  const root = rootWith(makeApp({ id: '/a/x' }), makeApp({ id: '/b/c/y' }));
  t.same(versionsOf(root), [['/', versionAt(2)], ['/a', versionAt(2)], ['/b', versionAt(2)], ['/b/c', versionAt(2)]]);
  t.equal(findRunSpec(root, '/a/x')?.version, versionAt(0), 'run specs keep their own versions');
  const removed = ok(withoutRunSpec(root, '/a/x', OFF(3)));
  t.same(versionsOf(removed), [['/', versionAt(3)], ['/a', versionAt(3)], ['/b', versionAt(3)], ['/b/c', versionAt(3)]]);
});

t.test('changes are persistent: the old root is untouched, untouched subtrees are shared', async (t) => {
  const before = rootWith(makeApp({ id: '/a/x' }), makeApp({ id: '/b/y' }));
  const snapshot = allRunSpecs(before).map((s) => s.id);
  const after = ok(withRunSpec(before, makeApp({ id: '/a/z' }), OFF(2)));
  t.same(allRunSpecs(before).map((s) => s.id), snapshot);
  t.same(allRunSpecs(after).map((s) => s.id), ['/a/x', '/a/z', '/b/y']);
  const same = ok(withRunSpec(after, makeApp({ id: '/a/w' }), OFF(2)));
  t.equal(findGroup(same, '/b'), findGroup(after, '/b'), 'a subtree with the same version is shared');
});

t.test('children maps are kept in path id order whatever the insertion order', async (t) => {
  const root = rootWith(makeApp({ id: '/g/c' }), makeApp({ id: '/g/a' }), makePod({ id: '/g/b' }), makeApp({ id: '/g/a-b' }),
    makeApp({ id: '/z/x' }), makeApp({ id: '/g/s/x' }), makeApp({ id: '/a/x' }));
  const g = findGroup(root, '/g') as Group;
  t.same([...g.apps.keys()], ['/g/a', '/g/a-b', '/g/c']);
  t.same([...root.groups.keys()], ['/a', '/g', '/z']);
  t.same(allRunSpecs(root).map((s) => s.id), ['/a/x', '/g/a', '/g/a-b', '/g/b', '/g/c', '/g/s/x', '/z/x']);
  t.same(allGroups(root).map((x) => x.id), ['/', '/a', '/g', '/g/s', '/z']);
});

t.test('allRunSpecs walks the sorted maps in path id order: the same as sorting every id', async (t) => {
  // Segments chosen so that ids of a group, its apps and its pods interleave in every way:
  // `a` < `a-b` < `a.b` < `ab` < `b`, and `/` below every other code unit.
  const names = ['a', 'a-b', 'a.b', 'ab', 'b'];
  const random = seedrandom('all-run-specs');
  for (let round = 0; round < 30; round++) {
    let root = emptyRoot(V0);
    const taken = new Map<string, 'spec' | 'group'>();
    for (let n = 0; n < 40; n++) {
      const depth = 1 + Math.floor(random() * 3);
      const parts = Array.from({ length: depth }, () => names[Math.floor(random() * names.length)]);
      const id = `/${parts.join('/')}`;
      const parentsFree = parts.slice(0, -1).every((_, i) => taken.get(`/${parts.slice(0, i + 1).join('/')}`) !== 'spec');
      if (taken.has(id) || !parentsFree) continue;
      for (let i = 1; i < depth; i++) taken.set(`/${parts.slice(0, i).join('/')}`, 'group');
      taken.set(id, 'spec');
      root = ok(withRunSpec(root, random() < 0.3 ? makePod({ id }) : makeApp({ id }), OFF(n + 1)));
    }
    const ids = allRunSpecs(root).map((s) => s.id);
    t.same(ids, [...ids].sort(comparePathIds), `round ${round}`);
    t.same(walkRunSpecs(root).map((s) => s.id), ids, `round ${round}: the walk alone is in order (no sort needed)`);
    t.equal(ids.length, [...taken.values()].filter((k) => k === 'spec').length, `round ${round}: every run spec once`);
  }
});

t.test('allRunSpecs sorts a tree whose maps are out of order', async (t) => {
  const apps = new Map([['/g/c', makeApp({ id: '/g/c' })], ['/g/a', makeApp({ id: '/g/a' })]]);
  const root = group('/', { groups: new Map([['/z', group('/z', { apps: new Map([['/z/x', makeApp({ id: '/z/x' })]]) })], ['/g', group('/g', { apps })]]) });
  t.same(allRunSpecs(root).map((s) => s.id), ['/g/a', '/g/c', '/z/x']);
});

t.test('withRunSpec replaces a run spec of the same id and kind', async (t) => {
  const root = rootWith(makeApp({ id: '/g/a', instances: 1 }));
  const next = ok(withRunSpec(root, makeApp({ id: '/g/a', instances: 3 }), OFF(5)));
  t.equal(findRunSpec(next, '/g/a')?.instances, 3);
  t.equal((findGroup(next, '/g') as Group).apps.size, 1);
});

t.test('one namespace for groups, apps and pods (fact 76)', async (t) => {
  const root = rootWith(makeApp({ id: '/g/app' }), makePod({ id: '/g/pod' }), makeApp({ id: '/busy/sub/x' }));
  const withEmpty = ok(putGroup(root, group('/g/empty', { groups: new Map([['/g/empty/deeper', group('/g/empty/deeper')]]) }), OFF(9)));
  const cases: [string, NamespaceKind, string | undefined][] = [
    ['/g/app', 'app', undefined],
    ['/g/app', 'pod', APP_POD_CONFLICT_MESSAGE],
    ['/g/app', 'group', APP_GROUP_CONFLICT_MESSAGE],
    ['/g/pod', 'pod', undefined],
    ['/g/pod', 'app', APP_POD_CONFLICT_MESSAGE],
    ['/g/pod', 'group', POD_GROUP_CONFLICT_MESSAGE],
    ['/g', 'app', APP_GROUP_CONFLICT_MESSAGE],
    ['/g', 'pod', POD_GROUP_CONFLICT_MESSAGE],
    ['/g', 'group', undefined],
    ['/busy', 'app', APP_GROUP_CONFLICT_MESSAGE],
    ['/g/empty', 'app', undefined],
    ['/g/empty', 'pod', undefined],
    ['/g/app/child', 'app', APP_GROUP_CONFLICT_MESSAGE],
    ['/g/app/child/deeper', 'group', APP_GROUP_CONFLICT_MESSAGE],
    ['/g/pod/child', 'pod', POD_GROUP_CONFLICT_MESSAGE],
    ['/new/deep/id', 'app', undefined],
    ['/', 'group', undefined],
  ];
  for (const [id, kind, message] of cases) {
    const got = namespaceConflict(withEmpty, id, kind);
    t.same(got, message === undefined ? undefined : { ok: false, error: 'namespace-conflict', message }, `${kind} at ${id}`);
  }
  t.match(withRunSpec(root, makePod({ id: '/g/app' }), OFF(9)), { ok: false, error: 'namespace-conflict', message: APP_POD_CONFLICT_MESSAGE });
  t.match(withRunSpec(root, makeApp({ id: '/g' }), OFF(9)), { ok: false, message: APP_GROUP_CONFLICT_MESSAGE });
  t.match(withRunSpec(root, makeApp({ id: '/g/app/x' }), OFF(9)), { ok: false, message: APP_GROUP_CONFLICT_MESSAGE });
  t.match(putGroup(root, group('/g/pod'), OFF(9)), { ok: false, message: POD_GROUP_CONFLICT_MESSAGE });
  t.match(updateGroup(root, '/g/app/sub', (g) => g, OFF(9)), { ok: false, message: APP_GROUP_CONFLICT_MESSAGE });
});

t.test('an app or pod replaces a group of the same id that holds no run spec (RootGroup.updateApp)', async (t) => {
  const root = ok(putGroup(emptyRoot(V0), group('/g/x', { groups: new Map([['/g/x/y', group('/g/x/y')]]) }), OFF(1)));
  const next = ok(withRunSpec(root, makePod({ id: '/g/x' }), OFF(2)));
  t.equal(findGroup(next, '/g/x'), undefined);
  t.equal(findRunSpec(next, '/g/x')?.kind, 'pod');
});

t.test('findGroup / findRunSpec', async (t) => {
  const root = rootWith(makeApp({ id: '/a/b/app' }), makePod({ id: '/a/pod' }));
  t.equal(findGroup(root, '/'), root);
  t.equal(findGroup(root, '/a/b')?.id, '/a/b');
  t.equal(findGroup(root, '/a/b/app'), undefined, 'an app is not a group');
  t.equal(findGroup(root, '/nope/x'), undefined);
  t.equal(findRunSpec(root, '/a/b/app')?.kind, 'app');
  t.equal(findRunSpec(root, '/a/pod')?.kind, 'pod');
  t.equal(findRunSpec(root, '/a'), undefined, 'a group is not a run spec');
  t.equal(findRunSpec(root, '/'), undefined);
  t.equal(findRunSpec(root, '/x/y/z'), undefined);
});

t.test('withoutRunSpec keeps the (now empty) group; unknown ids are refused', async (t) => {
  const root = rootWith(makeApp({ id: '/g/a' }), makePod({ id: '/g/p' }));
  const noApp = ok(withoutRunSpec(root, '/g/a', OFF(5)));
  t.same(allRunSpecs(noApp).map((s) => s.id), ['/g/p']);
  const empty = ok(withoutRunSpec(noApp, '/g/p', { version: versionAt(6) }));
  t.same(allRunSpecs(empty), []);
  t.ok(findGroup(empty, '/g'), 'the group stays');
  t.same(withoutRunSpec(root, '/g/nope', OFF(5)), { ok: false, error: 'unknown-run-spec', message: "Run spec '/g/nope' does not exist" });
  t.match(withoutRunSpec(root, '/g', OFF(5)), { ok: false, error: 'unknown-run-spec' }, 'a group is not a run spec');
});

t.test('putGroup adds or replaces a subtree, creating parents', async (t) => {
  const root = rootWith(makeApp({ id: '/top/old/x' }), makeApp({ id: '/other/y' }));
  const sub = group('/top/mid/leaf', {
    enforceRole: true,
    dependencies: ['/other'],
    apps: new Map([['/top/mid/leaf/b', makeApp({ id: '/top/mid/leaf/b' })], ['/top/mid/leaf/a', makeApp({ id: '/top/mid/leaf/a' })]]),
  });
  const next = ok(putGroup(root, sub, TOP(4)));
  const leaf = findGroup(next, '/top/mid/leaf') as Group;
  t.same([...leaf.apps.keys()], ['/top/mid/leaf/a', '/top/mid/leaf/b'], 'sorted');
  t.equal(leaf.enforceRole, false, 'enforceRole is dropped below the top level');
  t.same(leaf.dependencies, ['/other']);
  t.equal(findGroup(next, '/top/mid')?.enforceRole, false);
  t.equal(findGroup(next, '/top')?.enforceRole, false, 'an existing top-level group is not re-created');
  t.ok(findRunSpec(next, '/top/old/x'), 'siblings stay');
  t.same(versionsOf(next).map(([, v]) => v), Array(6).fill(versionAt(4)));

  const replaced = ok(putGroup(next, group('/top/mid'), OFF(5)));
  t.equal(findGroup(replaced, '/top/mid/leaf'), undefined, 'replace drops what the new group does not hold');

  const fresh = ok(putGroup(emptyRoot(V0), group('/newtop', { enforceRole: true }), OFF(1)));
  t.equal(findGroup(fresh, '/newtop')?.enforceRole, true, 'a top-level group keeps the enforceRole it is given');

  const whole = ok(putGroup(next, group('/', { apps: new Map([['/solo', makeApp({ id: '/solo' })]]) }), OFF(7)));
  t.same(allRunSpecs(whole).map((s) => s.id), ['/solo'], 'putting / replaces the tree');
  t.equal(whole.version, versionAt(7));
});

t.test('putGroup / updateGroup refuse subtrees whose children share an id', async (t) => {
  const clash = group('/g', {
    apps: new Map([['/g/x', makeApp({ id: '/g/x' })]]),
    groups: new Map([['/g/x', group('/g/x')]]),
  });
  t.same(treeConflict(clash), { ok: false, error: 'namespace-conflict', message: APP_GROUP_CONFLICT_MESSAGE });
  t.match(putGroup(emptyRoot(V0), clash, OFF(1)), { ok: false, message: APP_GROUP_CONFLICT_MESSAGE });
  const nested = group('/g', { groups: new Map([['/g/h', group('/g/h', {
    apps: new Map([['/g/h/x', makeApp({ id: '/g/h/x' })]]), pods: new Map([['/g/h/x', makePod({ id: '/g/h/x' })]]),
  })]]) });
  t.match(putGroup(emptyRoot(V0), nested, OFF(1)), { ok: false, message: APP_POD_CONFLICT_MESSAGE });
  const podGroup = group('/g', { pods: new Map([['/g/x', makePod({ id: '/g/x' })]]), groups: new Map([['/g/x', group('/g/x')]]) });
  t.match(updateGroup(emptyRoot(V0), '/g', () => podGroup, OFF(1)), { ok: false, message: POD_GROUP_CONFLICT_MESSAGE });
});

t.test('a child in the wrong place is a programmer error', async (t) => {
  const misplaced = group('/g', { apps: new Map([['/g/x', makeApp({ id: '/elsewhere/x' })]]) });
  t.throws(() => putGroup(emptyRoot(V0), misplaced, OFF(1)), /assertion failed/);
  const grandchild = group('/g', { apps: new Map([['/g/h/x', makeApp({ id: '/g/h/x' })]]) });
  t.throws(() => putGroup(emptyRoot(V0), grandchild, OFF(1)), /not a direct child/);
  t.throws(() => withRunSpec(emptyRoot(V0), makeApp({ id: 'relative' }), OFF(1)), /canonical/);
  t.throws(() => updateGroup(emptyRoot(V0), '/g', () => group('/h'), OFF(1)), /keep the id/);
});

t.test('removeGroup removes the subtree with its pods; / empties the tree; unknown is refused', async (t) => {
  const root = rootWith(makeApp({ id: '/g/a' }), makePod({ id: '/g/sub/p' }), makeApp({ id: '/h/b' }));
  const next = ok(removeGroup(root, '/g', OFF(5)));
  t.same(allRunSpecs(next).map((s) => s.id), ['/h/b']);
  t.same(allGroups(next).map((g) => g.id), ['/', '/h']);
  t.equal(next.version, versionAt(5));
  const inner = ok(removeGroup(root, '/g/sub', { version: versionAt(6) }));
  t.same(allRunSpecs(inner).map((s) => s.id), ['/g/a', '/h/b']);
  const all = ok(removeGroup(root, '/', OFF(7)));
  t.same(all, emptyRoot(versionAt(7)));
  t.same(removeGroup(root, '/nope', OFF(5)), { ok: false, error: 'unknown-group', message: "Group '/nope' does not exist" });
  t.match(removeGroup(root, '/g/a', OFF(5)), { ok: false, error: 'unknown-group' }, 'an app is not a group');
});

t.test('setEnforceRole: top-level only, no new version (PATCH /v2/groups, fact 72)', async (t) => {
  const root = rootWith(makeApp({ id: '/dev/sub/a' }));
  const on = ok(setEnforceRole(root, '/dev', true));
  t.equal(findGroup(on, '/dev')?.enforceRole, true);
  t.same(versionsOf(on), versionsOf(root), 'versions are unchanged');
  t.equal(findRunSpec(on, '/dev/sub/a'), findRunSpec(root, '/dev/sub/a'), 'run specs are untouched');
  t.equal(ok(setEnforceRole(on, '/dev', true)), on, 'no change → the same root');
  t.equal(findGroup(ok(setEnforceRole(on, '/dev', false)), '/dev')?.enforceRole, false);
  t.same(setEnforceRole(root, '/dev/sub', true), { ok: false, error: 'not-top-level', message: NOT_TOP_LEVEL_MESSAGE });
  t.equal(NOT_TOP_LEVEL_MESSAGE, 'Path needs to be top-level');
  t.match(setEnforceRole(root, '/', true), { ok: false, error: 'not-top-level' });
  t.match(setEnforceRole(root, '/nope/deeper', true), { ok: false, error: 'not-top-level' }, 'top-level is checked first');
  t.same(setEnforceRole(root, '/nope', true), { ok: false, error: 'unknown-group', message: "Group '/nope' does not exist" });
});

t.test('updateGroup applies fn to an existing or a new group and stamps the version', async (t) => {
  const root = rootWith(makeApp({ id: '/g/a' }));
  const withDeps = ok(updateGroup(root, '/g', (g) => ({ ...g, dependencies: ['/db'] }), OFF(3)));
  t.same(findGroup(withDeps, '/g')?.dependencies, ['/db']);
  t.ok(findRunSpec(withDeps, '/g/a'));
  t.equal(findGroup(withDeps, '/g')?.version, versionAt(3));
  let seen: Group | undefined;
  const created = ok(updateGroup(root, '/new/deep', (g) => {
    seen = g;
    return { ...g, apps: new Map([['/new/deep/x', makeApp({ id: '/new/deep/x' })]]), enforceRole: true };
  }, TOP(4)));
  t.same(seen?.apps.size, 0, 'a missing group is handed over empty');
  t.equal(findGroup(created, '/new')?.enforceRole, true, 'a created top-level parent follows the option');
  t.equal(findGroup(created, '/new/deep')?.enforceRole, false, 'enforceRole is dropped below the top level');
  t.ok(findRunSpec(created, '/new/deep/x'));
  const rootUpdate = ok(updateGroup(root, '/', (g) => ({ ...g, dependencies: ['/x'] }), OFF(5)));
  t.same(rootUpdate.dependencies, ['/x']);
});
