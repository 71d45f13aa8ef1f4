import t from 'tap';
import { makeApp, makePod, versionAt } from '../../../builders/run-spec-builders';
import {
  CYCLIC_DEPENDENCIES_MESSAGE, dependencyCycle, dependencyGraph, effectiveDependencies,
} from '../../../../src/scheduler/groups/dependencies';
import { podFromWire } from '../../../../src/marathon/convert/pod-from-wire';
import type { Group } from '../../../../src/scheduler/groups/group';
import type { GroupResult } from '../../../../src/scheduler/groups/group-result';
import { emptyRoot, withRunSpec, updateGroup } from '../../../../src/scheduler/groups/root-group';
import type { RunSpec } from '../../../../src/scheduler/model/run-spec';
import type { AppSpec } from '../../../../src/scheduler/model/app';

const OPTS = { version: versionAt(1), newGroupEnforceRole: 'off' } as const;

function ok(r: GroupResult): Group {
  if (!r.ok) throw new Error(`${r.error}: ${r.message}`);
  return r.root;
}

/** A root with these run specs and these group dependencies. */
function tree(specs: RunSpec[], groupDeps: Record<string, string[]> = {}): Group {
  let root = specs.reduce((r, s) => ok(withRunSpec(r, s, OPTS)), emptyRoot(versionAt(0)));
  for (const [id, deps] of Object.entries(groupDeps)) root = ok(updateGroup(root, id, (g) => ({ ...g, dependencies: deps }), OPTS));
  return root;
}

const app = (id: string, dependencies?: string[]): AppSpec => makeApp({ id, ...(dependencies ? { dependencies } : {}) });

t.test('an app\'s own dependencies, relative ids resolved against its group (fact 66)', async (t) => {
  const root = tree([
    app('/prod/db'), app('/prod/cache'), app('/shared/log'),
    app('/prod/web', ['../prod/db', './cache', '/shared/log', 'missing']),
    app('/prod/api', ['db']),
  ]);
  t.same(effectiveDependencies(root, '/prod/web'), ['/prod/cache', '/prod/db', '/shared/log'], 'sorted; unknown ids ignored');
  t.same(effectiveDependencies(root, '/prod/api'), ['/prod/db']);
  t.same(effectiveDependencies(root, '/prod/db'), []);
  t.same(effectiveDependencies(root, '/nope'), [], 'unknown run spec');
});

t.test('a dependency on a group means every run spec under it', async (t) => {
  const root = tree([app('/db/mongo'), makePod({ id: '/db/sub/redis' }), app('/web', ['/db'])]);
  t.same(effectiveDependencies(root, '/web'), ['/db/mongo', '/db/sub/redis']);
});

t.test('group dependencies are inherited by everything below, pods included (spec rule 9)', async (t) => {
  const root = tree([
    app('/backend/db'), app('/infra/dns'),
    makePod({ id: '/frontend/pod' }), app('/frontend/web/app', ['/infra/dns']), makePod({ id: '/frontend/web/deep/pod' }),
    app('/frontend/web/relative'),
  ], { '/frontend': ['/backend'], '/frontend/web': ['../../infra/dns'] });
  t.same(effectiveDependencies(root, '/frontend/pod'), ['/backend/db'], 'a pod inherits its group\'s dependencies');
  t.same(effectiveDependencies(root, '/frontend/web/deep/pod'), ['/backend/db', '/infra/dns'], 'from every ancestor group');
  t.same(effectiveDependencies(root, '/frontend/web/app'), ['/backend/db', '/infra/dns'], 'own and inherited, deduplicated');
  t.same(effectiveDependencies(root, '/frontend/web/relative'), ['/backend/db', '/infra/dns'], 'relative group dependencies resolve against the group');
  t.same(effectiveDependencies(root, '/backend/db'), []);
});

