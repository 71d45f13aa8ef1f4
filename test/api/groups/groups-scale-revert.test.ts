import t from 'tap';
import { scaledCount } from '../../../src/scheduler/groups/scale-group';
import { findRunSpec } from '../../../src/scheduler/groups/tree-query';
import { makePod } from '../../builders/run-spec-builders';
import { appBody, groupKit, obj, objs } from './group-test-kit';

t.test('scaleBy multiplies every app below the group, rounding up; pods are left alone (fact 71)', async (t) => {
  const kit = groupKit(t);
  await kit.request('POST', '/v2/groups', { id: '/g', apps: [appBody('a', { instances: 3 })], groups: [{ id: 'sub', apps: [appBody('b', { instances: 1 }), appBody('z', { instances: 0 })] }] });
  t.equal(kit.harness.put(makePod({ id: '/g/p', instances: 1 })).ok, true);
  kit.settle();
  const before = findRunSpec(kit.deps.scheduler.root(), '/g/a');
  kit.harness.advance(1000);
  const res = await kit.request('PUT', '/v2/groups/g', { scaleBy: 1.5 });
  t.equal(res.statusCode, 200);
  t.equal(res.headers['marathon-deployment-id'], obj(res.json).deploymentId);
  const root = kit.deps.scheduler.root();
  const a = findRunSpec(root, '/g/a');
  t.equal(a?.instances, 5, 'ceil(3 × 1.5)');
  t.equal(findRunSpec(root, '/g/sub/b')?.instances, 2, 'ceil(1 × 1.5)');
  t.equal(findRunSpec(root, '/g/sub/z')?.version, findRunSpec(kit.deps.scheduler.root(), '/g/sub/z')?.version);
  t.equal(findRunSpec(root, '/g/sub/z')?.instances, 0);
  t.equal(findRunSpec(root, '/g/p')?.instances, 1, 'pods are not scaled');
  t.equal(a?.versionInfo.lastConfigChangeAt, before?.versionInfo.lastConfigChangeAt, 'a scale-only change');
  t.not(a?.versionInfo.lastScalingAt, before?.versionInfo.lastScalingAt);
  const deployments = objs((await kit.request('GET', '/v2/deployments')).json);
  t.same(deployments[0].steps, [{ actions: [{ action: 'ScaleApplication', app: '/g/a' }, { action: 'ScaleApplication', app: '/g/sub/b' }] }]);
  t.equal((await kit.request('PUT', '/v2/groups/nope', { scaleBy: 2 })).statusCode, 404);
});

t.test('scaledCount ignores floating-point noise', async (t) => {
  const table: [number, number, number][] = [[10, 0.3, 3], [3, 1.5, 5], [1, 0.1, 1], [0, 5, 0], [4, 0, 0], [7, 1, 7]];
  for (const [instances, factor, expected] of table) t.equal(scaledCount(instances, factor), expected, `${instances} × ${factor}`);
});

t.test('{"version": v} reverts the group to a stored version (fact 71)', async (t) => {
  const kit = groupKit(t);
  const v1 = String(obj((await kit.request('POST', '/v2/groups', { id: '/g', apps: [appBody('a', { cmd: 'sleep 1' })] })).json).version);
  kit.settle();
  const a1 = findRunSpec(kit.deps.scheduler.root(), '/g/a');
  kit.harness.advance(1000);
  await kit.request('PUT', '/v2/groups/g', { apps: [appBody('a', { cmd: 'sleep 2' }), appBody('b')] });
  kit.settle();
  kit.harness.advance(1000);
  const res = await kit.request('PUT', '/v2/groups/g', { version: v1 });
  t.equal(res.statusCode, 200);
  const root = kit.deps.scheduler.root();
  const reverted = findRunSpec(root, '/g/a');
  t.equal(reverted?.kind === 'app' ? reverted.cmd : undefined, 'sleep 1');
  t.notOk(findRunSpec(root, '/g/b'), 'b did not exist then');
  t.not(findRunSpec(root, '/g/a')?.version, a1?.version, 'the reverted app is a new version (a restart)');
  const steps = objs(objs((await kit.request('GET', '/v2/deployments')).json)[0].steps);
  t.same(steps, [
    { actions: [{ action: 'StopApplication', app: '/g/b' }] },
    { actions: [{ action: 'RestartApplication', app: '/g/a' }] },
  ]);
  const sameAgain = await kit.request('PUT', '/v2/groups/g?force=true', { version: v1.replace('.000Z', 'Z') });
  t.equal(sameAgain.statusCode, 200, 'any ISO form of a stored version');
});

