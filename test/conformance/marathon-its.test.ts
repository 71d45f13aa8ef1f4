import t, { type Test } from 'tap';
import { RawSseClient } from '../api/events/raw-sse-client';
import { waitUntil } from '../api/events/wait-until';
import { makeOffer } from '../builders/cluster-builders';
import { app, pacer, runningApp, TIMESTAMP, UUID, type Pacer, type Res } from './conformance-kit';

// Marathon's own tests as the oracle: each row below restates, in our words, one expectation of a
// test in mesosphere/marathon (integration tests under tests/integration/src/test/scala/mesosphere/
// marathon/integration/, resource tests under src/test/scala/mesosphere/marathon/api/v2/) and runs
// the same request sequence against pacer over a real core in manual time (conformance-kit.ts).
// The simulated cluster here is the harness: offers are handed in and every launched task is driven
// to TASK_RUNNING, every kill answered with TASK_KILLED (settle). Only expectations pacer meets are
// listed; the mismatches found by the same trial are reported to the lead, not encoded here.
// Each row names its Marathon file:line and test name, so it can be read side by side.

const IT = 'tests/integration/src/test/scala/mesosphere/marathon/integration/';
const RT = 'src/test/scala/mesosphere/marathon/api/v2/';

interface Row {
  /** Marathon file:line of the test. */
  readonly source: string;
  /** The Marathon test's name. */
  readonly test: string;
  /** What is expected, in our words. */
  readonly expect: string;
  readonly run: (t: Test, p: Pacer) => Promise<void>;
}

/** An app Marathon can never place: an attribute no agent has (the ITs' unfulfillable constraint). */
const NEVER = { constraints: [['nonExistent', 'CLUSTER', 'na']] };

const killed = new WeakMap<Pacer, Set<string>>();

/**
 * Plays the cluster until nothing changes: answers every kill pacer asked for with TASK_KILLED,
 * offers one default agent's resources and runs what launched. `advanceMs` moves the clock
 * between rounds (0: backoff deadlines stay where they are).
 */
function settle(p: Pacer, advanceMs = 0): void {
  const h = p.server.harness;
  const acked = killed.get(p) ?? new Set<string>();
  killed.set(p, acked);
  for (let round = 0; round < 30; round++) {
    let changed = false;
    for (const k of h.calls('kill')) {
      if (acked.has(k.taskId)) continue;
      acked.add(k.taskId);
      h.status(k.taskId, 'TASK_KILLED');
      changed = true;
    }
    const launched = h.offer(makeOffer());
    if (launched.length > 0) {
      h.run(launched);
      changed = true;
    }
    if (advanceMs > 0) h.advance(advanceMs);
    if (!changed && advanceMs === 0) break;
  }
}

/** The events of one type pacer published so far (what /v2/events streams; test/conformance/events.test.ts checks the wire). */
function events(p: Pacer, type: string): Record<string, unknown>[] {
  return p.server.harness.log.filter((e) => e.eventType === type) as unknown as Record<string, unknown>[];
}

/** A client of /v2/events (with `query`), attached before the caller goes on, closed when the test ends. */
async function stream(t: Test, p: Pacer, query = ''): Promise<RawSseClient> {
  const client = await RawSseClient.open(p.base, `/v2/events${query}`);
  t.teardown(() => client.close());
  await waitUntil(() => client.parsed().events.length > 0 || p.server.hub.subscriberCount > 0, 'the stream to attach', 60_000);
  return client;
}

/** Waits (bounded) until the stream carried an event of `type` matching `where`, and answers its data. */
async function streamed(client: RawSseClient, type: string, where: (d: Record<string, unknown>) => boolean = () => true): Promise<Record<string, unknown>> {
  const find = () => client.parsed().events.find((e) => e.event === type && where(e.data as Record<string, unknown>));
  await waitUntil(() => find() !== undefined, type, 60_000);
  return find()?.data as Record<string, unknown>;
}

function deploymentSucceeded(p: Pacer, id: string | null): boolean {
  return events(p, 'deployment_success').some((e) => e.id === id);
}

function depId(res: Res): string | null {
  return res.headers.get('marathon-deployment-id');
}

async function taskIds(p: Pacer, id: string): Promise<string[]> {
  const res = await p.call('GET', `/v2/apps${id}/tasks`);
  return (res.json.tasks as { id: string }[]).map((x) => x.id).sort();
}

/**
 * The rollback ITs' sequence: app `id` updated to an unplaceable cpus (with `more` fields), the
 * update's deployment deleted (200), and the rollback it starts succeeds.
 */
async function rollBackUnplaceableUpdate(t: Test, p: Pacer, id: string, more: Record<string, unknown> = {}): Promise<void> {
  const upd = await p.call('PUT', `/v2/apps${id}`, { cpus: 1000, cmd: 'na', ...more });
  t.equal(upd.status, 200);
  settle(p);
  const canceled = await p.call('DELETE', `/v2/deployments/${depId(upd)}`);
  t.equal(canceled.status, 200);
  settle(p);
  t.ok(deploymentSucceeded(p, depId(canceled)));
}

function pod(id: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    containers: [{ name: 'task1', exec: { command: { shell: 'sleep 1000' } }, resources: { cpus: 0.1, mem: 32 } }],
    networks: [{ mode: 'host' }],
    scaling: { kind: 'fixed', instances: 1 },
    ...overrides,
  };
}

/** Creates an app whose one task fails at once, so that it is backed off (the ITs' createAFailingApp). */
async function failingApp(t: Test, p: Pacer, id: string, backoffSeconds: number): Promise<void> {
  const res = await p.call('POST', '/v2/apps', app(id, { backoffSeconds, maxLaunchDelaySeconds: 3600 }));
  t.equal(res.status, 201);
  const h = p.server.harness;
  const [task] = h.offer(makeOffer());
  h.run(task);
  h.status(task.taskId, 'TASK_FAILED');
}

