import t from 'tap';
import { findRunSpec } from '../../../src/scheduler/groups/tree-query';
import { makeOffer } from '../../builders/cluster-builders';
import { makePod } from '../../builders/run-spec-builders';
import { appBody, groupKit, obj, objs } from '../groups/group-test-kit';

/** A kit with app /g/a (2 instances) whose deployment waits for offers. */
async function waiting(t: Parameters<typeof groupKit>[0]): Promise<{ kit: ReturnType<typeof groupKit>; id: string; version: string }> {
  const kit = groupKit(t);
  const res = obj((await kit.request('POST', '/v2/groups', { id: '/g', apps: [appBody('a', { instances: 2, cpus: 1 })] })).json);
  return { kit, id: String(res.deploymentId), version: String(res.version) };
}

t.test('GET /v2/deployments with nothing running → 200 []', async (t) => {
  const kit = groupKit(t);
  const res = await kit.request('GET', '/v2/deployments');
  t.equal(res.statusCode, 200);
  t.same(res.json, []);
});

t.test('a deployment waiting for offers: Marathon\'s fields exactly, no extras by default (facts 59, 60)', async (t) => {
  const { kit, id, version } = await waiting(t);
  const list = objs((await kit.request('GET', '/v2/deployments')).json);
  t.equal(list.length, 1);
  t.same(list[0], {
    id, version,
    affectedApps: ['/g/a'],
    affectedPods: [],
    steps: [
      { actions: [{ action: 'StartApplication', app: '/g/a' }] },
      { actions: [{ action: 'ScaleApplication', app: '/g/a' }] },
    ],
    currentActions: [{ action: 'ScaleApplication', app: '/g/a', readinessCheckResults: [] }],
    currentStep: 2,
    totalSteps: 2,
  });
});

t.test('embed=waitingFor says why the current actions wait (issue 4)', async (t) => {
  const { kit } = await waiting(t);
  kit.harness.offer(makeOffer({ cpus: 0.5 }));
  const small = objs(objs((await kit.request('GET', '/v2/deployments?embed=waitingFor')).json)[0].currentActions)[0];
  t.match(small.waitingFor, { unplaced: 2, rejections: { InsufficientCpus: 1 }, notHealthy: 0, toReplace: 0 }, 'offers refused for lack of cpus');
  const launched = kit.harness.offer(makeOffer({ cpus: 1.5 }));
  t.equal(launched.length, 1);
  const one = objs(objs((await kit.request('GET', '/v2/deployments?embed=waitingFor')).json)[0].currentActions)[0];
  t.match(one.waitingFor, { unplaced: 1, notHealthy: 1, toReplace: 0 }, 'one placed, not running yet');
  const plain = objs(objs((await kit.request('GET', '/v2/deployments?embed=other')).json)[0].currentActions)[0];
  t.notOk('waitingFor' in plain, 'only embed=waitingFor adds it');
  kit.harness.run(launched);
  kit.settle();
  t.same((await kit.request('GET', '/v2/deployments?embed=waitingFor')).json, [], 'done');
});

t.test('a done action of a running step waits for nothing: waitingFor {}', async (t) => {
  const kit = groupKit(t);
  await kit.request('POST', '/v2/groups', { id: '/g', apps: [appBody('a'), appBody('b', { cpus: 8 })] });
  kit.harness.run(kit.harness.offer(makeOffer({ cpus: 1 })));
  const actions = objs(objs((await kit.request('GET', '/v2/deployments?embed=waitingFor')).json)[0].currentActions);
  t.same(actions.map((a) => a.app), ['/g/a', '/g/b']);
  t.same(actions[0].waitingFor, {}, 'a is running');
  t.match(actions[1].waitingFor, { unplaced: 1, rejections: { InsufficientCpus: 1 }, notHealthy: 0, toReplace: 0 });
});

t.test('pod actions use the key pod and …Pod names (fact 59)', async (t) => {
  const kit = groupKit(t);
  t.equal(kit.harness.put(makePod({ id: '/p' })).ok, true);
  const item = objs((await kit.request('GET', '/v2/deployments')).json)[0];
  t.same(item.affectedPods, ['/p']);
  t.same(item.affectedApps, []);
  t.same(item.currentActions, [{ action: 'ScalePod', pod: '/p', readinessCheckResults: [] }]);
});

t.test('DELETE /v2/deployments/{id}: a rollback deployment; a rolled-back create removes the app (fact 62)', async (t) => {
  const { kit, id } = await waiting(t);
  const res = await kit.request('DELETE', `/v2/deployments/${id}`);
  t.equal(res.statusCode, 200);
  const body = obj(res.json);
  t.same(Object.keys(body).sort(), ['deploymentId', 'version']);
  t.equal(res.headers['marathon-deployment-id'], body.deploymentId);
  t.not(body.deploymentId, id);
  t.ok(kit.harness.log.some((e) => e.eventType === 'deployment_failed' && e.id === id), 'the canceled one failed');
  t.notOk(findRunSpec(kit.deps.scheduler.root(), '/g/a'), 'the app is gone from the root');
  kit.settle();
  t.same((await kit.request('GET', '/v2/deployments')).json, []);
  t.equal((await kit.request('GET', '/v2/groups/g')).statusCode, 200);
  t.same(obj((await kit.request('GET', '/v2/groups/g')).json).apps, []);
});

t.test('DELETE /v2/deployments/{id}?force=true: 202, no body, nothing rolled back (fact 63)', async (t) => {
  const { kit, id } = await waiting(t);
  const res = await kit.request('DELETE', `/v2/deployments/${id}?force=true`);
  t.equal(res.statusCode, 202);
  t.equal(res.body, '');
  t.same((await kit.request('GET', '/v2/deployments')).json, []);
  t.ok(findRunSpec(kit.deps.scheduler.root(), '/g/a'), 'the app stays');
  t.ok(kit.harness.log.some((e) => e.eventType === 'deployment_failed' && e.id === id));
});

t.test('DELETE of an unknown deployment → 404 with details [] (fact 64); a bad force → 422', async (t) => {
  const kit = groupKit(t);
  for (const url of ['/v2/deployments/nope', '/v2/deployments/nope?force=true']) {
    const res = await kit.request('DELETE', url);
    t.equal(res.statusCode, 404, url);
    t.same(res.json, { message: 'DeploymentPlan nope does not exist', details: [] }, url);
  }
  const { kit: other, id } = await waiting(t);
  t.equal((await other.request('DELETE', `/v2/deployments/${id}?force=maybe`)).statusCode, 422);
});

t.test('readinessCheckResults of a current action are the core\'s readiness results (fact 59)', async (t) => {
  const kit = groupKit(t);
  const app = appBody('a', { portDefinitions: [{ port: 0, name: 'http-api' }], readinessChecks: [{ name: 'ready' }] });
  t.equal((await kit.request('POST', '/v2/groups', { id: '/r', apps: [app] })).statusCode, 201);
  const launched = kit.harness.offer(makeOffer());
  kit.harness.run(launched);
  const action = objs(objs((await kit.request('GET', '/v2/deployments?embed=waitingFor')).json)[0].currentActions)[0];
  t.strictSame(action.readinessCheckResults, [{ name: 'ready', taskId: launched[0].taskId, ready: false }], 'no lastResponse key before an answer (Marathon leaves it out)');
  t.match(action.waitingFor, { notReady: 1 });
});
