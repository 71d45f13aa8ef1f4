import t from 'tap';
import { makeOffer } from '../../builders/cluster-builders';
import { apiFor, appBody, call, created, type Json, running, tick } from './apps-kit';

/**
 * `MARATHON_SINGLE_INSTANCE_APP: "true"` (Marathon's `SchedulingValidation` and
 * `AppDefinition` rules): at most one instance, upgrade strategy `{0, 0}`, on every change.
 */

const LABEL = { MARATHON_SINGLE_INSTANCE_APP: 'true' };
const ONE_INSTANCE = 'Single instance app may only have one instance';

t.test('a single-instance app with instances > 1 → 422 at / with Marathon\'s message; nothing created', async (t) => {
  const fx = apiFor(t);
  const res = await call(fx, 'POST', '/v2/apps', appBody({ labels: LABEL, instances: 2 }));
  t.equal(res.status, 422, res.text);
  t.strictSame(res.json, { message: 'Object is not valid', details: [{ path: '/', errors: [ONE_INSTANCE] }] });
  t.equal(fx.deps.scheduler.runSpecs().length, 0);
  t.equal((await call(fx, 'POST', '/v2/apps', appBody({ labels: { MARATHON_SINGLE_INSTANCE_APP: 'false' }, instances: 2 }))).status, 201,
    'only the text "true" makes an app single-instance');
});

t.test('without an upgrade strategy it gets {0, 0}; any other strategy → 422 at its fields', async (t) => {
  const fx = apiFor(t);
  const res = await created(t, fx, appBody({ labels: LABEL }));
  t.strictSame(res.json.upgradeStrategy, { minimumHealthCapacity: 0, maximumOverCapacity: 0 });
  const bad = await call(fx, 'POST', '/v2/apps', appBody({ id: '/bar', labels: LABEL, upgradeStrategy: { minimumHealthCapacity: 1, maximumOverCapacity: 0.5 } }));
  t.equal(bad.status, 422);
  t.strictSame(bad.json.details, [
    { path: '/upgradeStrategy/minimumHealthCapacity', errors: ['got 1.0, expected 0.0'] },
    { path: '/upgradeStrategy/maximumOverCapacity', errors: ['got 0.5, expected 0.0'] },
  ]);
});

t.test('updates and scales of a single-instance app beyond one instance → 422; the app stays at one', async (t) => {
  const fx = apiFor(t);
  await running(t, fx, appBody({ labels: LABEL }));
  tick(fx);
  const put = await call(fx, 'PUT', '/v2/apps/foo', { instances: 2 });
  t.equal(put.status, 422, 'PUT instances');
  t.strictSame(put.json.details, [{ path: '/', errors: [ONE_INSTANCE] }]);
  const scaleBy = await call(fx, 'PUT', '/v2/groups/', { scaleBy: 3 });
  t.equal(scaleBy.status, 422, `group scaleBy: ${scaleBy.text}`);
  const bulk = await call(fx, 'PUT', '/v2/apps', [{ id: '/foo', instances: 5 }]);
  t.equal(bulk.status, 422, 'bulk update');
  t.equal(fx.deps.scheduler.runSpec('/foo')?.instances, 1);
  t.equal((await call(fx, 'PUT', '/v2/apps/foo', { instances: 0 })).status, 200, 'scaling to 0 is allowed');
});

t.test('adding the label to an app with the default {1, 1} strategy → 422, as in Marathon', async (t) => {
  const fx = apiFor(t);
  await running(t, fx, appBody());
  const res = await call(fx, 'PUT', '/v2/apps/foo', { labels: LABEL });
  t.equal(res.status, 422);
  t.match(res.json.details, [{ path: '/upgradeStrategy/minimumHealthCapacity' }, { path: '/upgradeStrategy/maximumOverCapacity' }]);
});

t.test('an upgrade stops the old instance before the new one starts: never two at once', async (t) => {
  const fx = apiFor(t);
  const [old] = await running(t, fx, appBody({ labels: LABEL }));
  tick(fx);
  fx.harness.clearRecords();
  const res = await call(fx, 'PUT', '/v2/apps/foo', { cmd: 'sleep 200' });
  t.equal(res.status, 200, res.text);
  t.match(fx.harness.calls('kill'), [{ taskId: old.taskId }], 'the old instance is killed first');
  t.same(fx.harness.offer(makeOffer()), [], 'no launch while it is still running');
  fx.harness.status(old.taskId, 'TASK_KILLED');
  const [next] = fx.harness.offer(makeOffer());
  t.ok(next !== undefined, 'the new instance launches once the old one is gone');
  fx.harness.run(next);
  t.same(fx.deps.scheduler.deployments(), [], 'the upgrade finished');
  const app = (await call(fx, 'GET', '/v2/apps/foo')).json.app as Json;
  t.match(app, { cmd: 'sleep 200', tasksRunning: 1 });
});

t.test('the core refuses it for every command: a scale command (scenario files, kill-and-scale) too', async (t) => {
  const fx = apiFor(t);
  await running(t, fx, appBody({ labels: LABEL }));
  const result = fx.harness.handle({ type: 'scale', runSpecId: '/foo', instances: 3 });
  t.match(result, { ok: false, error: 'invalid', details: [{ path: '/', errors: [ONE_INSTANCE] }] });
  t.match(fx.harness.events('group_change_failed'), [{ reason: 'Object is not valid' }]);
  t.equal(fx.deps.scheduler.runSpec('/foo')?.instances, 1);
});