t.test('root dependencies apply to everything; a group dependency on an app works too', async (t) => {
  const root = tree([app('/base'), app('/g/x')], { '/': ['/base'], '/g': ['/base'] });
  t.same(effectiveDependencies(root, '/g/x'), ['/base']);
  t.same(effectiveDependencies(root, '/base'), ['/base'], 'the root depending on /base makes /base depend on itself');
  t.same(dependencyCycle(root), ['/base', '/base']);
});

t.test('pods declare no dependencies of their own (spec rule 8)', async (t) => {
  const converted = podFromWire({ id: '/pod', dependencies: ['/db'], containers: [{ name: 'c', resources: { cpus: 0.1, mem: 32 } }] }, { defaultRole: '*', versionIso: versionAt(0) });
  if (!converted.ok) throw new Error(JSON.stringify(converted.errors));
  t.notOk('dependencies' in converted.spec, 'the model has no dependencies for a pod');
  const root = tree([app('/db'), converted.spec]);
  t.same(effectiveDependencies(root, '/pod'), []);
});

t.test('dependencyGraph holds the run specs that have dependencies and is cached per root', async (t) => {
  const root = tree([app('/b', ['/a']), app('/a'), makePod({ id: '/g/p' })], { '/g': ['/b'] });
  const graph = dependencyGraph(root);
  t.same(new Map(graph), new Map([['/b', ['/a']], ['/g/p', ['/b']]]), 'no entry for /a: a run spec without dependencies costs nothing');
  t.same(effectiveDependencies(root, '/a'), [], 'and its list is empty');
  t.equal(dependencyGraph(root), graph, 'same root → same graph object');
  const copy = effectiveDependencies(root, '/b');
  copy.push('/mutated');
  t.same(effectiveDependencies(root, '/b'), ['/a'], 'callers get a copy');
});

t.test('dependencyCycle', async (t) => {
  const cases: [string, Group, string[] | undefined][] = [
    ['acyclic chain', tree([app('/a', ['/b']), app('/b', ['/c']), app('/c')]), undefined],
    ['diamond', tree([app('/a', ['/b', '/c']), app('/b', ['/d']), app('/c', ['/d']), app('/d')]), undefined],
    ['two apps', tree([app('/a', ['/b']), app('/b', ['/a'])]), ['/a', '/b', '/a']],
    ['three apps', tree([app('/x', ['/y']), app('/y', ['/z']), app('/z', ['/y'])]), ['/y', '/z', '/y']],
    ['self', tree([app('/a', ['/a'])]), ['/a', '/a']],
    ['relative self', tree([app('/g/a', ['./a'])]), ['/g/a', '/g/a']],
    ['groups (Marathon RootGroupTest)', tree([app('/test/database/db'), app('/test/service/srv')],
      { '/test/database': ['/test/service'], '/test/service': ['/test/database'] }), ['/test/database/db', '/test/service/srv', '/test/database/db']],
    ['a group depending on its own subgroup', tree([app('/g/sub/a')], { '/g': ['/g/sub'] }), ['/g/sub/a', '/g/sub/a']],
    ['pod through its group', tree([makePod({ id: '/p/pod' }), app('/q/app', ['/p'])], { '/p': ['/q'] }), ['/p/pod', '/q/app', '/p/pod']],
    ['empty', emptyRoot(versionAt(0)), undefined],
  ];
  for (const [name, root, want] of cases) t.same(dependencyCycle(root), want, name);
  t.equal(CYCLIC_DEPENDENCIES_MESSAGE, 'Dependency graph has cyclic dependencies.');
});

t.test('dependencyCycle handles long chains without recursion', async (t) => {
  const n = 5000;
  const specs = Array.from({ length: n }, (_, i) => app(`/c${i}`, i + 1 < n ? [`/c${i + 1}`] : []));
  let root = emptyRoot(versionAt(0));
  root = ok(updateGroup(root, '/', (g) => ({ ...g, apps: new Map(specs.map((s) => [s.id, s] as const)) }), OPTS));
  t.equal(dependencyCycle(root), undefined);
});
