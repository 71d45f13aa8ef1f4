import t from 'tap';
import type { Test } from 'tap';
import { body } from '../tasks/tasks-fixture';
import { as, authzAuth, seed, SEEDED, type TestPrincipal } from '../authz/authz-kit';
import { seedWeb, whatIfApi, type WhatIfFixture } from './what-if-fixture';
import { makeAgent, makeOffer } from '../../builders/cluster-builders';

/** What the live side holds: driver calls, store writes, events, run specs, deployments. */
function liveMarks(fx: WhatIfFixture): Record<string, unknown> {
  return {
    driverCalls: fx.harness.driver.calls.length, storeWrites: fx.harness.store.writes, events: fx.harness.log.length,
    runSpecs: fx.harness.scheduler.runSpecs().map((s) => `${s.id}@${s.version}:${s.instances}`),
    deployments: fx.harness.scheduler.runningPlans().map((p) => p.id), apiEvents: fx.apiEvents.length,
  };
}

interface Answer {
  deployment: string;
  finished: boolean;
  finishedAfterMs?: number;
  launched: { instanceId: string; runSpecId: string; agentId: string; hostname: string }[];
  killed: { instanceId: string; reason?: string }[];
  waiting: { runSpecId: string; instances: number; reasons: Record<string, number> }[];
  simulate: string;
  agents: number;
}

const NEW_APP = { id: '/api', cmd: 'sleep 100', instances: 3, cpus: 0.5, mem: 128 };

t.test('a simulated write answers what the fork did and touches nothing live: no driver call, no store write, no event', async (t) => {
  const cases: { name: string; method: 'POST' | 'PUT' | 'DELETE'; url: string; payload?: Record<string, unknown>; check: (a: Answer, t: Test) => void }[] = [
    {
      name: 'POST /v2/apps: a new app', method: 'POST', url: '/v2/apps?dryRun=true&simulate=PT10M', payload: NEW_APP,
      check: (a, t) => {
        t.equal(a.deployment, 'finished');
        t.equal(a.launched.length, 3);
        t.ok(a.launched.every((l) => l.runSpecId === '/api' && ['agent-a', 'agent-b'].includes(l.agentId)), 'placed on the known agents');
      },
    },
    {
      name: 'PUT /v2/apps/web: scale up past what fits', method: 'PUT', url: '/v2/apps/web?dryRun=true&simulate=PT2M', payload: { instances: 10 },
      check: (a, t) => {
        // agent-a has 1 cpu left (2 more), agent-b 2 cpus (4 more): 6 of 8 fit.
        t.equal(a.launched.length, 6);
        t.equal(a.deployment, 'running');
        t.equal(a.finished, false);
        t.same(a.waiting.map((w) => [w.runSpecId, w.instances]), [['/web', 2]]);
        t.ok((a.waiting[0]?.reasons.InsufficientCpus ?? 0) > 0, 'waits for cpus');
      },
    },
    {
      name: 'PUT /v2/groups: the same through the groups API', method: 'PUT', url: '/v2/groups?dryRun=true&simulate=PT10M',
      payload: { id: '/', apps: [{ id: '/web', cmd: 'sleep 100', instances: 1, cpus: 0.5, mem: 256 }] },
      check: (a, t) => {
        t.equal(a.deployment, 'finished');
        // A new definition (another command): both instances are replaced by one.
        t.same(a.killed.map((k) => k.reason), ['replaced', 'replaced']);
        t.equal(a.launched.length, 1);
      },
    },
    {
      name: 'POST /v2/apps/web/restart', method: 'POST', url: '/v2/apps/web/restart?dryRun=true&simulate=PT10M',
      check: (a, t) => {
        t.equal(a.deployment, 'finished');
        t.same(a.killed.map((k) => k.reason), ['replaced', 'replaced']);
        t.equal(a.launched.length, 2);
      },
    },
    {
      name: 'DELETE /v2/apps/web', method: 'DELETE', url: '/v2/apps/web?dryRun=true&simulate=PT10M',
      check: (a, t) => {
        t.equal(a.deployment, 'finished');
        t.same(a.killed.map((k) => k.reason), ['deleted', 'deleted']);
      },
    },
  ];
  for (const c of cases) {
    await t.test(c.name, async (t) => {
      const fx = whatIfApi(t);
      seedWeb(fx);
      const before = liveMarks(fx);
      const res = await fx.app.inject({ method: c.method, url: c.url, ...(c.payload === undefined ? {} : { payload: c.payload }) });
      t.equal(res.statusCode, 200, res.body);
      const a = body<Answer>(res);
      t.equal(a.agents, 2);
      c.check(a, t);
      t.same(liveMarks(fx), before, 'nothing live changed: no driver call, no store write, no event, no deployment');
      t.equal(res.headers['marathon-deployment-id'], undefined, 'no deployment header: nothing was deployed');
    });
  }
});

