import t from 'tap';
import { computePlan } from '../../../../src/scheduler/deployments/compute-plan';
import type { DeploymentPlan } from '../../../../src/scheduler/model/deployment-plan';
import type { Group } from '../../../../src/scheduler/groups/group';
import type { RunSpec } from '../../../../src/scheduler/model/run-spec';
import type { AppSpec } from '../../../../src/scheduler/model/app';
import type { PodSpec } from '../../../../src/scheduler/model/pod';
import { makeApp, makePod, versionAt } from '../../../builders/run-spec-builders';

// --- small hand-built trees --------------------------------------------------------------------

interface GroupParts {
  readonly apps?: readonly AppSpec[];
  readonly pods?: readonly PodSpec[];
  readonly groups?: readonly Group[];
  readonly dependencies?: readonly string[];
}

const V1 = versionAt(100);
const V2 = versionAt(200);

function group(id: string, parts: GroupParts = {}, version = V1): Group {
  const byId = <T extends { readonly id: string }>(items: readonly T[] = []): Map<string, T> =>
    new Map([...items].sort((a, b) => (a.id < b.id ? -1 : 1)).map((item) => [item.id, item]));
  return {
    id,
    apps: byId(parts.apps),
    pods: byId(parts.pods),
    groups: byId(parts.groups),
    dependencies: parts.dependencies ?? [],
    enforceRole: false,
    version,
  };
}

/** A root at version `version` holding `parts`. */
function root(parts: GroupParts, version = V1): Group {
  return group('/', parts, version);
}

/** Marathon's effective dependencies: the run spec's own plus its groups', groups expanded. */
function dependenciesOf(runSpecId: string, rootGroup: Group): readonly string[] {
  const direct: string[] = [];
  const specs = new Map<string, RunSpec>();
  const groups = new Map<string, Group>();
  const walk = (g: Group, inherited: readonly string[]): void => {
    groups.set(g.id, g);
    const here = [...inherited, ...g.dependencies];
    for (const spec of [...g.apps.values(), ...g.pods.values()]) {
      specs.set(spec.id, spec);
      if (spec.id === runSpecId) {
        direct.push(...here, ...(spec.kind === 'app' ? spec.dependencies : []));
      }
    }
    for (const child of g.groups.values()) walk(child, here);
  };
  walk(rootGroup, []);
  const expand = (id: string): string[] => {
    if (specs.has(id)) return [id];
    const g = groups.get(id);
    if (g === undefined) return [];
    return [...g.apps.keys(), ...g.pods.keys(), ...[...g.groups.keys()].flatMap(expand)];
  };
  return [...new Set(direct.flatMap(expand))].filter((id) => id !== runSpecId);
}

function plan(original: Group, target: Group): DeploymentPlan {
  return computePlan(original, target, { id: 'plan-1', version: target.version, dependenciesOf });
}

/** Steps as `Action:/id` strings, for compact assertions. */
function stepsOf(p: DeploymentPlan): string[][] {
  return p.steps.map((s) => s.actions.map((a) => `${a.action}:${a.runSpecId}`));
}

function app(id: string, o: Parameters<typeof makeApp>[0] = {}, dependencies: readonly string[] = []): AppSpec {
  return makeApp({ id, version: V1, dependencies, ...o });
}

// --- tests -------------------------------------------------------------------------------------

t.test('a new app is started with 0 instances, then scaled', async (t) => {
  const p = plan(root({}), root({ apps: [app('/app', { instances: 2 })] }, V2));
  t.same(stepsOf(p), [['StartApplication:/app'], ['ScaleApplication:/app']]);
  t.same(p.steps[0].actions[0], { action: 'StartApplication', runSpecId: '/app', kind: 'app' });
  t.same(p.affectedRunSpecIds, ['/app']);
  t.equal(p.id, 'plan-1');
  t.equal(p.originalVersion, V1);
  t.equal(p.targetVersion, V2);
});