const ROWS: Row[] = [
  // ── AppDeployIntegrationTest ────────────────────────────────────────────────────────────────
  {
    source: `${IT}AppDeployIntegrationTest.scala:36`, test: 'create a simple app without health checks',
    expect: 'POST /v2/apps → 201 with one deployment in the body and the Marathon-Deployment-Id header; deployment_success for that id once running',
    run: async (t, p) => {
      const res = await p.call('POST', '/v2/apps', app('/it/a', { instances: 1 }));
      t.equal(res.status, 201);
      t.equal(res.json.deployments.length, 1);
      t.equal(res.json.deployments[0].id, depId(res));
      settle(p);
      t.ok(deploymentSucceeded(p, depId(res)));
      t.equal((await taskIds(p, '/it/a')).length, 1);
    },
  },
  {
    source: `${IT}AppDeployIntegrationTest.scala:50`, test: 'redeploying an app without changes should not cause restarts',
    expect: 'PUT of the same id and cmd → 200 with a deployment that succeeds without replacing the task',
    run: async (t, p) => {
      await runningApp(t, p, '/it/a');
      const before = await taskIds(p, '/it/a');
      const res = await p.call('PUT', '/v2/apps/it/a', { id: '/it/a', cmd: 'sleep 100' });
      t.equal(res.status, 200);
      settle(p);
      t.ok(deploymentSucceeded(p, depId(res)));
      t.same(await taskIds(p, '/it/a'), before);
    },
  },
  {
    source: `${IT}AppDeployIntegrationTest.scala:68`, test: 'backoff delays are reset on configuration changes',
    expect: 'a backed-off app given a new cmd with force=true → 200 and launches at once (the delay is reset)',
    run: async (t, p) => {
      await failingApp(t, p, '/it/b', 3600);
      const res = await p.call('PUT', '/v2/apps/it/b?force=true', { cmd: 'sleep 120; true' });
      t.equal(res.status, 200);
      settle(p);
      t.ok(deploymentSucceeded(p, depId(res)));
      t.equal((await taskIds(p, '/it/b')).length, 1);
    },
  },
  {
    source: `${IT}AppDeployIntegrationTest.scala:84`, test: 'backoff delays are NOT reset on scaling changes',
    expect: 'a backed-off app scaled with force=true → 200; its queue entry still has delay.overdue false',
    run: async (t, p) => {
      await failingApp(t, p, '/it/b', 3600);
      const res = await p.call('PUT', '/v2/apps/it/b?force=true', { instances: 3 });
      t.equal(res.status, 200);
      settle(p);
      const queue = (await p.call('GET', '/v2/queue')).json.queue.filter((q: { app?: { id: string } }) => q.app?.id === '/it/b');
      t.equal(queue.length, 1);
      t.equal(queue[0].delay.overdue, false);
    },
  },
  {
    source: `${IT}AppDeployIntegrationTest.scala:101`, test: 'backoff delay can be get/deleted on a crash looping app',
    expect: 'a crash-looping app has one queue entry with delay.timeLeftSeconds ≥ 0; DELETE /v2/queue/{id}/delay → 204',
    run: async (t, p) => {
      await failingApp(t, p, '/it/c', 3600);
      const queue = (await p.call('GET', '/v2/queue')).json.queue;
      t.equal(queue.length, 1);
      t.ok(queue[0].delay.timeLeftSeconds >= 0);
      const reset = await p.call('DELETE', '/v2/queue/it/c/delay');
      t.equal(reset.status, 204);
    },
  },
  {
    source: `${IT}AppDeployIntegrationTest.scala:141`, test: 'restarting an app with backoff delay starts immediately',
    expect: 'POST /v2/apps/{id}/restart?force=true on a backed-off app → 200; its task launches again at once',
    run: async (t, p) => {
      await failingApp(t, p, '/it/r', 3600);
      const launchesBefore = p.server.harness.calls('accept').length;
      const res = await p.call('POST', '/v2/apps/it/r/restart?force=true');
      t.equal(res.status, 200);
      t.match(depId(res), UUID);
      settle(p);
      t.ok(p.server.harness.calls('accept').length > launchesBefore, 'launched again without waiting for the backoff');
    },
  },
  {
    source: `${IT}AppDeployIntegrationTest.scala:324`, test: 'list running apps and tasks',
    expect: 'GET /v2/apps lists the app; GET /v2/apps/{id}/tasks → 200 with both tasks',
    run: async (t, p) => {
      await runningApp(t, p, '/it/l', { instances: 2 });
      const apps = (await p.call('GET', '/v2/apps')).json.apps;
      t.same(apps.map((a: { id: string }) => a.id), ['/it/l']);
      const tasks = await p.call('GET', '/v2/apps/it/l/tasks');
      t.equal(tasks.status, 200);
      t.equal(tasks.json.tasks.length, 2);
      t.ok(tasks.json.tasks.every((x: { startedAt?: string }) => typeof x.startedAt === 'string'), 'launched: startedAt is set');
    },
  },
  {
    source: `${IT}AppDeployIntegrationTest.scala:409`, test: 'update an app',
    expect: 'PUT {cmd} → 200 with a deployment that succeeds; the task count is kept',
    run: async (t, p) => {
      await runningApp(t, p, '/it/u');
      const res = await p.call('PUT', '/v2/apps/it/u', { cmd: 'sleep 200' });
      t.equal(res.status, 200);
      settle(p);
      t.ok(deploymentSucceeded(p, depId(res)));
      t.equal((await taskIds(p, '/it/u')).length, 1);
      t.equal((await p.call('GET', '/v2/apps/it/u')).json.app.cmd, 'sleep 200');
    },
  },
  {
    source: `${IT}AppDeployIntegrationTest.scala:432`, test: 'update an app through patch request',
    expect: 'PATCH {cmd} → 200 with a deployment that succeeds; fields not sent are kept',
    run: async (t, p) => {
      await runningApp(t, p, '/it/u', { instances: 1, mem: 48 });
      const res = await p.call('PATCH', '/v2/apps/it/u', { cmd: 'sleep 200' });
      t.equal(res.status, 200);
      settle(p);
      t.ok(deploymentSucceeded(p, depId(res)));
      const got = (await p.call('GET', '/v2/apps/it/u')).json.app;
      t.match(got, { cmd: 'sleep 200', mem: 48 });
    },
  },
  {
    source: `${IT}AppDeployIntegrationTest.scala:460`, test: 'scale an app up and down',
    expect: 'PUT {instances: 2} → 200 and two tasks; PUT {instances: 1} → 200, a TASK_KILLED status update, one task',
    run: async (t, p) => {
      await runningApp(t, p, '/it/s');
      const up = await p.call('PUT', '/v2/apps/it/s', { instances: 2 });
      t.equal(up.status, 200);
      settle(p);
      t.ok(deploymentSucceeded(p, depId(up)));
      t.equal((await taskIds(p, '/it/s')).length, 2);
      const down = await p.call('PUT', '/v2/apps/it/s', { instances: 1 });
      t.equal(down.status, 200);
      settle(p);
      t.ok(events(p, 'status_update_event').some((e) => e.taskStatus === 'TASK_KILLED'));
      t.equal((await taskIds(p, '/it/s')).length, 1);
    },
  },
  {
    source: `${IT}AppDeployIntegrationTest.scala:484`, test: 'restart an app',
    expect: 'POST /v2/apps/{id}/restart → 200 with a deployment; afterwards as many tasks, none of the old ones',
    run: async (t, p) => {
      await runningApp(t, p, '/it/r', { instances: 2 });
      const before = await taskIds(p, '/it/r');
      const res = await p.call('POST', '/v2/apps/it/r/restart');
      t.equal(res.status, 200);
      t.same(Object.keys(res.json).sort(), ['deploymentId', 'version']);
      settle(p);
      t.ok(deploymentSucceeded(p, depId(res)));
      const after = await taskIds(p, '/it/r');
      t.equal(after.length, 2);
      t.notOk(after.some((id) => before.includes(id)));
    },
  },
  {
    source: `${IT}AppDeployIntegrationTest.scala:504`, test: 'list app versions',
    expect: 'GET /v2/apps/{id}/versions → 200 {versions: [the create response\'s version]}',
    run: async (t, p) => {
      const created = await p.call('POST', '/v2/apps', app('/it/v'));
      settle(p);
      const list = await p.call('GET', '/v2/apps/it/v/versions');
      t.equal(list.status, 200);
      t.same(list.json, { versions: [created.json.version] });
    },
  },
  {
    source: `${IT}AppDeployIntegrationTest.scala:520`, test: 'correctly version apps on update',
    expect: 'after PUT {disk}, GET /versions/{original} has the old disk and /versions/{update\'s version} the new one',
    run: async (t, p) => {
      const created = await p.call('POST', '/v2/apps', app('/it/v', { disk: 10 }));
      settle(p);
      p.server.harness.advance(1000);
      const update = await p.call('PUT', '/v2/apps/it/v', { id: '/it/v', disk: 11 });
      t.equal(update.status, 200);
      settle(p);
      const v1 = await p.call('GET', `/v2/apps/it/v/versions/${created.json.version}`);
      t.equal(v1.status, 200);
      t.equal(v1.json.disk, 10);
      const v2 = await p.call('GET', `/v2/apps/it/v/versions/${update.json.version}`);
      t.equal(v2.status, 200);
      t.equal(v2.json.disk, 11);
    },
  },
  {
    source: `${IT}AppDeployIntegrationTest.scala:546`, test: 'kill a task of an App',
    expect: 'DELETE /v2/apps/{id}/tasks/{taskId} → 200; TASK_KILLED is published and a different task replaces it',
    run: async (t, p) => {
      await runningApp(t, p, '/it/k');
      const [before] = await taskIds(p, '/it/k');
      const res = await p.call('DELETE', `/v2/apps/it/k/tasks/${before}`);
      t.equal(res.status, 200);
      settle(p);
      t.ok(events(p, 'status_update_event').some((e) => e.taskStatus === 'TASK_KILLED' && e.taskId === before));
      const after = await taskIds(p, '/it/k');
      t.equal(after.length, 1);
      t.not(after[0], before);
    },
  },
  {
    source: `${IT}AppDeployIntegrationTest.scala:565`, test: 'kill a task of an App with scaling',
    expect: 'DELETE /v2/apps/{id}/tasks/{taskId}?scale=true → 200; one task left and the app\'s instances is 1',
    run: async (t, p) => {
      await runningApp(t, p, '/it/k', { instances: 2 });
      const [first] = await taskIds(p, '/it/k');
      t.equal((await p.call('DELETE', `/v2/apps/it/k/tasks/${first}?scale=true`)).status, 200);
      settle(p);
      t.equal((await taskIds(p, '/it/k')).length, 1);
      t.equal((await p.call('GET', '/v2/apps/it/k')).json.app.instances, 1);
    },
  },
  {
    source: `${IT}AppDeployIntegrationTest.scala:582`, test: 'kill all tasks of an App',
    expect: 'DELETE /v2/apps/{id}/tasks → 200; both tasks are killed and two new ones replace them',
    run: async (t, p) => {
      await runningApp(t, p, '/it/k', { instances: 2 });
      const before = await taskIds(p, '/it/k');
      const res = await p.call('DELETE', '/v2/apps/it/k/tasks');
      t.equal(res.status, 200);
      t.equal(res.json.tasks.length, 2, 'the killed tasks');
      settle(p);
      t.equal(events(p, 'status_update_event').filter((e) => e.taskStatus === 'TASK_KILLED').length, 2);
      const after = await taskIds(p, '/it/k');
      t.equal(after.length, 2);
      t.notOk(after.some((id) => before.includes(id)));
    },
  },
  {
    source: `${IT}AppDeployIntegrationTest.scala:599`, test: 'kill all tasks of an App with scaling',
    expect: 'DELETE /v2/apps/{id}/tasks?scale=true → 200 {version, deploymentId} with the header; then no task and instances 0',
    run: async (t, p) => {
      await runningApp(t, p, '/it/k', { instances: 2 });
      const res = await p.call('DELETE', '/v2/apps/it/k/tasks?scale=true');
      t.equal(res.status, 200);
      t.match(res.json.version, TIMESTAMP);
      t.equal(res.json.deploymentId, depId(res));
      settle(p);
      t.ok(deploymentSucceeded(p, depId(res)));
      t.equal((await taskIds(p, '/it/k')).length, 0);
      t.equal((await p.call('GET', '/v2/apps/it/k')).json.app.instances, 0);
    },
  },
  {
    source: `${IT}AppDeployIntegrationTest.scala:618`, test: 'delete an application',
    expect: 'DELETE /v2/apps/{id} → 200 with a deployment that succeeds; the app is no longer listed',
    run: async (t, p) => {
      await runningApp(t, p, '/it/d');
      const res = await p.call('DELETE', '/v2/apps/it/d');
      t.equal(res.status, 200);
      t.same(Object.keys(res.json).sort(), ['deploymentId', 'version']);
      settle(p);
      t.ok(deploymentSucceeded(p, depId(res)));
      t.same((await p.call('GET', '/v2/apps')).json.apps, []);
    },
  },
  {
    source: `${IT}AppDeployIntegrationTest.scala:634`, test: 'create and deploy an app with two tasks',
    expect: 'events: api_post_event (appDefinition.id), group_change_success (groupId = parent), a status_update_event per task, deployment_success (the header id); then no deployment left',
    run: async (t, p) => {
      const client = await stream(t, p);
      const res = await p.call('POST', '/v2/apps', app('/it/g/two', { instances: 2 }));
      settle(p);
      await streamed(client, 'api_post_event', (d) => (d.appDefinition as { id: string }).id === '/it/g/two');
      await streamed(client, 'group_change_success', (d) => d.groupId === '/it/g');
      await streamed(client, 'deployment_success', (d) => d.id === depId(res));
      t.equal(client.parsed().events.filter((e) => e.event === 'status_update_event' && e.data.appId === '/it/g/two' && e.data.taskStatus === 'TASK_RUNNING').length, 2);
      t.same((await p.call('GET', '/v2/deployments')).json, []);
    },
  },
  {
    source: `${IT}AppDeployIntegrationTest.scala:674`, test: 'stop (forcefully delete) a deployment',
    expect: 'an unplaceable app is queued with delay.overdue true; DELETE /v2/deployments/{id}?force=true → 202; deployment_failed; no deployment left; the app stays',
    run: async (t, p) => {
      const res = await p.call('POST', '/v2/apps', { id: '/it/x', cmd: 'na', instances: 5, ...NEVER });
      t.equal(res.status, 201);
      settle(p);
      t.equal((await p.call('GET', '/v2/deployments')).json.length, 1);
      const item = (await p.call('GET', '/v2/queue')).json.queue.find((q: { app?: { id: string } }) => q.app?.id === '/it/x');
      t.equal(item?.delay.overdue, true);
      const stop = await p.call('DELETE', `/v2/deployments/${depId(res)}?force=true`);
      t.equal(stop.status, 202);
      t.ok(events(p, 'deployment_failed').some((e) => e.id === depId(res)));
      t.same((await p.call('GET', '/v2/deployments')).json, []);
      t.equal((await p.call('GET', '/v2/apps/it/x')).status, 200);
    },
  },
  {
    source: `${IT}AppDeployIntegrationTest.scala:707`, test: 'rollback a deployment (by removing an app)',
    expect: 'DELETE /v2/deployments/{id} → 200 with a new deployment header; deployment_failed for the old, deployment_success for the rollback; the app is gone (404)',
    run: async (t, p) => {
      const res = await p.call('POST', '/v2/apps', { id: '/it/x', cmd: 'na', instances: 5, ...NEVER });
      settle(p);
      const rollback = await p.call('DELETE', `/v2/deployments/${depId(res)}`);
      t.equal(rollback.status, 200);
      t.match(depId(rollback), UUID);
      t.not(depId(rollback), depId(res));
      settle(p);
      t.ok(events(p, 'deployment_failed').some((e) => e.id === depId(res)));
      t.ok(deploymentSucceeded(p, depId(rollback)));
      t.same((await p.call('GET', '/v2/deployments')).json, []);
      t.equal((await p.call('GET', '/v2/apps/it/x')).status, 404);
    },
  },
  {
    source: `${IT}AppDeployIntegrationTest.scala:742`, test: 'manage yet another deployment rollback',
    expect: 'an update to an unplaceable cpus (upgradeStrategy 0/0) rolled back with DELETE /v2/deployments/{id} → 200; the rollback succeeds and both old tasks run',
    run: async (t, p) => {
      await runningApp(t, p, '/it/y', { instances: 2, backoffFactor: 1, upgradeStrategy: { maximumOverCapacity: 0, minimumHealthCapacity: 0 } });
      await rollBackUnplaceableUpdate(t, p, '/it/y', { instances: 1 });
      t.equal((await taskIds(p, '/it/y')).length, 2);
    },
  },
  {
    source: `${IT}AppDeployIntegrationTest.scala:783`, test: 'rollback deployment with default deployment strategy',
    expect: 'the same with the default upgrade strategy: the rollback succeeds with one task running',
    run: async (t, p) => {
      await runningApp(t, p, '/it/y', { backoffFactor: 1 });
      await rollBackUnplaceableUpdate(t, p, '/it/y');
      t.equal((await taskIds(p, '/it/y')).length, 1);
    },
  },
  {
    source: `${IT}AppDeployIntegrationTest.scala:821`, test: 'Docker info is not automagically created',
    expect: 'an app with container {type: MESOS} keeps type MESOS and gets no container.docker, after create and after an update',
    run: async (t, p) => {
      const res = await p.call('POST', '/v2/apps', { id: '/it/m', cmd: 'sleep 1', instances: 0, container: { type: 'MESOS' } });
      t.equal(res.status, 201);
      settle(p);
      t.ok(deploymentSucceeded(p, depId(res)));
      const c1 = (await p.call('GET', '/v2/apps/it/m')).json.app.container;
      t.equal(c1.type, 'MESOS');
      t.notOk('docker' in c1);
      const upd = await p.call('PUT', '/v2/apps/it/m', { cmd: 'sleep 100' });
      t.equal(upd.status, 200);
      const c2 = (await p.call('GET', '/v2/apps/it/m')).json.app.container;
      t.equal(c2.type, 'MESOS');
      t.notOk('docker' in c2);
    },
  },
  {
    source: `${IT}AppDeployIntegrationTest.scala:870`, test: 'create a simple app with a docker container and update it',
    expect: 'a DOCKER app on container/bridge with containerPort 3000, updated with force=true to 4000 → 200 and GET shows 4000',
    run: async (t, p) => {
      const res = await p.call('POST', '/v2/apps', {
        id: '/it/dk', cmd: 'cmd', instances: 0, networks: [{ mode: 'container/bridge' }],
        container: { type: 'DOCKER', docker: { image: 'jdef/helpme' }, portMappings: [{ containerPort: 3000, protocol: 'tcp' }] },
      });
      t.equal(res.status, 201);
      settle(p);
      const upd = await p.call('PUT', '/v2/apps/it/dk?force=true', {
        container: { type: 'DOCKER', docker: { image: 'jdef/helpme' }, portMappings: [{ containerPort: 4000, protocol: 'tcp' }] },
      });
      t.equal(upd.status, 200);
      const got = (await p.call('GET', '/v2/apps/it/dk')).json.app;
      t.equal(got.container.portMappings[0].containerPort, 4000);
    },
  },
  {
    source: `${IT}AppDeployIntegrationTest.scala:965`, test: 'update an app and make sure ports are set correctly',
    expect: 'PUT creating a DOCKER app with the deprecated docker.network HOST and no ports → a service port in [10000, 20000]',
    run: async (t, p) => {
      const res = await p.call('PUT', '/v2/apps/tomcat', { id: 'tomcat', mem: 512, cpus: 1, instances: 1, container: { type: 'DOCKER', docker: { image: 'tomcat:8.0', network: 'HOST' } } });
      t.equal(res.status, 201);
      const got = (await p.call('GET', '/v2/apps/tomcat')).json.app;
      t.ok(got.portDefinitions[0].port >= 10000 && got.portDefinitions[0].port <= 20000, `port ${got.portDefinitions?.[0]?.port}`);
    },
  },

  // ── GroupDeployIntegrationTest ──────────────────────────────────────────────────────────────
  {
    source: `${IT}GroupDeployIntegrationTest.scala:34`, test: 'create empty group successfully',
    expect: 'POST /v2/groups {id} → 201 with the deployment header; deployment_success for it',
    run: async (t, p) => {
      const res = await p.call('POST', '/v2/groups', { id: '/it/empty' });
      t.equal(res.status, 201);
      t.match(depId(res), UUID);
      t.same(Object.keys(res.json).sort(), ['deploymentId', 'version']);
      settle(p);
      t.ok(deploymentSucceeded(p, depId(res)));
    },
  },
  {
    source: `${IT}GroupDeployIntegrationTest.scala:46`, test: 'update empty group successfully',
    expect: 'PUT /v2/groups/{id} with dependencies → a deployment that succeeds; GET /v2/groups/{id} returns those dependencies',
    run: async (t, p) => {
      await p.call('POST', '/v2/groups', { id: '/it/test2' });
      settle(p);
      const upd = await p.call('PUT', '/v2/groups/it/test2', { id: '/it/test2', dependencies: ['/it/test'] });
      t.equal(upd.status, 200);
      settle(p);
      t.ok(deploymentSucceeded(p, depId(upd)));
      const got = await p.call('GET', '/v2/groups/it/test2');
      t.equal(got.status, 200);
      t.same(got.json.dependencies, ['/it/test']);
    },
  },
  {
    source: `${IT}GroupDeployIntegrationTest.scala:62`, test: 'deleting an existing group gives a 200 http response',
    expect: 'DELETE /v2/groups/{id} → 200 with a deployment that succeeds; the group is no longer listed',
    run: async (t, p) => {
      await p.call('POST', '/v2/groups', { id: '/it/gone' });
      settle(p);
      const res = await p.call('DELETE', '/v2/groups/it/gone');
      t.equal(res.status, 200);
      settle(p);
      t.ok(deploymentSucceeded(p, depId(res)));
      t.equal((await p.call('GET', '/v2/groups/it/gone')).status, 404);
    },
  },
  {
    source: `${IT}GroupDeployIntegrationTest.scala:77`, test: 'delete a non existing group should give a 404 http response',
    expect: 'DELETE /v2/groups/{unknown} → 404',
    run: async (t, p) => {
      t.equal((await p.call('DELETE', '/v2/groups/it/does_not_exist')).status, 404);
    },
  },
  {
    source: `${IT}GroupDeployIntegrationTest.scala:85`, test: 'create a group with applications to start',
    expect: 'POST /v2/groups with an app of 2 instances → both tasks start; GET of the group says enforceRole false',
    run: async (t, p) => {
      const res = await p.call('POST', '/v2/groups', { id: '/start', apps: [app('/start/app-0', { instances: 2 })] });
      t.equal(res.status, 201);
      settle(p);
      t.ok(deploymentSucceeded(p, depId(res)));
      t.equal((await taskIds(p, '/start/app-0')).length, 2);
      t.equal((await p.call('GET', '/v2/groups/start')).json.enforceRole, false);
    },
  },
  {
    source: `${IT}GroupDeployIntegrationTest.scala:105`, test: 'update a group with applications to restart',
    expect: 'PUT of the group with a changed app → a deployment that succeeds with the new tasks',
    run: async (t, p) => {
      await p.call('POST', '/v2/groups', { id: '/it/rs', apps: [app('/it/rs/a', { instances: 2 })] });
      settle(p);
      const before = await taskIds(p, '/it/rs/a');
      const upd = await p.call('PUT', '/v2/groups/it/rs', { id: '/it/rs', apps: [app('/it/rs/a', { instances: 2, cmd: 'sleep 101' })] });
      t.equal(upd.status, 200);
      settle(p);
      t.ok(deploymentSucceeded(p, depId(upd)));
      const after = await taskIds(p, '/it/rs/a');
      t.equal(after.length, 2);
      t.notOk(after.some((id) => before.includes(id)));
    },
  },
  {
    source: `${IT}GroupDeployIntegrationTest.scala:122`, test: 'update a group with the same application so no restart is triggered',
    expect: 'PUT of the group with the app unchanged → still a deployment id whose deployment_success comes; no deployment left and the same tasks',
    run: async (t, p) => {
      const body = { id: '/it/same', apps: [app('/it/same/a', { instances: 2 })] };
      await p.call('POST', '/v2/groups', body);
      settle(p);
      const before = await taskIds(p, '/it/same/a');
      const upd = await p.call('PUT', '/v2/groups/it/same', body);
      t.equal(upd.status, 200);
      t.match(depId(upd), UUID);
      settle(p);
      t.ok(deploymentSucceeded(p, depId(upd)));
      t.same((await p.call('GET', '/v2/deployments')).json, []);
      t.same(await taskIds(p, '/it/same/a'), before);
    },
  },
  {
    source: `${IT}GroupDeployIntegrationTest.scala:174`, test: 'rollback from an upgrade of group',
    expect: 'PUT /v2/groups/{id} {version: the create version} → a deployment that brings back the first app definition',
    run: async (t, p) => {
      const create = await p.call('POST', '/v2/groups', { id: '/it/rb', apps: [app('/it/rb/a', { instances: 2, cmd: 'sleep 1001' })] });
      settle(p);
      p.server.harness.advance(1000);
      await p.call('PUT', '/v2/groups/it/rb', { id: '/it/rb', apps: [app('/it/rb/a', { instances: 2, cmd: 'sleep 1002' })] });
      settle(p);
      const rb = await p.call('PUT', '/v2/groups/it/rb', { version: create.json.version });
      t.equal(rb.status, 200);
      settle(p);
      t.ok(deploymentSucceeded(p, depId(rb)));
      t.equal((await p.call('GET', '/v2/apps/it/rb/a')).json.app.cmd, 'sleep 1001');
      t.equal((await taskIds(p, '/it/rb/a')).length, 2);
    },
  },
  {
    source: `${IT}GroupDeployIntegrationTest.scala:232`, test: 'An upgrade in progress cannot be interrupted without force',
    expect: 'a second PUT of the group while its upgrade runs → 409 and group_change_failed; with force=true → accepted with a deployment',
    run: async (t, p) => {
      const client = await stream(t, p, '?event_type=group_change_failed');
      await p.call('POST', '/v2/groups', { id: '/it/lock', apps: [app('/it/lock/a')] });
      settle(p);
      const v2 = await p.call('PUT', '/v2/groups/it/lock', { id: '/it/lock', apps: [app('/it/lock/a', { cmd: 'v2', ...NEVER })] });
      t.equal(v2.status, 200);
      settle(p);
      const v3 = await p.call('PUT', '/v2/groups/it/lock', { id: '/it/lock', apps: [app('/it/lock/a', { cmd: 'v3' })] });
      t.equal(v3.status, 409);
      t.match(await streamed(client, 'group_change_failed'), { groupId: '/it' }, 'the parent of the group PUT, as Marathon\'s updateRoot(rootPath.parent) names it');
      const v4 = await p.call('PUT', '/v2/groups/it/lock?force=true', { id: '/it/lock', apps: [app('/it/lock/a', { cmd: 'v4' })] });
      t.equal(v4.status, 200);
      settle(p);
      t.ok(deploymentSucceeded(p, depId(v4)));
    },
  },
  {
    source: `${IT}GroupDeployIntegrationTest.scala:261`, test: 'A group with a running deployment can not be deleted without force',
    expect: 'DELETE of a group whose deployment runs → 409 and group_change_failed; with force=true → success with a deployment that completes',
    run: async (t, p) => {
      const client = await stream(t, p, '?event_type=group_change_failed');
      await p.call('POST', '/v2/groups', { id: '/it/del', apps: [app('/it/del/a', { instances: 2, ...NEVER })] });
      settle(p);
      t.equal((await p.call('DELETE', '/v2/groups/it/del')).status, 409);
      await streamed(client, 'group_change_failed');
      const force = await p.call('DELETE', '/v2/groups/it/del?force=true');
      t.equal(force.status, 200);
      settle(p);
      t.ok(deploymentSucceeded(p, depId(force)));
    },
  },
  {
    source: `${IT}GroupDeployIntegrationTest.scala:289`, test: 'Groups with Applications with circular dependencies cannot get deployed',
    expect: 'POST /v2/groups with a dependency cycle → 422 whose details errors mention "cyclic dependencies"',
    run: async (t, p) => {
      const res = await p.call('POST', '/v2/groups', {
        id: '/it/cyc',
        apps: [app('/it/cyc/db', { dependencies: ['/it/cyc/frontend1'] }), app('/it/cyc/service', { dependencies: ['/it/cyc/db'] }), app('/it/cyc/frontend1', { dependencies: ['/it/cyc/service'] })],
      });
      t.equal(res.status, 422);
      const errors = (res.json.details as { errors: string[] }[]).flatMap((d) => d.errors);
      t.ok(errors.some((e) => e.includes('cyclic dependencies')), JSON.stringify(errors));
    },
  },
  {
    source: `${IT}GroupDeployIntegrationTest.scala:310`, test: 'Applications with dependencies get deployed in the correct order',
    expect: 'apps db ← service ← frontend1 start in that order (each a later deployment step, launched after the one it depends on runs)',
    run: async (t, p) => {
      const res = await p.call('POST', '/v2/groups', {
        id: '/it/ord',
        apps: [app('/it/ord/frontend1', { dependencies: ['/it/ord/service'] }), app('/it/ord/service', { dependencies: ['/it/ord/db'] }), app('/it/ord/db')],
      });
      t.equal(res.status, 201);
      settle(p);
      const order = events(p, 'status_update_event').filter((e) => e.taskStatus === 'TASK_RUNNING').map((e) => e.appId);
      t.same(order, ['/it/ord/db', '/it/ord/service', '/it/ord/frontend1']);
    },
  },
  {
    source: `${IT}GroupDeployIntegrationTest.scala:336`, test: 'Groups with dependencies get deployed in the correct order',
    expect: 'subgroups db ← service ← frontend (group-level dependencies) start their apps in that order',
    run: async (t, p) => {
      const res = await p.call('POST', '/v2/groups', {
        id: '/it/gord', apps: [],
        groups: [
          { id: 'frontend', apps: [app('/it/gord/frontend/frontend1')], dependencies: ['/it/gord/service'] },
          { id: 'service', apps: [app('/it/gord/service/service1')], dependencies: ['/it/gord/db'] },
          { id: 'db', apps: [app('/it/gord/db/db1')] },
        ],
      });
      t.equal(res.status, 201);
      settle(p);
      const order = events(p, 'status_update_event').filter((e) => e.taskStatus === 'TASK_RUNNING').map((e) => e.appId);
      t.same(order, ['/it/gord/db/db1', '/it/gord/service/service1', '/it/gord/frontend/frontend1']);
    },
  },
  {
    source: `${IT}GroupDeployIntegrationTest.scala:369`, test: 'Groups enforce role setting cannot be changed with an update',
    expect: 'PUT of a group with its apps and enforceRole: true → 422, saying enforceRole cannot change together with services',
    run: async (t, p) => {
      const body = { id: '/it/er', apps: [app('/it/er/a', { instances: 2 })] };
      await p.call('POST', '/v2/groups', body);
      settle(p);
      const res = await p.call('PUT', '/v2/groups/it/er', { ...body, enforceRole: true });
      t.equal(res.status, 422);
      t.match(res.text, /enforceRole/);
    },
  },
  {
    source: `${IT}GroupDeployIntegrationTest.scala:385`, test: 'Patching second level group fails',
    expect: 'PATCH /v2/groups/{a}/{b} {enforceRole} → 422',
    run: async (t, p) => {
      const res = await p.call('POST', '/v2/groups', { id: '/it/this/group' });
      t.equal(res.status, 201);
      settle(p);
      t.equal((await p.call('PATCH', '/v2/groups/it/this/group', { enforceRole: true })).status, 422);
    },
  },
  {
    source: `${IT}GroupDeployIntegrationTest.scala:400`, test: 'Patching top level group succeeds',
    expect: 'PATCH /v2/groups/{top} {enforceRole} → 200',
    run: async (t, p) => {
      await p.call('POST', '/v2/groups', { id: '/other/group' });
      settle(p);
      t.equal((await p.call('PATCH', '/v2/groups/other', { enforceRole: true })).status, 200);
    },
  },
  {
    source: `${IT}GroupDeployIntegrationTest.scala:415`, test: 'Groups with relative dependencies still can be deployed',
    expect: 'relative dependencies (../db/db1 on an app, ../service on a group) are answered as absolute paths',
    run: async (t, p) => {
      const res = await p.call('POST', '/v2/groups', {
        id: '/it/rel', apps: [],
        groups: [
          { id: 'db', apps: [app('/it/rel/db/db1', { instances: 0 })] },
          { id: 'service', apps: [app('/it/rel/service/service1', { instances: 0, dependencies: ['../db/db1'] })] },
          { id: 'frontend', apps: [app('/it/rel/frontend/frontend1', { instances: 0 })], dependencies: ['../service'] },
        ],
      });
      t.equal(res.status, 201);
      settle(p);
      const info = (await p.call('GET', '/v2/groups/it/rel')).json;
      const group = (id: string) => info.groups.find((g: { id: string }) => g.id === id);
      t.same(group('/it/rel/frontend').dependencies, ['/it/rel/service']);
      t.same(group('/it/rel/service').apps[0].dependencies, ['/it/rel/db/db1']);
    },
  },

  // ── EventsIntegrationTest ───────────────────────────────────────────────────────────────────
  {
    source: `${IT}EventsIntegrationTest.scala:16`, test: 'receive only app deployment event',
    expect: 'a stream filtered with event_type=deployment_success gets deployment_success first; an unfiltered one gets more than one event type',
    run: async (t, p) => {
      const all = await stream(t, p);
      const filtered = await stream(t, p, '?event_type=deployment_success');
      const res = await p.call('POST', '/v2/apps', app('/ev/a'));
      settle(p);
      await streamed(filtered, 'deployment_success', (d) => d.id === depId(res));
      await streamed(all, 'deployment_success', (d) => d.id === depId(res));
      t.equal(filtered.parsed().events[0].event, 'deployment_success');
      t.ok(new Set(all.parsed().events.map((e) => e.event)).size > 1);
    },
  },
  {
    source: `${IT}EventsIntegrationTest.scala:48`, test: 'always receive only small events',
    expect: 'deployment_success on an unfiltered stream carries a plan without original (nor target)',
    run: async (t, p) => {
      const all = await stream(t, p);
      const res = await p.call('POST', '/v2/apps', app('/ev/b'));
      settle(p);
      const success = await streamed(all, 'deployment_success', (d) => d.id === depId(res));
      t.notOk('original' in (success.plan as object));
      t.notOk('target' in (success.plan as object));
    },
  },

  // ── InfoIntegrationTest ─────────────────────────────────────────────────────────────────────
  {
    source: `${IT}InfoIntegrationTest.scala:9`, test: 'v2/info returns the right values',
    expect: 'GET /v2/info → 200, elected true, http_config.http_port the configured port; leader equals X-Marathon-Leader without http:// and GET /v2/leader\'s leader',
    run: async (t, p) => {
      const info = await p.call('GET', '/v2/info');
      t.equal(info.status, 200);
      t.equal(info.json.elected, true);
      t.equal(info.json.http_config.http_port, 8080, 'TEST_API_CONFIG.httpAddress');
      t.equal(info.json.leader, (info.headers.get('x-marathon-leader') ?? '').replace('http://', ''));
      t.equal(info.json.leader, (await p.call('GET', '/v2/leader')).json.leader);
      t.equal(info.json.marathon_config.master, 'sim://test');
    },
  },

  // ── LaunchQueueIntegrationTest ──────────────────────────────────────────────────────────────
  {
    source: `${IT}LaunchQueueIntegrationTest.scala:17`, test: 'GET /v2/queue with an empty queue',
    expect: 'no deployment → GET /v2/queue 200 {queue: []}',
    run: async (t, p) => {
      t.same((await p.call('GET', '/v2/deployments')).json, []);
      const q = await p.call('GET', '/v2/queue');
      t.equal(q.status, 200);
      t.same(q.json, { queue: [] });
    },
  },
  {
    source: `${IT}LaunchQueueIntegrationTest.scala:29`, test: 'GET /v2/queue with pending app',
    expect: 'an app of 5 that no offer fits → one queue entry with app.id and count 5',
    run: async (t, p) => {
      await p.call('POST', '/v2/apps', { id: '/lq/app', cmd: 'na', instances: 5, ...NEVER });
      settle(p);
      const q = (await p.call('GET', '/v2/queue')).json.queue;
      t.equal(q.length, 1);
      t.equal(q[0].app.id, '/lq/app');
      t.equal(q[0].count, 5);
    },
  },
  {
    source: `${IT}LaunchQueueIntegrationTest.scala:49`, test: 'GET /v2/queue with backed-off failing app',
    expect: 'an app whose task failed with backoffSeconds 60 → one queue entry for it with delay.timeLeftSeconds > 0',
    run: async (t, p) => {
      await failingApp(t, p, '/lq/fail-app', 60);
      const q = (await p.call('GET', '/v2/queue')).json.queue;
      t.equal(q.length, 1);
      t.equal(q[0].app.id, '/lq/fail-app');
      t.ok(q[0].delay.timeLeftSeconds > 0);
    },
  },

  // ── TaskKillingIntegrationTest ──────────────────────────────────────────────────────────────
  {
    source: `${IT}TaskKillingIntegrationTest.scala:44`, test: 'Killing an ephemeral task without wipe or scale causes a new task to be restarted with a higher incarnation count',
    expect: 'after DELETE /v2/apps/{id}/tasks/{taskId}, the replacement task is the same instance with incarnation + 1 (._app.1 → ._app.2)',
    run: async (t, p) => {
      await runningApp(t, p, '/tk/app');
      const [task] = await taskIds(p, '/tk/app');
      t.equal((await p.call('DELETE', `/v2/apps/tk/app/tasks/${task}`)).status, 200);
      settle(p);
      t.match(task, /\._app\.1$/);
      t.same(await taskIds(p, '/tk/app'), [task.replace(/\._app\.1$/, '._app.2')]);
    },
  },
  {
    source: `${IT}TaskKillingIntegrationTest.scala:73`, test: 'Killing an ephemeral task with wipe causes a brand new instance to be created',
    expect: 'after DELETE …/tasks/{taskId}?wipe=true, the replacement task belongs to a new instance id',
    run: async (t, p) => {
      await runningApp(t, p, '/tk/wipe');
      const [task] = await taskIds(p, '/tk/wipe');
      t.equal((await p.call('DELETE', `/v2/apps/tk/wipe/tasks/${task}?wipe=true`)).status, 200);
      settle(p);
      const after = await taskIds(p, '/tk/wipe');
      t.equal(after.length, 1);
      t.not(after[0].split('._app.')[0], task.split('._app.')[0]);
    },
  },

  // ── MesosAppIntegrationTest (pods) ──────────────────────────────────────────────────────────
  {
    source: `${IT}MesosAppIntegrationTest.scala:83`, test: 'deploy a simple pod',
    expect: 'POST /v2/pods → 201 + header, deployment succeeds, status STABLE; PUT with 2 instances → 200 + header; DELETE → 202 + header, each deployment succeeding',
    run: async (t, p) => {
      const create = await p.call('POST', '/v2/pods', pod('/simple-pod'));
      t.equal(create.status, 201);
      settle(p);
      t.ok(deploymentSucceeded(p, depId(create)));
      t.equal((await p.call('GET', '/v2/pods/simple-pod::status')).json.status, 'STABLE');
      const scale = await p.call('PUT', '/v2/pods/simple-pod', pod('/simple-pod', { scaling: { kind: 'fixed', instances: 2 } }));
      t.equal(scale.status, 200);
      settle(p);
      t.ok(deploymentSucceeded(p, depId(scale)));
      const del = await p.call('DELETE', '/v2/pods/simple-pod');
      t.equal(del.status, 202);
      settle(p);
      t.ok(deploymentSucceeded(p, depId(del)));
    },
  },
  {
    source: `${IT}MesosAppIntegrationTest.scala:299`, test: 'deleting a group deletes pods deployed in the group',
    expect: 'a pod in /foo: GET /v2/groups/foo 200; DELETE /v2/groups/foo → 200 + header whose deployment succeeds; no deployment left for the pod',
    run: async (t, p) => {
      await p.call('POST', '/v2/pods', pod('/foo/simple-pod-is-deleted-with-group'));
      settle(p);
      t.equal((await p.call('GET', '/v2/pods')).json.length, 1);
      t.equal((await p.call('GET', '/v2/groups/foo')).status, 200);
      const del = await p.call('DELETE', '/v2/groups/foo');
      t.equal(del.status, 200);
      settle(p);
      t.ok(deploymentSucceeded(p, depId(del)));
      t.same((await p.call('GET', '/v2/deployments')).json, []);
      t.same((await p.call('GET', '/v2/pods')).json, []);
    },
  },
  {
    source: `${IT}MesosAppIntegrationTest.scala:322`, test: 'list pod versions',
    expect: 'GET /v2/pods/{id}::versions → 200, one version: the create response\'s',
    run: async (t, p) => {
      const create = await p.call('POST', '/v2/pods', pod('/pv'));
      settle(p);
      const versions = await p.call('GET', '/v2/pods/pv::versions');
      t.equal(versions.status, 200);
      t.same(versions.json, [create.json.version]);
    },
  },
  {
    source: `${IT}MesosAppIntegrationTest.scala:339`, test: 'correctly version pods',
    expect: 'after a PUT adding a container, ::versions/{original} has 1 container and ::versions/{update\'s version} has 2',
    run: async (t, p) => {
      const create = await p.call('POST', '/v2/pods', pod('/pv'));
      settle(p);
      p.server.harness.advance(1000);
      const base = pod('/pv');
      const upd = await p.call('PUT', '/v2/pods/pv', { ...base, containers: [...(base.containers as object[]), { name: 'task3', exec: { command: { shell: 'sleep 1000' } }, resources: { cpus: 0.1, mem: 32 } }] });
      t.equal(upd.status, 200);
      settle(p);
      const v1 = await p.call('GET', `/v2/pods/pv::versions/${create.json.version}`);
      t.equal(v1.status, 200);
      t.equal(v1.json.containers.length, 1);
      const v2 = await p.call('GET', `/v2/pods/pv::versions/${upd.json.version}`);
      t.equal(v2.status, 200);
      t.equal(v2.json.containers.length, 2);
    },
  },
  {
    source: `${IT}MesosAppIntegrationTest.scala:372`, test: 'stop (forcefully delete) a pod deployment',
    expect: 'an unplaceable pod\'s deployment stopped with DELETE /v2/deployments/{id}?force=true → 202; deployment_failed; no deployment left; the pod stays',
    run: async (t, p) => {
      const create = await p.call('POST', '/v2/pods', pod('/pf', { scheduling: { placement: { constraints: [{ fieldName: 'nonExistent', operator: 'CLUSTER', value: 'na' }] } } }));
      t.equal(create.status, 201);
      t.match(depId(create), UUID);
      settle(p);
      t.equal((await p.call('GET', '/v2/deployments')).json.length, 1);
      const stop = await p.call('DELETE', `/v2/deployments/${depId(create)}?force=true`);
      t.equal(stop.status, 202);
      t.ok(events(p, 'deployment_failed').some((e) => e.id === depId(create)));
      t.same((await p.call('GET', '/v2/deployments')).json, []);
      t.equal((await p.call('GET', '/v2/pods/pf')).status, 200);
    },
  },
  {
    source: `${IT}MesosAppIntegrationTest.scala:402`, test: 'rollback a pod deployment',
    expect: 'DELETE /v2/deployments/{id} of an unplaceable pod → 200 + a new header id; deployment_failed (old) and deployment_success (rollback); the pod is gone (404)',
    run: async (t, p) => {
      const create = await p.call('POST', '/v2/pods', pod('/pr', { scheduling: { placement: { constraints: [{ fieldName: 'nonExistent', operator: 'CLUSTER', value: 'na' }] } } }));
      settle(p);
      const rb = await p.call('DELETE', `/v2/deployments/${depId(create)}`);
      t.equal(rb.status, 200);
      t.match(depId(rb), UUID);
      settle(p);
      t.ok(events(p, 'deployment_failed').some((e) => e.id === depId(create)));
      t.ok(deploymentSucceeded(p, depId(rb)));
      t.same((await p.call('GET', '/v2/deployments')).json, []);
      t.equal((await p.call('GET', '/v2/pods/pr')).status, 404);
    },
  },
  {
    source: `${IT}MesosAppIntegrationTest.scala:439`, test: 'delete pod instances',
    expect: 'DELETE /v2/pods/{id}::instances/{instanceId} → 200; TASK_KILLED then TASK_RUNNING; the same instance id comes back, still 2 instances; with wipe=true → 200 and a new instance id',
    run: async (t, p) => {
      await p.call('POST', '/v2/pods', pod('/pi', { scaling: { kind: 'fixed', instances: 2 } }));
      settle(p);
      const status = (await p.call('GET', '/v2/pods/pi::status')).json;
      t.equal(status.instances.length, 2);
      const id = status.instances[0].id;
      t.equal((await p.call('DELETE', `/v2/pods/pi::instances/${id}`)).status, 200);
      settle(p);
      t.ok(events(p, 'status_update_event').some((e) => e.taskStatus === 'TASK_KILLED'));
      const after = (await p.call('GET', '/v2/pods/pi::status')).json;
      t.equal(after.status, 'STABLE');
      t.equal(after.instances.length, 2);
      t.ok(after.instances.some((i: { id: string }) => i.id === id), 'relaunched under the same instance id');
      t.equal((await p.call('DELETE', `/v2/pods/pi::instances/${id}?wipe=true`)).status, 200);
      settle(p);
      const wiped = (await p.call('GET', '/v2/pods/pi::status')).json;
      t.equal(wiped.instances.length, 2);
      t.notOk(wiped.instances.some((i: { id: string }) => i.id === id));
    },
  },
  {
    source: `${IT}MesosAppIntegrationTest.scala:479`, test: 'delete pod instances (the restarted instance should have incremented the incarnation)',
    expect: 'a pod container\'s containerId is a task id with an incarnation: <instance>.task1.1 on the first launch, <instance>.task1.2 after DELETE ::instances/{id} relaunches it',
    run: async (t, p) => {
      await p.call('POST', '/v2/pods', pod('/pinc'));
      settle(p);
      const [before] = (await p.call('GET', '/v2/pods/pinc::status')).json.instances;
      t.equal(before.containers[0].containerId, `${before.id}.task1.1`);
      t.equal((await p.call('DELETE', `/v2/pods/pinc::instances/${before.id}`)).status, 200);
      settle(p);
      const [after] = (await p.call('GET', '/v2/pods/pinc::status')).json.instances;
      t.equal(after.id, before.id);
      t.equal(after.containers[0].containerId, `${before.id}.task1.2`);
    },
  },
  {
    source: `${IT}MesosAppIntegrationTest.scala:505`, test: 'wipe simple pod instance',
    expect: 'DELETE ::instances/{id}?wipe=true → 200; once the kill is confirmed the id is unknown to ::status and a new instance runs',
    run: async (t, p) => {
      await p.call('POST', '/v2/pods', pod('/pw'));
      settle(p);
      const id = (await p.call('GET', '/v2/pods/pw::status')).json.instances[0].id;
      t.equal((await p.call('DELETE', `/v2/pods/pw::instances/${id}?wipe=true`)).status, 200);
      settle(p);
      const after = (await p.call('GET', '/v2/pods/pw::status')).json.instances;
      t.equal(after.length, 1);
      t.not(after[0].id, id);
    },
  },
  {
    source: `${IT}MesosAppIntegrationTest.scala:522`, test: 'wipe simple pod instance (pod instance is erased from marathon\'s knowledge)',
    expect: 'DELETE ::instances/{id}?wipe=true → 200, and at once (no TASK_KILLED answered yet) ::status no longer lists the instance; its task is killed; a new instance runs',
    run: async (t, p) => {
      await p.call('POST', '/v2/pods', pod('/pw'));
      settle(p);
      const [inst] = (await p.call('GET', '/v2/pods/pw::status')).json.instances;
      t.equal((await p.call('DELETE', `/v2/pods/pw::instances/${inst.id}?wipe=true`)).status, 200);
      t.notOk((await p.call('GET', '/v2/pods/pw::status')).json.instances.some((i: { id: string }) => i.id === inst.id));
      t.same(p.server.harness.calls('kill').map((k) => k.taskId), [inst.containers[0].containerId]);
      settle(p);
      const after = (await p.call('GET', '/v2/pods/pw::status')).json.instances;
      t.equal(after.length, 1);
      t.not(after[0].id, inst.id);
    },
  },
  {
    source: `${IT}MesosAppIntegrationTest.scala:538`, test: 'deploy a simple pod with unique constraint and then',
    expect: 'a pod with hostname UNIQUE scaled to 2 on one agent (force=true → 200): its queue entry (under "pod") counts UnfulfilledConstraint declines ≥ 1; 1 instance runs',
    run: async (t, p) => {
      await p.call('POST', '/v2/pods', pod('/pu', { scheduling: { placement: { constraints: [{ fieldName: 'hostname', operator: 'UNIQUE' }] } } }));
      settle(p);
      const upd = await p.call('PUT', '/v2/pods/pu?force=true', pod('/pu', { scaling: { kind: 'fixed', instances: 2 }, scheduling: { placement: { constraints: [{ fieldName: 'hostname', operator: 'UNIQUE' }] } } }));
      t.equal(upd.status, 200);
      settle(p);
      const entry = (await p.call('GET', '/v2/queue')).json.queue.find((q: { pod?: { id: string } }) => q.pod?.id === '/pu');
      const reason = entry.processedOffersSummary.rejectSummaryLastOffers.find((r: { reason: string }) => r.reason === 'UnfulfilledConstraint');
      t.ok(reason.declined >= 1);
      t.equal((await p.call('GET', '/v2/pods/pu::status')).json.instances.filter((i: { status: string }) => i.status === 'STABLE').length, 1);
    },
  },

  // ── AppsResourceTest ────────────────────────────────────────────────────────────────────────
  {
    source: `${RT}AppsResourceTest.scala:202`, test: 'Create a new app successfully',
    expect: 'POST /v2/apps → 201 + header; the body is the normalized app with version, role "*", upgradeStrategy 1/1, zero task counts and deployments [{id}]',
    run: async (t, p) => {
      p.server.harness.advance(5000);
      const res = await p.call('POST', '/v2/apps', { id: '/app', cmd: 'cmd' });
      t.equal(res.status, 201);
      t.match(res.json, {
        id: '/app', cmd: 'cmd', role: '*', upgradeStrategy: { minimumHealthCapacity: 1, maximumOverCapacity: 1 },
        tasksStaged: 0, tasksRunning: 0, tasksHealthy: 0, tasksUnhealthy: 0, deployments: [{ id: depId(res) }],
      });
      t.equal(res.json.version, new Date(p.server.harness.nowMs).toISOString(), 'the version is the time of the request');
      t.notOk('tasks' in res.json);
    },
  },
  {
    source: `${RT}AppsResourceTest.scala:572`, test: 'Do partial update with patch methods',
    expect: 'PATCH /v2/apps/{id} {id, instances: 2} → 200 with the deployment header',
    run: async (t, p) => {
      await runningApp(t, p, '/app', { cmd: 'cmd' });
      const res = await p.call('PATCH', '/v2/apps/app', { id: '/app', instances: 2 });
      t.equal(res.status, 200);
      t.match(depId(res), UUID);
    },
  },
  ...([['mem', -128], ['cpus', -1], ['instances', -1]] as const).map(([field, value]): Row => ({
    source: `${RT}AppsResourceTest.scala:1181`, test: 'Create a new app fails with Validation errors for negative resources',
    expect: `POST /v2/apps with ${field} ${value} → 422`,
    run: async (t, p) => {
      const res = await p.call('POST', '/v2/apps', { id: '/app', cmd: 'cmd', [field]: value });
      t.equal(res.status, 422);
      t.equal(res.json.details[0].path, `/${field}`);
    },
  })),
  {
    source: `${RT}AppsResourceTest.scala:1217`, test: 'Create a new app successfully using ports instead of portDefinitions',
    expect: 'POST with portDefinitions 1000, 1001 → 201 with those ports in portDefinitions',
    run: async (t, p) => {
      const res = await p.call('POST', '/v2/apps', { id: '/app', cmd: 'cmd', portDefinitions: [{ port: 1000 }, { port: 1001 }] });
      t.equal(res.status, 201);
      t.same(res.json.portDefinitions.map((d: { port: number }) => d.port), [1000, 1001]);
      t.same(res.json.deployments, [{ id: depId(res) }]);
    },
  },
  {
    source: `${RT}AppsResourceTest.scala:1254`, test: 'Create a new app fails with Validation errors',
    expect: 'POST /v2/apps with only an id → 422',
    run: async (t, p) => {
      t.equal((await p.call('POST', '/v2/apps', { id: '/app' })).status, 422);
    },
  },
  {
    source: `${RT}AppsResourceTest.scala:1266`, test: 'Create a new app with float instance count fails',
    expect: 'POST /v2/apps with instances 0.1 → 422',
    run: async (t, p) => {
      t.equal((await p.call('POST', '/v2/apps', { id: '/foo', cmd: 'cmd', instances: 0.1 })).status, 422);
    },
  },
  {
    source: `${RT}AppsResourceTest.scala:1282`, test: 'Replace an existing application',
    expect: 'PUT /v2/apps/{id} {cmd} on an existing app → 200 with the deployment header',
    run: async (t, p) => {
      await runningApp(t, p, '/app', { cmd: 'foo' });
      const res = await p.call('PUT', '/v2/apps/app', { cmd: 'bla' });
      t.equal(res.status, 200);
      t.match(depId(res), UUID);
    },
  },
  {
    source: `${RT}AppsResourceTest.scala:1301`, test: 'Replace an existing application using ports instead of portDefinitions',
    expect: 'PUT with the deprecated "ports": [1000, 1001] → 200 with the deployment header; the app gets those ports',
    run: async (t, p) => {
      await runningApp(t, p, '/app', { cmd: 'foo' });
      const res = await p.call('PUT', '/v2/apps/app', { id: '/app', cmd: 'foo', ports: [1000, 1001] });
      t.equal(res.status, 200);
      t.match(depId(res), UUID);
      t.same((await p.call('GET', '/v2/apps/app')).json.app.portDefinitions.map((d: { port: number }) => d.port), [1000, 1001]);
    },
  },
  {
    source: `${RT}AppsResourceTest.scala:1793`, test: 'Restart an existing app',
    expect: 'POST /v2/apps/{id}/restart?force=true → 200 with the deployment header',
    run: async (t, p) => {
      await runningApp(t, p, '/app', { cmd: 'sleep' });
      const res = await p.call('POST', '/v2/apps/app/restart?force=true');
      t.equal(res.status, 200);
      t.match(depId(res), UUID);
    },
  },
  {
    source: `${RT}AppsResourceTest.scala:1809`, test: 'Restart a non existing app will fail',
    expect: 'POST /v2/apps/{unknown}/restart?force=true → 404',
    run: async (t, p) => {
      t.equal((await p.call('POST', '/v2/apps/app/restart?force=true')).status, 404);
    },
  },
  {
    source: `${RT}AppsResourceTest.scala:1820`, test: 'Index has counts and deployments by default (regression for #2171)',
    expect: 'GET /v2/apps without embed: every app has deployments and the task counts',
    run: async (t, p) => {
      const res = await p.call('POST', '/v2/apps', { id: '/app', cmd: 'foo', ...NEVER });
      settle(p);
      const [listed] = (await p.call('GET', '/v2/apps')).json.apps;
      t.same(listed.deployments, [{ id: depId(res) }]);
      t.match(listed, { tasksStaged: 0, tasksRunning: 0, tasksHealthy: 0, tasksUnhealthy: 0 });
    },
  },
  {
    source: `${RT}AppsResourceTest.scala:1843`, test: 'Index passes with embed LastTaskFailure (regression for #4765)',
    expect: 'GET /v2/apps?embed=apps.lastTaskFailure → 200; an app whose task failed carries lastTaskFailure.state and still the counts',
    run: async (t, p) => {
      await failingApp(t, p, '/app', 60);
      const res = await p.call('GET', '/v2/apps?embed=apps.lastTaskFailure');
      t.equal(res.status, 200);
      t.equal(res.json.apps[0].lastTaskFailure.state, 'TASK_FAILED');
      t.equal(res.json.apps[0].tasksStaged, 0);
    },
  },
  {
    source: `${RT}AppsResourceTest.scala:1869`, test: 'Search apps can be filtered',
    expect: 'GET /v2/apps?cmd=&id=&label= filter as Marathon\'s search: cmd and id are substrings, label a selector, empty values match all, filters combine with and',
    run: async (t, p) => {
      await p.call('POST', '/v2/apps', { id: '/app/service-a', cmd: 'party hard', labels: { a: '1', b: '2' } });
      await p.call('POST', '/v2/apps', { id: '/app/service-b', cmd: 'work hard', labels: { a: '1', b: '3' } });
      const cases: [string, string[]][] = [
        ['', ['/app/service-a', '/app/service-b']], ['cmd=', ['/app/service-a', '/app/service-b']], ['cmd=party', ['/app/service-a']],
        ['cmd=work', ['/app/service-b']], ['cmd=hard', ['/app/service-a', '/app/service-b']], ['cmd=none', []],
        ['id=app', ['/app/service-a', '/app/service-b']], ['id=service-a', ['/app/service-a']], ['cmd=party&id=app', ['/app/service-a']],
        ['cmd=work&id=app', ['/app/service-b']], ['cmd=hard&id=service-a', ['/app/service-a']], ['cmd=&id=', ['/app/service-a', '/app/service-b']],
        ['label=b==2', ['/app/service-a']], ['cmd=party&id=app&label=a==1', ['/app/service-a']], ['cmd=work&id=app&label=a==1', ['/app/service-b']],
        ['cmd=hard&id=service-a&label=a==1', ['/app/service-a']], ['cmd=&id=&label=', ['/app/service-a', '/app/service-b']],
      ];
      for (const [query, ids] of cases) {
        const res = await p.call('GET', `/v2/apps?${query}`);
        t.same(res.json.apps.map((a: { id: string }) => a.id).sort(), ids, query);
      }
    },
  },
  {
    source: `${RT}AppsResourceTest.scala:2064`, test: 'AppUpdate does not change existing versionInfo',
    expect: 'a PUT that changes nothing but instances keeps lastConfigChangeAt (only lastScalingAt moves)',
    run: async (t, p) => {
      const created = await p.call('POST', '/v2/apps', app('/test', { cmd: 'sleep 1' }));
      settle(p);
      p.server.harness.advance(1000);
      await p.call('PUT', '/v2/apps/test', { instances: 2 });
      const info = (await p.call('GET', '/v2/apps/test')).json.app.versionInfo;
      t.equal(info.lastConfigChangeAt, created.json.version);
      t.not(info.lastScalingAt, created.json.version);
    },
  },
  {
    source: `${RT}AppsResourceTest.scala:2086`, test: 'Creating an app with artifacts to fetch specified should succeed and return all the artifact properties passed',
    expect: 'POST with fetch [{uri, extract false, executable true, cache false, destPath}] → 201 echoing every property',
    run: async (t, p) => {
      const fetch = [{ uri: 'file:///bin/bash', extract: false, executable: true, cache: false, destPath: 'bash.copy' }];
      const res = await p.call('POST', '/v2/apps', { id: '/fetch', cmd: 'sleep 600', cpus: 0.1, mem: 10, instances: 1, fetch });
      t.equal(res.status, 201);
      t.same(res.json.fetch, fetch);
    },
  },
  {
    source: `${RT}AppsResourceTest.scala:2193`, test: 'Create a new top-level app with no role defined should set role to default role',
    expect: 'a top-level app without role → 201 with role "*"',
    run: async (t, p) => {
      const res = await p.call('POST', '/v2/apps', { id: '/app', cmd: 'cmd' });
      t.equal(res.status, 201);
      t.equal(res.json.role, '*');
    },
  },
  {
    source: `${RT}AppsResourceTest.scala:2234`, test: 'Create a new top-level app with a custom role defined should reject',
    expect: 'a top-level app with role NotTheDefaultRole → 422 at /role "got NotTheDefaultRole, expected …"',
    run: async (t, p) => {
      const res = await p.call('POST', '/v2/apps', { id: '/app', cmd: 'cmd', role: 'NotTheDefaultRole' });
      t.equal(res.status, 422);
      t.match(res.text, '/role');
      t.match(res.text, 'got NotTheDefaultRole, expected ');
    },
  },
  {
    source: `${RT}AppsResourceTest.scala:2272`, test: 'Create a new app inside a group with a custom role defined should reject',
    expect: '/dev/app with role NotTheDefaultRole → 422 at /role "got NotTheDefaultRole, expected …"',
    run: async (t, p) => {
      await p.call('POST', '/v2/groups', { id: '/dev' });
      const res = await p.call('POST', '/v2/apps', { id: '/dev/app', cmd: 'cmd', role: 'NotTheDefaultRole' });
      t.equal(res.status, 422);
      t.match(res.text, '/role');
      t.match(res.text, 'got NotTheDefaultRole, expected ');
    },
  },
  {
    source: `${RT}AppsResourceTest.scala:2357`, test: 'Create a new app inside a group with the top-group role defined should accept',
    expect: '/dev/app with role dev → 201',
    run: async (t, p) => {
      t.equal((await p.call('POST', '/v2/apps', { id: '/dev/app', cmd: 'cmd', role: 'dev' })).status, 201);
    },
  },
  {
    source: `${RT}AppsResourceTest.scala:2374`, test: 'Create a new app inside a sub group with the sub-group name as role defined should reject',
    expect: '/dev/sub/something/app with role sub → 422 at /role "got sub, expected …"',
    run: async (t, p) => {
      const res = await p.call('POST', '/v2/apps', { id: '/dev/sub/something/app', cmd: 'cmd', role: 'sub' });
      t.equal(res.status, 422);
      t.match(res.text, '/role');
      t.match(res.text, 'got sub, expected ');
    },
  },
  {
    source: `${RT}AppsResourceTest.scala:2396`, test: 'Create a new app inside a sub group with the top-group role defined should accept',
    expect: '/dev/sub/something/app with role dev → 201',
    run: async (t, p) => {
      t.equal((await p.call('POST', '/v2/apps', { id: '/dev/sub/something/app', cmd: 'cmd', role: 'dev' })).status, 201);
    },
  },

  // ── GroupsResourceTest ──────────────────────────────────────────────────────────────────────
  ...(['/test', '/foo/bla'] as const).map((gid, i): Row => ({
    source: `${RT}GroupsResourceTest.scala:${i === 0 ? 70 : 96}`, test: i === 0 ? 'dry run update' : 'dry run update on an existing group',
    expect: `PUT /v2/groups${gid}?dryRun=true with a new app → the plan: StartApplication then ScaleApplication of that app; nothing is deployed`,
    run: async (t, p) => {
      const res = await p.call('PUT', `/v2/groups${gid}?dryRun=true`, { id: gid, apps: [{ id: `${gid}/app`, cmd: 'test cmd' }] });
      t.equal(res.status, 200);
      t.same(res.json.steps.map((s: { actions: { action: string; app: string }[] }) => s.actions.map((a) => [a.action, a.app])), [[['StartApplication', `${gid}/app`]], [['ScaleApplication', `${gid}/app`]]]);
      t.equal((await p.call('GET', `/v2/apps${gid}/app`)).status, 404);
    },
  })),
  {
    source: `${RT}GroupsResourceTest.scala:268`, test: 'Group Versions for root are transferred as simple json string array (Fix #2329)',
    expect: 'GET /v2/groups/versions → 200, a JSON array of timestamp strings',
    run: async (t, p) => {
      await p.call('POST', '/v2/groups', { id: '/g' });
      const res = await p.call('GET', '/v2/groups/versions');
      t.equal(res.status, 200);
      t.ok(Array.isArray(res.json) && res.json.length >= 1 && res.json.every((v: unknown) => typeof v === 'string' && TIMESTAMP.test(v)), res.text);
    },
  },
  {
    source: `${RT}GroupsResourceTest.scala:282`, test: 'Group Versions for path are transferred as simple json string array (Fix #2329)',
    expect: 'GET /v2/groups/foo/bla/blub/versions → 200, a JSON array of timestamp strings',
    run: async (t, p) => {
      await p.call('POST', '/v2/groups', { id: '/foo/bla/blub' });
      const res = await p.call('GET', '/v2/groups/foo/bla/blub/versions');
      t.equal(res.status, 200);
      t.ok(Array.isArray(res.json) && res.json.length >= 1 && res.json.every((v: unknown) => typeof v === 'string' && TIMESTAMP.test(v)), res.text);
    },
  },
  {
    source: `${RT}GroupsResourceTest.scala:297`, test: 'Creation of a group with same path as an existing app should be prohibited (fixes #3385)',
    expect: 'POST /v2/groups {id: "/group/app"} where that app exists → 409',
    run: async (t, p) => {
      await p.call('POST', '/v2/apps', app('/group/app'));
      t.equal((await p.call('POST', '/v2/groups', { id: '/group/app' })).status, 409);
    },
  },
  {
    source: `${RT}GroupsResourceTest.scala:315`, test: 'Creation of a group with same path as an existing group should be prohibited',
    expect: 'POST /v2/groups {id: "/group"} where that group exists → 409',
    run: async (t, p) => {
      await p.call('POST', '/v2/groups', { id: '/group' });
      t.equal((await p.call('POST', '/v2/groups', { id: '/group' })).status, 409);
    },
  },
  {
    source: `${RT}GroupsResourceTest.scala:330`, test: 'Creation of a top-level relative group path creates the group in the root with the appropriate default enforceRole',
    expect: 'POST /v2/groups {id: "relative"} → 201 and the group is /relative (not /relative/relative)',
    run: async (t, p) => {
      const res = await p.call('POST', '/v2/groups', { id: 'relative' });
      t.equal(res.status, 201);
      const root = (await p.call('GET', '/v2/groups')).json;
      t.same(root.groups.map((g: { id: string }) => g.id), ['/relative']);
      t.same(root.groups[0].groups, []);
    },
  },
  {
    source: `${RT}GroupsResourceTest.scala:348`, test: 'Creation of a relative group path inside of a specified parent group creates the group in the parent group',
    expect: 'POST /v2/groups/parent {id: "child"} → 201 and the group is /parent/child',
    run: async (t, p) => {
      const res = await p.call('POST', '/v2/groups/parent', { id: 'child' });
      t.equal(res.status, 201);
      t.equal((await p.call('GET', '/v2/groups/parent/child')).status, 200);
      t.same((await p.call('GET', '/v2/groups/parent')).json.groups.map((g: { id: string }) => g.id), ['/parent/child']);
    },
  },
  {
    source: `${RT}GroupsResourceTest.scala:525`, test: 'Fail a batch update when apps are modified and enforceRole is changed for an unrelated group',
    expect: 'POST /v2/groups (as the test: createWithPath, id "/", which exists) and PUT /v2/groups/ adding an app in one group and flipping enforceRole of another → 422 saying enforceRole cannot change: the body is validated before the group\'s existence is checked (GroupsResource.scala:158-175)',
    run: async (t, p) => {
      await p.call('POST', '/v2/groups', { id: '/dev', enforceRole: false });
      const body = { id: '/', groups: [{ id: 'unrelated', apps: [{ id: 'goodnight', cmd: 'sleep 1', instances: 0 }] }, { id: '/dev', enforceRole: true }] };
      for (const method of ['POST', 'PUT']) {
        const res = await p.call(method, method === 'POST' ? '/v2/groups' : '/v2/groups/', body);
        t.equal(res.status, 422, method);
        t.match(res.text, /enforceRole cannot be modified/, method);
      }
      const valid = await p.call('POST', '/v2/groups', { id: '/dev' });
      t.equal(valid.status, 409, 'a valid body for an existing group is still the 409');
    },
  },
  {
    source: `${RT}GroupsResourceTest.scala:563`, test: 'allow an update to enforceRole when id is not specified',
    expect: 'PUT /v2/groups/dev {enforceRole: true} (no id) → 200 and the group has enforceRole true',
    run: async (t, p) => {
      await p.call('POST', '/v2/groups', { id: '/dev', enforceRole: false });
      const res = await p.call('PUT', '/v2/groups/dev', { enforceRole: true });
      t.equal(res.status, 200);
      t.equal((await p.call('GET', '/v2/groups/dev')).json.enforceRole, true);
    },
  },

  // ── PodsResourceTest ────────────────────────────────────────────────────────────────────────
  {
    source: `${RT}PodsResourceTest.scala:662`, test: 'delete a pod',
    expect: 'DELETE /v2/pods/{id} → 202 with no body and the deployment header',
    run: async (t, p) => {
      await p.call('POST', '/v2/pods', pod('/mypod'));
      settle(p);
      const res = await p.call('DELETE', '/v2/pods/mypod');
      t.equal(res.status, 202);
      t.equal(res.text, '');
      t.match(depId(res), UUID);
    },
  },
  {
    source: `${RT}PodsResourceTest.scala:682`, test: 'lookup a specific pod, and that pod does not exist',
    expect: 'GET /v2/pods/{unknown} → 404 whose body names the pod and says "does not exist" (pacer does not copy Marathon\'s doubly encoded message: marathon-api-facts.md fact 83)',
    run: async (t, p) => {
      const res = await p.call('GET', '/v2/pods/mypod');
      t.equal(res.status, 404);
      t.match(res.json.message, /mypod.*does not exist/);
    },
  },
  {
    source: `${RT}PodsResourceTest.scala:697`, test: 'find all pods',
    expect: 'GET /v2/pods → 200, a JSON array with one entry per pod',
    run: async (t, p) => {
      await p.call('POST', '/v2/pods', pod('/p1'));
      await p.call('POST', '/v2/pods', pod('/p2'));
      const res = await p.call('GET', '/v2/pods');
      t.equal(res.status, 200);
      t.equal(res.json.length, 2);
    },
  },
  {
    source: `${RT}PodsResourceTest.scala:712`, test: 'get pod status',
    expect: 'GET /v2/pods/{id}::status → 200 with id',
    run: async (t, p) => {
      await p.call('POST', '/v2/pods', pod('/mypod'));
      const res = await p.call('GET', '/v2/pods/mypod::status');
      t.equal(res.status, 200);
      t.equal(res.json.id, '/mypod');
    },
  },
  {
    source: `${RT}PodsResourceTest.scala:743`, test: 'get all pod statuses',
    expect: 'GET /v2/pods/::status → 200, one status per pod',
    run: async (t, p) => {
      await p.call('POST', '/v2/pods', pod('/p1'));
      await p.call('POST', '/v2/pods', pod('/p2'));
      const res = await p.call('GET', '/v2/pods/::status');
      t.equal(res.status, 200);
      t.same(res.json.map((s: { id: string }) => s.id).sort(), ['/p1', '/p2']);
    },
  },
  {
    source: `${RT}PodsResourceTest.scala:1904`, test: 'list no versions',
    expect: 'GET /v2/pods/{unknown}::versions → 404',
    run: async (t, p) => {
      t.equal((await p.call('GET', '/v2/pods/id::versions')).status, 404);
    },
  },
  {
    source: `${RT}PodsResourceTest.scala:1916`, test: 'return 404 when asking for a version',
    expect: 'GET /v2/pods/{unknown}::versions/{ts} → 404 {"message":"Pod \'/id\' does not exist","details":[]}',
    run: async (t, p) => {
      const res = await p.call('GET', '/v2/pods/id::versions/2008-01-01T12:00:00.000Z');
      t.equal(res.status, 404);
      t.equal(res.text, '{"message":"Pod \'/id\' does not exist","details":[]}');
    },
  },
  {
    source: `${RT}PodsResourceTest.scala:1950`, test: 'get a specific version',
    expect: 'GET /v2/pods/{id}::versions/{first version} after an update → 200, the pod as it was',
    run: async (t, p) => {
      const v1 = await p.call('POST', '/v2/pods', pod('/id'));
      p.server.harness.advance(60_000);
      await p.call('PUT', '/v2/pods/id?force=true', pod('/id', { labels: { v: '2' } }));
      const res = await p.call('GET', `/v2/pods/id::versions/${v1.json.version}`);
      t.equal(res.status, 200);
      t.same(res.json.labels, {});
      t.equal(res.json.version, v1.json.version);
    },
  },
  {
    source: `${RT}PodsResourceTest.scala:1968`, test: 'attempting to kill a single instance',
    expect: 'DELETE /v2/pods/{id}::instances/{instanceId} → 200 with the instance: instanceId, agentInfo {host, attributes}, runSpecVersion, state {condition, since, activeSince, goal}, unreachableStrategy',
    run: async (t, p) => {
      const created = await p.call('POST', '/v2/pods', pod('/id1'));
      settle(p);
      const id = (await p.call('GET', '/v2/pods/id1::status')).json.instances[0].id;
      const res = await p.call('DELETE', `/v2/pods/id1::instances/${id}`);
      t.equal(res.status, 200);
      t.match(res.json, {
        instanceId: id, agentInfo: { host: 'host-1', attributes: [] }, runSpecVersion: created.json.version,
        state: { condition: 'Running', since: String, activeSince: String, goal: 'Running' },
        unreachableStrategy: { inactiveAfterSeconds: 900, expungeAfterSeconds: 604800 },
      });
    },
  },
  {
    source: `${RT}PodsResourceTest.scala:2010`, test: 'attempting to kill multiple instances',
    expect: 'DELETE /v2/pods/{id}::instances with a JSON array of instance ids → 200, an array of those instances',
    run: async (t, p) => {
      await p.call('POST', '/v2/pods', pod('/id1', { scaling: { kind: 'fixed', instances: 2 } }));
      settle(p);
      const ids = (await p.call('GET', '/v2/pods/id1::status')).json.instances.map((i: { id: string }) => i.id).sort();
      const res = await p.call('DELETE', '/v2/pods/id1::instances', ids);
      t.equal(res.status, 200);
      t.same(res.json.map((i: { instanceId: string }) => i.instanceId).sort(), ids);
    },
  },

  // ── TasksResourceTest ───────────────────────────────────────────────────────────────────────
  {
    source: `${RT}TasksResourceTest.scala:56`, test: 'list apps when there are no apps',
    expect: 'GET /v2/tasks with nothing deployed → 200 {tasks: []}',
    run: async (t, p) => {
      const res = await p.call('GET', '/v2/tasks?status=status');
      t.equal(res.status, 200);
      t.same(res.json, { tasks: [] });
    },
  },
  {
    source: `${RT}TasksResourceTest.scala:71`, test: 'killTasks',
    expect: 'POST /v2/tasks/delete {ids: [a task of each of two apps]} → 200 {tasks: [...]}; both tasks are killed',
    run: async (t, p) => {
      await p.call('POST', '/v2/apps', app('/my/app-1'));
      await p.call('POST', '/v2/apps', app('/my/app-2'));
      settle(p);
      const ids = [...(await taskIds(p, '/my/app-1')), ...(await taskIds(p, '/my/app-2'))];
      const killsBefore = p.server.harness.calls('kill').length;
      const res = await p.call('POST', '/v2/tasks/delete', { ids });
      t.equal(res.status, 200);
      t.same(Object.keys(res.json), ['tasks']);
      t.same(p.server.harness.calls('kill').slice(killsBefore).map((k) => k.taskId).sort(), [...ids].sort());
    },
  },
  {
    source: `${RT}TasksResourceTest.scala:109`, test: 'try to kill pod instances',
    expect: 'POST /v2/tasks/delete {ids: [a pod container\'s task id]} → 200 {tasks: []}; nothing is killed (only app tasks are killed there: TasksResource.scala:127-133); with scale=true nothing is killed either',
    run: async (t, p) => {
      await p.call('POST', '/v2/pods', pod('/pod'));
      settle(p);
      const [inst] = (await p.call('GET', '/v2/pods/pod::status')).json.instances;
      const killsBefore = p.server.harness.calls('kill').length;
      const res = await p.call('POST', '/v2/tasks/delete', { ids: [inst.containers[0].containerId] });
      t.equal(res.status, 200);
      t.same(res.json, { tasks: [] });
      const scaled = await p.call('POST', '/v2/tasks/delete?scale=true', { ids: [inst.containers[0].containerId] });
      t.equal(scaled.status, 200);
      t.equal(p.server.harness.calls('kill').length, killsBefore, 'no kill');
      t.equal((await p.call('GET', '/v2/pods/pod')).json.scaling.instances, 1, 'the pod is not scaled');
    },
  },
  {
    source: `${RT}TasksResourceTest.scala:136`, test: 'killTasks with force',
    expect: 'POST /v2/tasks/delete?scale=true&force=true → 200 with the deployment header and exactly {deploymentId, version}',
    run: async (t, p) => {
      await p.call('POST', '/v2/apps', app('/my/app-1'));
      await p.call('POST', '/v2/apps', app('/my/app-2'));
      settle(p);
      const ids = [...(await taskIds(p, '/my/app-1')), ...(await taskIds(p, '/my/app-2'))];
      const res = await p.call('POST', '/v2/tasks/delete?scale=true&force=true', { ids });
      t.equal(res.status, 200);
      t.same(Object.keys(res.json).sort(), ['deploymentId', 'version']);
      t.equal(res.json.deploymentId, depId(res));
    },
  },
  {
    source: `${RT}TasksResourceTest.scala:174`, test: 'killTasks with scale and wipe fails',
    expect: 'POST /v2/tasks/delete?scale=true&wipe=true → 400 {"message":"You cannot use scale and wipe at the same time."}',
    run: async (t, p) => {
      const res = await p.call('POST', '/v2/tasks/delete?scale=true&wipe=true', { ids: ['my_app-1.instance-6f3b1ad6-5d8c-11e8-8dcf-0242ac110002._app.1'] });
      t.equal(res.status, 400);
      t.equal(res.text, '{"message":"You cannot use scale and wipe at the same time."}');
    },
  },
  {
    source: `${RT}TasksResourceTest.scala:313`, test: 'killTasks fails for invalid taskId',
    expect: 'POST /v2/tasks/delete with a valid and an invalid id → 400 naming the invalid id; nothing is killed',
    run: async (t, p) => {
      await runningApp(t, p, '/my/app-1');
      const [id] = await taskIds(p, '/my/app-1');
      const killsBefore = p.server.harness.calls('kill').length;
      const res = await p.call('POST', '/v2/tasks/delete', { ids: [id, 'invalidTaskId'] });
      t.equal(res.status, 400);
      t.match(res.text, 'invalidTaskId');
      t.equal(p.server.harness.calls('kill').length, killsBefore);
    },
  },

  // ── SpecInstancesResourceTest (app tasks) ───────────────────────────────────────────────────
  {
    source: `${RT}SpecInstancesResourceTest.scala:129`, test: 'deleteMany with scale and wipe fails',
    expect: 'DELETE /v2/apps/{id}/tasks?host=host&scale=true&wipe=true → 400 "You cannot use scale and wipe at the same time."',
    run: async (t, p) => {
      const res = await p.call('DELETE', '/v2/apps/my/app/tasks?host=host&scale=true&wipe=true');
      t.equal(res.status, 400);
      t.match(res.text, 'You cannot use scale and wipe at the same time.');
    },
  },
  {
    source: `${RT}SpecInstancesResourceTest.scala:153`, test: 'deleteOne',
    expect: 'DELETE /v2/apps/{id}/tasks/{taskId} → 200 {task: {appId, healthCheckResults [], host, id, role, ipAddresses, ports, servicePorts [], slaveId, state, stagedAt, version, localVolumes []}}',
    run: async (t, p) => {
      await runningApp(t, p, '/my/app', { instances: 2 });
      const [id] = await taskIds(p, '/my/app');
      const res = await p.call('DELETE', `/v2/apps/my/app/tasks/${id}`);
      t.equal(res.status, 200);
      t.same(Object.keys(res.json), ['task']);
      t.match(res.json.task, { appId: '/my/app', healthCheckResults: [], host: 'host-1', id, role: '*', ipAddresses: [], ports: Array, servicePorts: [], slaveId: String, state: 'TASK_RUNNING', stagedAt: TIMESTAMP, version: TIMESTAMP, localVolumes: [] });
    },
  },
  {
    source: `${RT}SpecInstancesResourceTest.scala:204`, test: 'deleteOne with scale and wipe fails',
    expect: 'DELETE /v2/apps/{id}/tasks/{taskId}?scale=true&wipe=true → 400 "You cannot use scale and wipe at the same time."',
    run: async (t, p) => {
      await runningApp(t, p, '/my/app');
      const [id] = await taskIds(p, '/my/app');
      const res = await p.call('DELETE', `/v2/apps/my/app/tasks/${id}?scale=true&wipe=true`);
      t.equal(res.status, 400);
      t.match(res.text, 'You cannot use scale and wipe at the same time.');
    },
  },
  {
    source: `${RT}SpecInstancesResourceTest.scala:270`, test: 'get tasks',
    expect: 'GET /v2/apps/{id}/tasks of two staged tasks → {tasks: [...]} each with state TASK_STAGING, stagedAt and no startedAt',
    run: async (t, p) => {
      await p.call('POST', '/v2/apps', app('/my/app', { instances: 2 }));
      const h = p.server.harness;
      for (const l of h.offer(makeOffer())) h.status(l.taskId, 'TASK_STAGING');
      const res = await p.call('GET', '/v2/apps/my/app/tasks');
      t.equal(res.status, 200);
      t.equal(res.json.tasks.length, 2);
      for (const task of res.json.tasks) {
        t.match(task, { appId: '/my/app', state: 'TASK_STAGING', stagedAt: TIMESTAMP, healthCheckResults: [], localVolumes: [], servicePorts: [] });
        t.notOk('startedAt' in task);
      }
    },
  },

  // ── QueueResourceTest ───────────────────────────────────────────────────────────────────────
  {
    source: `${RT}QueueResourceTest.scala:55`, test: 'return well formatted JSON',
    expect: 'GET /v2/queue?embed=lastUnusedOffers: each entry has app, count, delay {overdue, timeLeftSeconds}, processedOffersSummary {processedOffersCount, unusedOffersCount, rejectSummaryLaunchAttempt[{reason, declined}]}, lastUnusedOffers[{offer {agentId, hostname, resources[{name, scalar}]}}]',
    run: async (t, p) => {
      await p.call('POST', '/v2/apps', { id: '/app', cmd: 'x', instances: 23, cpus: 8 });
      p.server.harness.offer(makeOffer());
      const q = (await p.call('GET', '/v2/queue?embed=lastUnusedOffers')).json.queue;
      const entry = q.find((e: { app?: { id: string } }) => e.app?.id === '/app');
      t.equal(entry.count, 23);
      t.match(entry.delay, { overdue: Boolean, timeLeftSeconds: Number });
      t.match(entry.processedOffersSummary, { processedOffersCount: 1, unusedOffersCount: 1 });
      t.ok(entry.processedOffersSummary.rejectSummaryLaunchAttempt.some((r: { reason: string; declined: number }) => r.reason === 'InsufficientCpus' && r.declined >= 1));
      const offer = entry.lastUnusedOffers[0].offer;
      t.match(offer, { agentId: String, hostname: 'host-1' });
      const cpus = offer.resources.find((r: { name: string }) => r.name === 'cpus');
      t.equal(cpus.scalar, 4);
      t.notOk('set' in cpus);
      t.notOk('ranges' in cpus);
    },
  },
  {
    source: `${RT}QueueResourceTest.scala:112`, test: 'the generated info from the queue contains 0 if there is no delay',
    expect: 'a queued app with no backoff pending → delay {overdue: true, timeLeftSeconds: 0}',
    run: async (t, p) => {
      await p.call('POST', '/v2/apps', { id: '/app', cmd: 'x', instances: 23, cpus: 8 });
      p.server.harness.offer(makeOffer());
      const entry = (await p.call('GET', '/v2/queue')).json.queue[0];
      t.same(entry.delay, { timeLeftSeconds: 0, overdue: true });
    },
  },
  {
    source: `${RT}QueueResourceTest.scala:150`, test: 'unknown application backoff can not be removed from the launch queue',
    expect: 'DELETE /v2/queue/{unknown}/delay → 404',
    run: async (t, p) => {
      t.equal((await p.call('DELETE', '/v2/queue/unknown/delay')).status, 404);
    },
  },
  {
    source: `${RT}QueueResourceTest.scala:161`, test: 'application backoff can be removed from the launch queue',
    expect: 'DELETE /v2/queue/{id}/delay of a queued app → 204 and its delay is gone (overdue, 0 left)',
    run: async (t, p) => {
      await failingApp(t, p, '/app', 600);
      t.equal((await p.call('DELETE', '/v2/queue/app/delay')).status, 204);
      const entry = (await p.call('GET', '/v2/queue')).json.queue[0];
      t.same(entry?.delay, { timeLeftSeconds: 0, overdue: true });
    },
  },

  // ── DeploymentsResourceTest ─────────────────────────────────────────────────────────────────
  {
    source: `${RT}DeploymentsResourceTest.scala:63`, test: 'get a simple deployment',
    expect: 'GET /v2/deployments: [{id, version, affectedApps ["/test"], affectedPods [], steps [StartApplication, ScaleApplication], currentActions, currentStep, totalSteps 2}]',
    run: async (t, p) => {
      const res = await p.call('POST', '/v2/apps', { id: '/test', cmd: 'sleep', ...NEVER });
      const [d] = (await p.call('GET', '/v2/deployments')).json;
      t.same(Object.keys(d).sort(), ['affectedApps', 'affectedPods', 'currentActions', 'currentStep', 'id', 'steps', 'totalSteps', 'version']);
      t.match(d, {
        id: depId(res), version: res.json.version, affectedApps: ['/test'], affectedPods: [],
        steps: [{ actions: [{ action: 'StartApplication', app: '/test' }] }, { actions: [{ action: 'ScaleApplication', app: '/test' }] }],
        totalSteps: 2,
      });
      t.ok(Array.isArray(d.currentActions));
      t.type(d.currentStep, 'number');
    },
  },

  // ── AppVersionsResourceTest ─────────────────────────────────────────────────────────────────
  {
    source: `${RT}AppVersionsResourceTest.scala:53`, test: 'access to index without authorization leads to 404 when the app does not exist',
    expect: 'GET /v2/apps/{unknown}/versions → 404',
    run: async (t, p) => {
      t.equal((await p.call('GET', '/v2/apps/appId/versions')).status, 404);
    },
  },
  {
    source: `${RT}AppVersionsResourceTest.scala:80`, test: 'access to show without authorization leads to a 404 when the app version does not exist',
    expect: 'GET /v2/apps/{id}/versions/{a version it never had} → 404',
    run: async (t, p) => {
      await p.call('POST', '/v2/apps', app('/appId'));
      t.equal((await p.call('GET', '/v2/apps/appId/versions/2015-01-01T00:00:00.000Z')).status, 404);
    },
  },
];

for (const row of ROWS) {
  t.test(`${row.expect} — marathon: ${row.source} "${row.test}"`, async (t) => {
    const p = await pacer(t);
    await row.run(t, p);
  });
}

// Keep the helpers referenced while the table grows.
void TIMESTAMP;