t.test('plain dryRun=true on a group keeps Marathon\'s answer (the plan\'s steps)', async (t) => {
  const fx = whatIfApi(t);
  seedWeb(fx);
  const res = await fx.app.inject({ method: 'PUT', url: '/v2/groups?dryRun=true', payload: { id: '/', apps: [{ id: '/web', cmd: 'sleep 100', instances: 1, cpus: 0.5, mem: 256 }] } });
  t.equal(res.statusCode, 200);
  t.match(body(res), { steps: [{ actions: [{ action: String }] }] });
  t.notOk('launched' in body(res));
});

t.test('plain dryRun=true on an app write keeps the current behaviour: the write is made (Marathon\'s app routes have no dryRun)', async (t) => {
  const fx = whatIfApi(t);
  seedWeb(fx);
  const res = await fx.app.inject({ method: 'POST', url: '/v2/apps?dryRun=true', payload: NEW_APP });
  t.equal(res.statusCode, 201);
  t.ok(fx.harness.scheduler.runSpec('/api') !== undefined, 'created');
});

t.test('plain dryRun=true on POST /v2/groups makes the group, as Marathon\'s group creation takes no dryRun (the README says so)', async (t) => {
  const fx = whatIfApi(t);
  seedWeb(fx);
  const res = await fx.app.inject({ method: 'POST', url: '/v2/groups?dryRun=true', payload: { id: '/g2', apps: [{ id: '/g2/a', cmd: 'sleep 100', instances: 1, cpus: 0.1, mem: 16 }] } });
  t.equal(res.statusCode, 201, res.body);
  t.match(body(res), { version: String, deploymentId: String });
  t.ok(fx.harness.scheduler.runSpec('/g2/a') !== undefined, 'created');
});

t.test('bad simulate values are 400 and change nothing; a fork refused by the core is answered as the write would be', async (t) => {
  const fx = whatIfApi(t);
  seedWeb(fx);
  const before = liveMarks(fx);
  const bad: { url: string; message: RegExp }[] = [
    { url: '/v2/apps?simulate=PT10M', message: /simulate needs dryRun=true/ },
    { url: '/v2/apps?dryRun=false&simulate=PT10M', message: /simulate needs dryRun=true/ },
    { url: '/v2/apps?dryRun=true&simulate=PT25H', message: /at most PT24H/ },
    { url: '/v2/apps?dryRun=true&simulate=30m', message: /ISO 8601 duration/ },
    { url: '/v2/apps?dryRun=true&simulate=PT0S', message: /longer than zero/ },
    { url: '/v2/apps?dryRun=true&simulate=', message: /ISO 8601 duration/ },
    { url: '/v2/apps?dryRun=true&simulate=PT1M&simulate=PT2M', message: /given once/ },
    { url: `/v2/apps?dryRun=true&simulate=PT${'9'.repeat(40)}S`, message: /at most PT24H/ },
  ];
  for (const b of bad) {
    const res = await fx.app.inject({ method: 'POST', url: b.url, payload: NEW_APP });
    t.equal(res.statusCode, 400, b.url);
    t.match(body(res).message, b.message, b.url);
  }
  const conflict = await fx.app.inject({ method: 'POST', url: '/v2/apps?dryRun=true&simulate=PT1M', payload: { id: '/web', cmd: 'x', cpus: 0.1, mem: 16 } });
  t.equal(conflict.statusCode, 409, 'an existing app: 409 as the write');
  const invalid = await fx.app.inject({ method: 'POST', url: '/v2/apps?dryRun=true&simulate=PT1M', payload: { id: '/bad', cpus: -1 } });
  t.equal(invalid.statusCode, 422, 'an invalid definition: 422 as the write');
  t.same(liveMarks(fx), before, 'nothing live changed');
});