t.test('a new pod uses the pod action names', async (t) => {
  const pod = makePod({ id: '/pod', version: V2 });
  const p = plan(root({}), root({ pods: [pod] }, V2));
  t.same(stepsOf(p), [['StartPod:/pod'], ['ScalePod:/pod']]);
  t.equal(p.steps[1].actions[0].kind, 'pod');
});

t.test('a scale-only change scales', async (t) => {
  const before = app('/app', { instances: 1 });
  const after = app('/app', { instances: 5, version: V2, versionInfo: { lastScalingAt: V2, lastConfigChangeAt: V1 } });
  t.same(stepsOf(plan(root({ apps: [before] }), root({ apps: [after] }, V2))), [['ScaleApplication:/app']]);
  const pod = makePod({ id: '/pod', instances: 1 });
  t.same(stepsOf(plan(root({ pods: [pod] }), root({ pods: [makePod({ id: '/pod', instances: 3 })] }, V2))), [['ScalePod:/pod']]);
});

t.test('scaling to 0 scales, even together with a config change (Marathon isScaledToZero)', async (t) => {
  const before = app('/app', { instances: 3 });
  t.same(stepsOf(plan(root({ apps: [before] }), root({ apps: [app('/app', { instances: 0 })] }, V2))), [['ScaleApplication:/app']]);
  const changed = app('/app', { instances: 0, cmd: 'other', versionInfo: { lastScalingAt: V2, lastConfigChangeAt: V2 } });
  t.same(stepsOf(plan(root({ apps: [before] }), root({ apps: [changed] }, V2))), [['ScaleApplication:/app']]);
});

t.test('a config change restarts', async (t) => {
  const before = app('/app', { cmd: 'sleep 1' });
  const cases: [string, AppSpec][] = [
    ['command', app('/app', { cmd: 'sleep 2' })],
    ['command and instances', app('/app', { cmd: 'sleep 2', instances: 4 })],
    ['resources', app('/app', { cmd: 'sleep 1', mem: 64 })],
    ['labels', app('/app', { cmd: 'sleep 1', labels: { team: 'a' } })],
    ['upgradeStrategy', app('/app', { cmd: 'sleep 1', upgrade: { minimumHealthCapacity: 0.5, maximumOverCapacity: 0 } })],
    ['killSelection', app('/app', { cmd: 'sleep 1', killSelection: 'OLDEST_FIRST' })],
    ['dependencies', app('/app', { cmd: 'sleep 1' }, ['/other'])],
  ];
  for (const [what, after] of cases) {
    t.same(stepsOf(plan(root({ apps: [before] }), root({ apps: [after] }, V2))), [['RestartApplication:/app']], what);
  }
  const pod = makePod({ id: '/pod' });
  const podAfter = makePod({ id: '/pod', labels: { a: 'b' } });
  t.same(stepsOf(plan(root({ pods: [pod] }), root({ pods: [podAfter] }, V2))), [['RestartPod:/pod']], 'pod label');
});

t.test('a restart (same definition, new lastConfigChangeAt) restarts', async (t) => {
  const before = app('/app', { instances: 2 });
  const after = app('/app', { instances: 2, version: V2, versionInfo: { lastScalingAt: V1, lastConfigChangeAt: V2 } });
  const p = plan(root({ apps: [before] }), root({ apps: [after] }, V2));
  t.same(stepsOf(p), [['RestartApplication:/app']]);
  t.same(p.affectedRunSpecIds, ['/app']);
});

t.test('a removed run spec is stopped', async (t) => {
  const p = plan(root({ apps: [app('/app')], pods: [makePod({ id: '/pod' })] }), root({}, V2));
  t.same(stepsOf(p), [['StopApplication:/app', 'StopPod:/pod']]);
  t.same(p.affectedRunSpecIds, ['/app', '/pod']);
});

