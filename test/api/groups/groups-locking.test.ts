import t, { type Test } from 'tap';
import { findGroup, findRunSpec } from '../../../src/scheduler/groups/tree-query';
import { appBody, groupKit, obj } from './group-test-kit';

/** A group whose app waits for offers, so its deployment keeps running. */
async function waitingGroup(t: Test): Promise<{ kit: ReturnType<typeof groupKit>; deploymentId: string }> {
  const kit = groupKit(t);
  const res = await kit.request('POST', '/v2/groups', { id: '/g', apps: [appBody('a', { instances: 2 })] });
  return { kit, deploymentId: String(obj(res.json).deploymentId) };
}

const lockedBody = (id: string): unknown => ({
  message: `App is locked by one or more deployments. Override with the option '?force=true'. View details at '/v2/deployments/${id}'.`,
  deployments: [{ id }],
});

t.test('a change to run specs a running deployment holds → 409 with the deployments; force wins (facts 7, 48)', async (t) => {
  const { kit, deploymentId } = await waitingGroup(t);
  const locked = await kit.request('PUT', '/v2/groups/g', { apps: [appBody('a', { instances: 3 })] });
  t.equal(locked.statusCode, 409);
  t.same(locked.json, lockedBody(deploymentId));
  t.equal(findRunSpec(kit.deps.scheduler.root(), '/g/a')?.instances, 2, 'nothing changed');
  const scaled = await kit.request('PUT', '/v2/groups/g', { scaleBy: 2 });
  t.equal(scaled.statusCode, 409, 'scaleBy is locked too');
  const forced = await kit.request('PUT', '/v2/groups/g?force=true', { apps: [appBody('a', { instances: 3 })] });
  t.equal(forced.statusCode, 200);
  t.equal(findRunSpec(kit.deps.scheduler.root(), '/g/a')?.instances, 3);
  t.ok(kit.harness.log.some((e) => e.eventType === 'deployment_failed' && e.id === deploymentId), 'the old deployment was canceled');
  const unrelated = await kit.request('POST', '/v2/groups', { id: '/other', apps: [appBody('x')] });
  t.equal(unrelated.statusCode, 201, 'other run specs are not locked');
});

t.test('DELETE of a group a deployment touches → 409 unless force (fact 75)', async (t) => {
  const { kit, deploymentId } = await waitingGroup(t);
  const locked = await kit.request('DELETE', '/v2/groups/g');
  t.equal(locked.statusCode, 409);
  t.same(locked.json, lockedBody(deploymentId));
  t.ok(findGroup(kit.deps.scheduler.root(), '/g'));
  const forced = await kit.request('DELETE', '/v2/groups/g?force=true');
  t.equal(forced.statusCode, 200);
  t.notOk(findGroup(kit.deps.scheduler.root(), '/g'));
});

t.test('too many running deployments → 403, even with force (fact 8)', async (t) => {
  const kit = groupKit(t, { config: { maxRunningDeployments: 1 }, options: { maxRunningDeployments: 1 } });
  t.equal((await kit.request('POST', '/v2/groups', { id: '/g', apps: [appBody('a')] })).statusCode, 201);
  for (const url of ['/v2/groups', '/v2/groups?force=true']) {
    const res = await kit.request('POST', url, { id: '/h', apps: [appBody('b')] });
    t.equal(res.statusCode, 403, url);
    t.match(obj(res.json).message, /^Max number \(1\) of running deployments is achieved/);
  }
  t.notOk(findGroup(kit.deps.scheduler.root(), '/h'));
});
