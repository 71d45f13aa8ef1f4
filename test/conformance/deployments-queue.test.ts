import t from 'tap';
import { app, behaviour, MARATHON, pacer, TIMESTAMP } from './conformance-kit';

// Deployments and the launch queue (marathon-api-facts.md sections E and H).

t.test(behaviour('GET /v2/deployments: [] when idle; a running one as DeploymentStepInfo (fact 59)', MARATHON.deploymentWriter), async (t) => {
  const p = await pacer(t);
  t.same((await p.call('GET', '/v2/deployments')).json, []);
  const created = await p.call('POST', '/v2/apps', app('/foo'));
  const [deployment] = (await p.call('GET', '/v2/deployments')).json;
  t.same(deployment, {
    id: created.headers.get('marathon-deployment-id'), version: created.json.version, affectedApps: ['/foo'], affectedPods: [],
    steps: [{ actions: [{ action: 'StartApplication', app: '/foo' }] }, { actions: [{ action: 'ScaleApplication', app: '/foo' }] }],
    currentActions: [{ action: 'ScaleApplication', app: '/foo', readinessCheckResults: [] }], currentStep: 2, totalSteps: 2,
  }, 'a new app: StartApplication then ScaleApplication (fact 60)');
});

t.test(behaviour('DELETE /v2/deployments/{id} without a body → 200 and a rollback deployment; rolling back a create removes the app (fact 62)', MARATHON.deployments), async (t) => {
  const p = await pacer(t);
  const created = await p.call('POST', '/v2/apps', app('/foo'));
  const res = await p.call('DELETE', `/v2/deployments/${created.headers.get('marathon-deployment-id')}`);
  t.equal(res.status, 200);
  t.same(Object.keys(res.json).sort(), ['deploymentId', 'version']);
  t.equal(res.headers.get('marathon-deployment-id'), res.json.deploymentId);
  t.not(res.json.deploymentId, created.headers.get('marathon-deployment-id'), 'a new deployment');
  t.equal((await p.call('GET', '/v2/apps/foo')).status, 404);
});

t.test(behaviour('DELETE /v2/deployments/{id}?force=true → 202 with no body, nothing rolled back; unknown → 404 (facts 63, 64)', MARATHON.deployments), async (t) => {
  const p = await pacer(t);
  const created = await p.call('POST', '/v2/apps', app('/foo'));
  const id = created.headers.get('marathon-deployment-id');
  const res = await p.call('DELETE', `/v2/deployments/${id}?force=true`);
  t.equal(res.status, 202);
  t.equal(res.text, '');
  t.same((await p.call('GET', '/v2/deployments')).json, []);
  t.equal((await p.call('GET', '/v2/apps/foo')).status, 200, 'the app stays');
  const missing = await p.call('DELETE', `/v2/deployments/${id}`);
  t.equal(missing.status, 404);
  t.same(missing.json, { message: `DeploymentPlan ${id} does not exist`, details: [] });
});

t.test(behaviour('GET /v2/queue: {queue: []}, then an entry with app, count, delay, since, role, processedOffersSummary (fact 90)', MARATHON.queueWriter), async (t) => {
  const p = await pacer(t);
  t.same((await p.call('GET', '/v2/queue')).json, { queue: [] });
  await p.call('POST', '/v2/apps', app('/foo', { instances: 2 }));
  const [entry] = (await p.call('GET', '/v2/queue')).json.queue;
  t.match(entry, {
    app: { id: '/foo', instances: 2 }, count: 2, delay: { timeLeftSeconds: 0, overdue: true }, since: TIMESTAMP, role: '*',
    processedOffersSummary: { processedOffersCount: 0, unusedOffersCount: 0, rejectSummaryLastOffers: Array, rejectSummaryLaunchAttempt: Array },
  });
  t.notOk('lastUnusedOffers' in entry, 'only with embed=lastUnusedOffers');
  t.notOk('pod' in entry);
});

t.test(behaviour('DELETE /v2/queue/{id}/delay without a body → 204; nothing scheduled → 404 (fact 91)', MARATHON.queue), async (t) => {
  const p = await pacer(t);
  await p.call('POST', '/v2/apps', app('/foo'));
  const res = await p.call('DELETE', '/v2/queue/foo/delay');
  t.equal(res.status, 204);
  t.equal(res.text, '');
  const missing = await p.call('DELETE', '/v2/queue/nope/delay');
  t.equal(missing.status, 404);
  t.same(missing.json, { message: 'Application /nope not found in tasks queue.', details: [] });
});