t.test('an unchanged target gives a zero-step plan', async (t) => {
  const tree = { apps: [app('/a'), app('/b', {}, ['/a'])], pods: [makePod({ id: '/p' })] };
  const p = plan(root(tree), root(tree, V2));
  t.same(p.steps, []);
  t.same(p.affectedRunSpecIds, []);
  t.equal(p.targetVersion, V2);
  const moved = app('/a', { version: V2, versionInfo: { lastScalingAt: V1, lastConfigChangeAt: V1 } });
  t.same(plan(root({ apps: [app('/a')] }), root({ apps: [moved] }, V2)).steps, [], 'a bare version move is no change');
});

t.test('dependencies first: db before service (fact 124)', async (t) => {
  const db = app('/g/db');
  const service = app('/g/service', {}, ['/g/db']);
  const created = plan(root({}), root({ groups: [group('/g', { apps: [db, service] }, V2)] }, V2));
  t.same(stepsOf(created), [
    ['StartApplication:/g/db', 'StartApplication:/g/service'],
    ['ScaleApplication:/g/db'],
    ['ScaleApplication:/g/service'],
  ]);
  const target = root({ groups: [group('/g', { apps: [db, service] })] });
  const upgraded = root({ groups: [group('/g', { apps: [app('/g/db', { cmd: 'v2' }), app('/g/service', { cmd: 'v2' }, ['/g/db'])] }, V2)] }, V2);
  t.same(stepsOf(plan(target, upgraded)), [['RestartApplication:/g/db'], ['RestartApplication:/g/service']]);
});

t.test('three layers, from group dependencies, with a pod inheriting its group\'s dependency', async (t) => {
  const target = root({
    groups: [group('/g', {
      groups: [
        group('/g/db', { apps: [app('/g/db/db1')] }),
        group('/g/service', { apps: [app('/g/service/service1')], pods: [makePod({ id: '/g/service/sidecar' })], dependencies: ['/g/db'] }),
        group('/g/frontend', { apps: [app('/g/frontend/frontend1')], dependencies: ['/g/service'] }),
      ],
    })],
  }, V2);
  const p = plan(root({}), target);
  t.same(stepsOf(p), [
    ['StartApplication:/g/db/db1', 'StartApplication:/g/frontend/frontend1', 'StartApplication:/g/service/service1', 'StartPod:/g/service/sidecar'],
    ['ScaleApplication:/g/db/db1'],
    ['ScaleApplication:/g/service/service1', 'ScalePod:/g/service/sidecar'],
    ['ScaleApplication:/g/frontend/frontend1'],
  ]);
  t.same(p.affectedRunSpecIds, ['/g/db/db1', '/g/frontend/frontend1', '/g/service/service1', '/g/service/sidecar']);
});

t.test('layers follow the whole target graph, through unchanged run specs', async (t) => {
  const a = app('/a');
  const b = app('/b', {}, ['/a']);
  const c = app('/c', {}, ['/b']);
  const p = plan(root({ apps: [a, b, c] }), root({ apps: [app('/a', { cmd: 'x' }), b, app('/c', { cmd: 'x' }, ['/b'])] }, V2));
  t.same(stepsOf(p), [['RestartApplication:/a'], ['RestartApplication:/c']], 'b unchanged, still separates a from c');
  t.same(p.affectedRunSpecIds, ['/a', '/c']);
});

t.test('stops are one parallel step with no dependency order (Marathon DeploymentPlan.apply)', async (t) => {
  const db = app('/g/db');
  const service = app('/g/service', {}, ['/g/db']);
  const frontend = app('/g/frontend', {}, ['/g/service']);
  const p = plan(root({ groups: [group('/g', { apps: [db, service, frontend] })] }), root({}, V2));
  t.same(stepsOf(p), [['StopApplication:/g/db', 'StopApplication:/g/frontend', 'StopApplication:/g/service']]);
});