t.test('a cluster beyond the fork limits is refused with 422', async (t) => {
  const fx = whatIfApi(t, { limits: { maxInstances: 1 } });
  seedWeb(fx);
  const res = await fx.app.inject({ method: 'POST', url: '/v2/apps?dryRun=true&simulate=PT1M', payload: NEW_APP });
  t.equal(res.statusCode, 422);
  t.match(body(res).message, /more than 1 instances: too large to fork/);
  const cap = await fx.app.inject({ method: 'GET', url: '/v2/capacity?app=/web' });
  t.equal(cap.statusCode, 422);
});

t.test('GET /v2/capacity: how many more instances of the definition fit, per agent, and why not more', async (t) => {
  const fx = whatIfApi(t, { limits: { maxCapacityInstances: 50 } });
  seedWeb(fx);
  const before = liveMarks(fx);
  const res = await fx.app.inject({ method: 'GET', url: '/v2/capacity?app=/web' });
  t.equal(res.statusCode, 200, res.body);
  const a = body<{ fits: number; tried: number; instances: number; byAgent: Record<string, number>; reasons: Record<string, number> }>(res);
  t.equal(a.instances, 2);
  t.equal(a.fits, 6, '1 cpu left on agent-a, 2 on agent-b, 0.5 cpus each');
  t.same(a.byAgent, { 'agent-a': 2, 'agent-b': 4 });
  t.equal(a.tried, 50);
  t.ok((a.reasons.InsufficientCpus ?? 0) > 0);
  t.same(liveMarks(fx), before, 'nothing live changed');
  const cases: [string, number][] = [
    ['/v2/capacity', 400], ['/v2/capacity?app=/web&pod=/web', 400], ['/v2/capacity?app=', 400],
    ['/v2/capacity?app=/nope', 404], ['/v2/capacity?pod=/web', 404], ['/v2/capacity?app=web', 200],
  ];
  for (const [url, status] of cases) t.equal((await fx.app.inject({ method: 'GET', url })).statusCode, status, url);
});

t.test('a simulated write needs the permission of the write it simulates; so does a capacity question', async (t) => {
  const { auth } = authzAuth(t);
  const fx = whatIfApi(t, { auth });
  seed(fx);
  const asked = async (principal: TestPrincipal, method: 'POST' | 'PUT' | 'GET', url: string, payload?: unknown): Promise<number> =>
    (await fx.app.inject({ method, url, headers: { ...as(principal), 'content-type': 'application/json' }, ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }) })).statusCode;
  const cases: { who: TestPrincipal; method: 'POST' | 'PUT' | 'GET'; url: string; payload?: unknown; status: number }[] = [
    { who: 'bob', method: 'PUT', url: `/v2/apps${SEEDED.teamAApp}?dryRun=true&simulate=PT1M`, payload: { instances: 3 }, status: 403 },
    { who: 'bob', method: 'PUT', url: `/v2/apps${SEEDED.teamBApp}?dryRun=true&simulate=PT1M`, payload: { instances: 2 }, status: 200 },
    { who: 'alice', method: 'PUT', url: `/v2/apps${SEEDED.teamAApp}?dryRun=true&simulate=PT1M`, payload: { instances: 3 }, status: 200 },
    { who: 'viewer', method: 'POST', url: '/v2/apps?dryRun=true&simulate=PT1M', payload: { id: '/team-a/new', cmd: 'x', cpus: 0.1, mem: 16 }, status: 403 },
    { who: 'lead', method: 'PUT', url: '/v2/groups/team-a?dryRun=true&simulate=PT1M', payload: { scaleBy: 2 }, status: 403 },
    { who: 'lead', method: 'PUT', url: '/v2/groups/team-b?dryRun=true&simulate=PT1M', payload: { scaleBy: 2 }, status: 200 },
    { who: 'bob', method: 'GET', url: `/v2/capacity?app=${SEEDED.teamAApp}`, status: 403 },
    { who: 'viewer', method: 'GET', url: `/v2/capacity?app=${SEEDED.teamBApp}`, status: 403 },
    { who: 'bob', method: 'GET', url: `/v2/capacity?app=${SEEDED.teamBApp}`, status: 200 },
    { who: 'nobody', method: 'GET', url: `/v2/capacity?app=${SEEDED.teamAApp}`, status: 403 },
  ];
  const before = liveMarks(fx);
  for (const c of cases) t.equal(await asked(c.who, c.method, c.url, c.payload), c.status, `${c.method} ${c.url} as ${c.who}`);
  t.same(liveMarks(fx), before, 'nothing live changed');
});