t.test('an unknown version → 422 "Group /g not available in version <v>"', async (t) => {
  const kit = groupKit(t);
  await kit.request('POST', '/v2/groups', { id: '/g' });
  const res = await kit.request('PUT', '/v2/groups/g', { version: '2001-02-03T04:05:06.007Z' });
  t.equal(res.statusCode, 422);
  t.same(res.json, { message: 'Group /g not available in version 2001-02-03T04:05:06.007Z' });
});

t.test('dryRun=true answers the plan\'s steps and changes nothing (fact 60)', async (t) => {
  const kit = groupKit(t);
  const rootBefore = kit.deps.scheduler.root();
  const eventsBefore = kit.harness.log.length;
  const res = await kit.request('PUT', '/v2/groups/test?dryRun=true', { id: '/test', apps: [appBody('/test/app')] });
  t.equal(res.statusCode, 200);
  t.same(res.json, { steps: [
    { actions: [{ action: 'StartApplication', app: '/test/app' }] },
    { actions: [{ action: 'ScaleApplication', app: '/test/app' }] },
  ] });
  t.notOk('marathon-deployment-id' in res.headers);
  t.equal(kit.deps.scheduler.root(), rootBefore, 'the root is unchanged');
  t.equal(kit.harness.log.length, eventsBefore, 'no event');
  t.same((await kit.request('GET', '/v2/deployments')).json, []);
  const dependent = await kit.request('PUT', '/v2/groups/d?dryRun', { apps: [appBody('db'), appBody('web', { dependencies: ['db'] })] });
  t.same(obj(dependent.json).steps, [
    { actions: [{ action: 'StartApplication', app: '/d/db' }, { action: 'StartApplication', app: '/d/web' }] },
    { actions: [{ action: 'ScaleApplication', app: '/d/db' }] },
    { actions: [{ action: 'ScaleApplication', app: '/d/web' }] },
  ], 'dependencies order the steps (fact 124)');
  const invalid = await kit.request('PUT', '/v2/groups/d?dryRun=true', { apps: [{ id: 'x' }] });
  t.equal(invalid.statusCode, 422, 'a dry run validates too');
});

t.test('dryRun=true of a group whose app has a dynamic service port: the plan the change gets, no restart', async (t) => {
  // The clean-clone trial of 2026-12-01: the group's own definition again answered
  // RestartApplication (port 0 against the assigned 10000), while the change made restarted nothing.
  const rows: { name: string; instances: number; steps: unknown[] }[] = [
    { name: 'the same definition', instances: 1, steps: [] },
    { name: 'a scale', instances: 3, steps: [{ actions: [{ action: 'ScaleApplication', app: '/w/web' }] }] },
  ];
  for (const row of rows) {
    const kit = groupKit(t);
    const web = (instances: number) => appBody('web', { instances, portDefinitions: [{ port: 0 }] });
    t.equal((await kit.request('POST', '/v2/groups', { id: '/w', apps: [web(1)] })).statusCode, 201);
    const res = await kit.request('PUT', '/v2/groups/w?dryRun=true', { apps: [web(row.instances)] });
    t.equal(res.statusCode, 200, row.name);
    t.same(res.json, { steps: row.steps }, `${row.name}: steps`);
  }
});