t.test('a dependency on a run spec missing from the target is ignored', async (t) => {
  const p = plan(root({ apps: [app('/old')] }), root({ apps: [app('/new', {}, ['/old', '/nowhere'])] }, V2));
  t.same(stepsOf(p), [['StopApplication:/old'], ['StartApplication:/new'], ['ScaleApplication:/new']]);
});

t.test('a mixed change (Marathon DeploymentPlanTest "dependent and independent applications")', async (t) => {
  const mongo = (cmd: string, instances: number): AppSpec => app('/test/database/mongo', { cmd, instances });
  const srv = (cmd: string, instances: number, deps: string[]): AppSpec => app('/test/service/srv1', { cmd, instances }, deps);
  const independent = (cmd: string, instances: number): AppSpec => app('/test/independent/app', { cmd, instances });
  const toStop = app('/test/service/to-stop', {}, ['/test/database/mongo']);
  const toStart = app('/test/service/to-start', { instances: 2 }, ['/test/service/srv1']);
  const scaled = app('/test/scaled', { instances: 1 });
  const unchanged = app('/test/unchanged');
  const from = root({ groups: [group('/test', {
    apps: [scaled, unchanged],
    groups: [
      group('/test/database', { apps: [mongo('mng1', 4)] }),
      group('/test/service', { apps: [srv('srv1', 4, []), toStop] }),
      group('/test/independent', { apps: [independent('app1', 1)] }),
    ],
  })] });
  const to = root({ groups: [group('/test', {
    apps: [app('/test/scaled', { instances: 7 }), unchanged],
    groups: [
      group('/test/database', { apps: [mongo('mng2', 8)] }, V2),
      group('/test/service', { apps: [srv('srv2', 10, ['/test/database/mongo']), toStart] }, V2),
      group('/test/independent', { apps: [independent('app2', 3)] }, V2),
    ],
  }, V2)] }, V2);
  const p = plan(from, to);
  t.same(stepsOf(p), [
    ['StopApplication:/test/service/to-stop'],
    ['StartApplication:/test/service/to-start'],
    ['RestartApplication:/test/database/mongo', 'RestartApplication:/test/independent/app', 'ScaleApplication:/test/scaled'],
    ['RestartApplication:/test/service/srv1'],
    ['ScaleApplication:/test/service/to-start'],
  ]);
  t.same(p.affectedRunSpecIds, [
    '/test/database/mongo', '/test/independent/app', '/test/scaled', '/test/service/srv1', '/test/service/to-start', '/test/service/to-stop',
  ]);
});

t.test('deterministic: the same plan whatever the insertion order of the trees', async (t) => {
  const specs = [app('/c', {}, ['/a']), app('/a'), app('/b')];
  const shuffled: Group = { ...root({}, V2), apps: new Map(specs.map((s) => [s.id, s])) };
  const ordered = root({ apps: specs }, V2);
  t.same(plan(root({}), shuffled), plan(root({}), ordered));
  t.same(stepsOf(plan(root({}), ordered)), [
    ['StartApplication:/a', 'StartApplication:/b', 'StartApplication:/c'],
    ['ScaleApplication:/a', 'ScaleApplication:/b'],
    ['ScaleApplication:/c'],
  ]);
});

t.test('programmer errors are assertions', async (t) => {
  const cyclic = root({ apps: [app('/a', {}, ['/b']), app('/b', {}, ['/a'])] }, V2);
  t.throws(() => plan(root({}), cyclic), { name: 'AssertionError', message: /dependency cycle/ });
  t.throws(() => computePlan(root({}), root({}, V2), { id: 'x', version: V1, dependenciesOf }),
    { name: 'AssertionError', message: /target root's version/ });
  t.throws(() => plan(root({ apps: [app('/x')] }), root({ pods: [makePod({ id: '/x' })] }, V2)),
    { name: 'AssertionError', message: /cannot change from app to pod/ });
});