t.test('pods: a simulated pod creation places the pod\'s instance; a running pod is adopted with its task group', async (t) => {
  const fx = whatIfApi(t);
  seedWeb(fx);
  const pod = { id: '/db', scaling: { kind: 'fixed', instances: 2 }, containers: [{ name: 'c', resources: { cpus: 0.25, mem: 64 }, exec: { command: { shell: 'sleep 100' } } }] };
  const before = liveMarks(fx);
  const res = await fx.app.inject({ method: 'POST', url: '/v2/pods?dryRun=true&simulate=PT5M', payload: pod });
  t.equal(res.statusCode, 200, res.body);
  const a = body<Answer>(res);
  t.equal(a.deployment, 'finished');
  t.equal(a.launched.length, 2);
  t.ok(a.launched.every((l) => l.runSpecId === '/db'));
  t.same(liveMarks(fx), before, 'nothing live changed');
  // Now make it live, run its tasks, and simulate a change of the running pod: its instances are adopted as task groups.
  t.equal((await fx.app.inject({ method: 'POST', url: '/v2/pods', payload: pod })).statusCode, 201);
  fx.harness.advance(1000);
  fx.harness.run(fx.harness.offer(makeOffer({ agent: makeAgent({ agentId: 'agent-b', hostname: 'host-b' }), cpus: 2, mem: 2048 })));
  t.equal(fx.harness.instances('/db').filter((i) => i.condition === 'Running').length, 2, 'the pod runs live');
  fx.harness.advance(10_000);
  fx.harness.offer(makeOffer({ agent: makeAgent({ agentId: 'agent-b', hostname: 'host-b' }), cpus: 1.4, mem: 1792 }));
  const live = liveMarks(fx);
  const scaled = await fx.app.inject({ method: 'PUT', url: '/v2/pods/db?dryRun=true&simulate=PT5M', payload: { ...pod, scaling: { kind: 'fixed', instances: 3 } } });
  t.equal(scaled.statusCode, 200, scaled.body);
  const s = body<Answer>(scaled);
  t.equal(s.deployment, 'finished');
  t.equal(s.launched.length, 1, 'one more pod instance');
  t.same(s.killed, [], 'the running ones are kept');
  t.same(liveMarks(fx), live, 'nothing live changed');
});

t.test('the kill of a task can be simulated too (DELETE /v2/apps/{id}/tasks/{taskId})', async (t) => {
  const fx = whatIfApi(t);
  seedWeb(fx);
  const taskId = fx.harness.instances('/web')[0].tasks[0].taskId;
  const before = liveMarks(fx);
  const res = await fx.app.inject({ method: 'DELETE', url: `/v2/apps/web/tasks/${taskId}?scale=true&dryRun=true&simulate=PT1M` });
  t.equal(res.statusCode, 200, res.body);
  const a = body<Answer>(res);
  t.equal(a.killed.length, 1, 'that instance would be killed');
  t.equal(a.launched.length, 0, 'and not replaced (scale=true)');
  t.same(liveMarks(fx), before, 'nothing live changed');
});

t.test('a kill without scale starts no deployment: the fork still runs, showing the kill and the replacement', async (t) => {
  // It stopped before its first step ("none" is not "running"): killed [], launched [], simulatedMs 0.
  const fx = whatIfApi(t);
  seedWeb(fx);
  const taskId = fx.harness.instances('/web')[0].tasks[0].taskId;
  const before = liveMarks(fx);
  const res = await fx.app.inject({ method: 'DELETE', url: `/v2/apps/web/tasks/${taskId}?dryRun=true&simulate=PT1M` });
  t.equal(res.statusCode, 200, res.body);
  const a = body<Answer & { simulatedMs: number }>(res);
  t.equal(a.deployment, 'none');
  t.equal(a.killed.length, 1, 'that instance would be killed');
  t.equal(a.launched.length, 1, 'and replaced');
  t.equal(a.simulatedMs, 60_000, 'with no deployment to end it, the fork runs the whole simulate');
  t.same(liveMarks(fx), before, 'nothing live changed');
});
