import t from 'tap';
import { makeOffer } from '../../../builders/cluster-builders';
import { makeApp, makePod, versionAt } from '../../../builders/run-spec-builders';
import { Harness, START_MS } from '../../../harness/core-harness';
import { withRunSpec as putInTree } from '../../../../src/scheduler/groups/with-run-spec';
import { findRunSpec } from '../../../../src/scheduler/groups/tree-query';
import { residentRoleChangeMessage } from '../../../../src/scheduler/groups/role-rules';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

t.test('create: stored, instances scheduled, offers revived', async (t) => {
  const h = new Harness();
  const app = makeApp({ instances: 2 });
  const result = h.put(app);
  t.match(result, { ok: true, deploymentId: UUID, version: app.version }, 'accepted as a deployment; the root takes the run spec version');
  t.same(Object.keys(result).sort(), ['deploymentId', 'ok', 'version']);
  t.equal(h.store.runSpecs.get('/app'), app);
  t.equal(h.scheduler.runSpec('/app'), app);
  t.same(h.conditions('/app'), ['Scheduled', 'Scheduled']);
  t.equal(h.store.instances.size, 2, 'scheduled instances are persisted');
  t.same(h.scheduler.queue().map((q) => [q.runSpec.id, q.scheduled, q.backoffUntilMs]), [['/app', 2, undefined]]);
  t.same(h.calls('revive'), [{ type: 'revive', roles: ['*'] }]);
});

t.test('a scale-only update keeps lastConfigChangeAt and running instances', async (t) => {
  const h = new Harness();
  const launched = h.deploy(makeApp());
  h.clearRecords();
  h.put(makeApp({ instances: 3, version: versionAt(30) }));
  const spec = h.scheduler.runSpec('/app');
  t.same(spec?.versionInfo, { lastConfigChangeAt: versionAt(0), lastScalingAt: versionAt(30) });
  t.equal(spec?.version, versionAt(30));
  t.same(h.calls('kill'), [], 'nothing restarted');
  t.same(h.conditions('/app'), ['Running', 'Scheduled', 'Scheduled']);
  t.equal(h.scheduler.instance(launched[0].instanceId)?.runSpecVersion, versionAt(0), 'the running instance keeps its version');
});

t.test('scale command writes a new version stamped by the clock, for apps and pods', async (t) => {
  const h = new Harness();
  h.put(makeApp());
  h.put(makePod());
  h.advance(42_000);
  // Both creations still wait for offers (their deployments hold the run specs): force past the locks.
  t.match(h.scale('/app', 2), { ok: false, error: 'locked' });
  t.match(h.scale('/app', 2, { force: true }), { ok: true, version: new Date(START_MS + 42_000).toISOString() });
  t.match(h.scale('/pod', 3, { force: true }), { ok: true });
  const ts = new Date(START_MS + 42_000).toISOString();
  const app = h.scheduler.runSpec('/app');
  t.match(app, { instances: 2, version: ts, versionInfo: { lastScalingAt: ts, lastConfigChangeAt: versionAt(0) } });
  const pod = h.scheduler.runSpec('/pod');
  // Scaled in the same millisecond as the app: the root version moves on by 1 ms (versionAfter).
  t.match(pod, { instances: 3, version: new Date(START_MS + 42_001).toISOString() });
  t.equal(h.store.runSpecs.get('/pod')?.instances, 3);
  t.same(h.conditions('/pod'), ['Scheduled', 'Scheduled', 'Scheduled']);
});

t.test('a scale command to the count a run spec has keeps its version, as an unchanged PUT does (fact 46)', async (t) => {
  for (const [name, spec] of [['app', makeApp({ instances: 2 })], ['pod', makePod({ instances: 2 })]] as const) {
    const h = new Harness();
    h.put(spec);
    h.advance(42_000);
    const before = h.scheduler.runSpec(spec.id);
    t.match(h.scale(spec.id, 2, { force: true }), { ok: true }, `${name}: accepted`);
    const after = h.scheduler.runSpec(spec.id);
    t.equal(after, before, `${name}: the stored run spec is kept, version and versionInfo included`);
    t.equal(findRunSpec(h.scheduler.root(), spec.id)?.version, before?.version, `${name}: the root names the version the core runs`);
    t.equal(h.store.runSpecs.get(spec.id)?.version, before?.version, `${name}: the store holds that version`);
  }
});

t.test('scale to zero kills everything but keeps the run spec', async (t) => {
  const h = new Harness();
  const launched = h.deploy(makeApp({ instances: 2 }));
  h.scale('/app', 0);
  for (const l of launched) h.status(l.taskId, 'TASK_KILLED');
  t.same(h.instances('/app'), []);
  t.ok(h.scheduler.runSpec('/app'));
  t.same(h.events('app_terminated_event'), []);
});

t.test('a config update re-targets scheduled instances instead of killing them', async (t) => {
  const h = new Harness();
  h.put(makeApp({ instances: 2, cpus: 100 }));
  const ids = h.instances('/app').map((i) => i.instanceId);
  // The creation still waits for offers and holds /app; forcing stops it (what is tested is the re-targeting).
  t.match(h.put(makeApp({ instances: 2, cpus: 1, version: versionAt(10) }), { force: true }), { ok: true });
  t.same(h.instances('/app').map((i) => [i.instanceId, i.runSpecVersion]), ids.map((id) => [id, versionAt(10)]));
  t.equal(h.offer(makeOffer()).length, 2, 'and they launch with the new resources');
});

t.test('a role change re-targets the offer demand', async (t) => {
  const h = new Harness();
  h.put(makeApp({ id: '/dev/app', cpus: 100 }));
  h.clearRecords();
  t.match(h.put(makeApp({ id: '/dev/app', cpus: 100, role: 'dev', version: versionAt(10) }), { force: true }), { ok: true });
  t.same(h.calls().filter((c) => c.type === 'revive' || c.type === 'suppress'), [
    { type: 'revive', roles: ['dev'] }, { type: 'suppress', roles: ['*'] },
  ]);
  t.equal(h.instances('/dev/app')[0].role, 'dev');
});

t.test('kill-and-scale never goes below zero and counts each instance once', async (t) => {
  const h = new Harness();
  const [l] = h.deploy(makeApp());
  h.kill('/app', [l.instanceId, l.instanceId], { scale: true });
  t.equal(h.scheduler.runSpec('/app')?.instances, 0);
  t.equal(h.calls('kill').length, 1);
});

t.test('kill-and-scale lowers the target only by instances that fill it and are not being killed already (fact 55)', async (t) => {
  type H = InstanceType<typeof Harness>;
  type Launched = ReturnType<H['deploy']>;
  // `named`: the launched instances the two commands name; every other one must keep running.
  const rows: { name: string; before: (h: H, l: Launched) => void; again: (h: H, l: Launched) => unknown; instances: number; named: number[] }[] = [
    {
      name: 'the same task killed and scaled twice, still in its grace period',
      before: (h, l) => h.kill('/app', [l[0].instanceId], { scale: true, force: true }),
      again: (h, l) => h.kill('/app', [l[0].instanceId], { scale: true, force: true }),
      instances: 2,
      named: [0],
    },
    {
      name: 'then through /v2/tasks/delete?scale=true',
      before: (h, l) => h.kill('/app', [l[0].instanceId], { scale: true, force: true }),
      again: (h, l) => h.handle({ type: 'killAndScale', targets: [{ runSpecId: '/app', instanceIds: [l[0].instanceId] }], force: true }),
      instances: 2,
      named: [0],
    },
    {
      name: 'a task killed without scale and reported TASK_KILLING',
      before: (h, l) => { h.kill('/app', [l[0].instanceId]); h.status(l[0].taskId, 'TASK_KILLING'); },
      again: (h, l) => h.kill('/app', [l[0].instanceId], { scale: true }),
      // Decommissioned now, and not counted: a replacement takes its place, as in Marathon.
      instances: 3,
      named: [0],
    },
    {
      name: 'an instance waiting to relaunch, named by the id of its failed task (not active: left as it is)',
      before: (h, l) => h.status(l[0].taskId, 'TASK_FAILED'),
      again: (h, l) => h.handle({ type: 'killAndScale', targets: [{ runSpecId: '/app', instanceIds: [l[0].instanceId] }], force: true }),
      instances: 3,
      named: [],
    },
    {
      name: 'an instance forgotten since the API named it (its TASK_KILLED came first)',
      before: (h, l) => { h.kill('/app', [l[0].instanceId], { scale: true }); h.status(l[0].taskId, 'TASK_KILLED'); },
      again: (h, l) => h.kill('/app', [l[0].instanceId, l[1].instanceId], { scale: true, force: true }),
      instances: 1,
      named: [0, 1],
    },
  ];
  for (const row of rows) {
    const h = new Harness();
    const launched = h.deploy(makeApp({ instances: 3 }));
    row.before(h, launched);
    h.advance(1000);
    t.match(row.again(h, launched), { ok: true }, `${row.name}: answered`);
    t.equal(h.scheduler.runSpec('/app')?.instances, row.instances, `${row.name}: instances`);
    const spared = launched.filter((_, k) => !row.named.includes(k)).map((l) => h.scheduler.instance(l.instanceId)?.goal);
    t.same(spared, spared.map(() => 'Running'), `${row.name}: no other instance is brought down with it`);
  }
});

t.test('subscribed: framework id stored, every known task reconciled explicitly, then implicitly for strays', async (t) => {
  const h = new Harness();
  const launched = h.deploy(makeApp({ instances: 2 }));
  h.handle({ type: 'subscribed', frameworkId: 'fw-1' });
  t.equal(h.store.frameworkId, 'fw-1');
  t.same(h.calls('reconcile'), [
    { type: 'reconcile', tasks: launched.map((l) => ({ taskId: l.taskId, agentId: l.agentId })) },
    { type: 'reconcile', tasks: [] },
  ]);
  h.advance(600_000);
  t.equal(h.calls('reconcile').length, 4, 'and periodically (reconciliation interval)');
});

t.test('rescind, agentLost and disconnected change nothing', async (t) => {
  const h = new Harness();
  const [l] = h.deploy(makeApp());
  h.clearRecords();
  h.handle({ type: 'rescind', offerId: 'o1' });
  h.handle({ type: 'agentLost', agentId: l.agentId });
  h.handle({ type: 'disconnected' });
  t.same(h.effects, []);
  t.same(h.conditions('/app'), ['Running']);
  t.same(h.scheduler.runSpecs().map((s) => s.id), ['/app']);
});

t.test('restart: a new config version of the same definition; a RestartApplication deployment replaces every instance', async (t) => {
  const h = new Harness();
  const launched = h.deploy(makeApp({ instances: 2 }));
  h.advance(10_000);
  h.clearRecords();
  const result = h.handle({ type: 'restart', runSpecId: '/app' });
  t.match(result, { ok: true, deploymentId: UUID, version: versionAt(10) });
  const spec = h.scheduler.runSpec('/app');
  t.same(spec?.versionInfo, { lastConfigChangeAt: versionAt(10), lastScalingAt: versionAt(0) }, 'restart moves lastConfigChangeAt only');
  t.match(h.events('deployment_info'), [{ plan: { steps: [{ actions: [{ action: 'RestartApplication', app: '/app' }] }] } }]);
  t.ok(h.instances('/app').some((i) => i.configVersion === versionAt(10)), 'new instances are scheduled for the new config');
  const fresh = h.offer(makeOffer());
  h.run(...fresh);
  t.same(h.calls('kill').map((k) => k.taskId).sort(), launched.map((l) => l.taskId).sort(), 'the old instances are replaced');
});

t.test('restart of an unknown run spec, and while locked without force', async (t) => {
  const h = new Harness();
  t.match(h.handle({ type: 'restart', runSpecId: '/nope' }), { ok: false, error: 'unknown-run-spec' });
  h.put(makeApp());
  h.advance(1_000);
  t.match(h.handle({ type: 'restart', runSpecId: '/app' }), { ok: false, error: 'locked' }, 'the creation still holds it');
  t.match(h.handle({ type: 'restart', runSpecId: '/app', force: true }), { ok: true });
});

t.test('namespace conflicts are validation failures at / (fact 76: 422, not 409), nothing deployed', async (t) => {
  const cases: [string, () => ReturnType<typeof makeApp> | ReturnType<typeof makePod>, ReturnType<typeof makeApp> | ReturnType<typeof makePod>, string][] = [
    ['an app where a group with apps is', () => makeApp({ id: '/g/a' }), makeApp({ id: '/g' }), 'Groups and Applications may not have the same identifier.'],
    ['a pod where a group with apps is', () => makeApp({ id: '/g/a' }), makePod({ id: '/g' }), 'Groups and Pods may not have the same identifier.'],
    ['a pod where an app is', () => makeApp({ id: '/x' }), makePod({ id: '/x' }), 'Applications and Pods may not share the same id'],
    ['an app where a pod is', () => makePod({ id: '/x' }), makeApp({ id: '/x' }), 'Applications and Pods may not share the same id'],
    ['an app below an app', () => makeApp({ id: '/x' }), makeApp({ id: '/x/y' }), 'Groups and Applications may not have the same identifier.'],
  ];
  for (const [name, first, second, message] of cases) {
    const h = new Harness();
    h.put(first());
    const deployments = h.scheduler.deployments().length;
    t.same(h.put(second, { force: true }), {
      ok: false, error: 'invalid', message: 'Object is not valid', details: [{ path: '/', errors: [message] }],
    }, name);
    t.equal(h.scheduler.deployments().length, deployments, `${name}: no deployment`);
    t.equal(h.scheduler.runSpec(second.id)?.kind, second.id === first().id ? first().kind : undefined, `${name}: the tree is unchanged`);
  }
});

t.test('restart in the same millisecond as the last change still restarts: its version is 1 ms later', async (t) => {
  const h = new Harness();
  const launched = h.deploy(makeApp({ instances: 1 }));
  t.equal(h.nowMs, START_MS, 'no time has passed since the creation');
  const first = h.handle({ type: 'restart', runSpecId: '/app' });
  t.match(first, { ok: true, version: versionAt(0.001) });
  t.same(h.scheduler.runSpec('/app')?.versionInfo, { lastConfigChangeAt: versionAt(0.001), lastScalingAt: versionAt(0) });
  t.match(h.events('deployment_info').at(-1), { plan: { steps: [{ actions: [{ action: 'RestartApplication', app: '/app' }] }] } });
  const second = h.handle({ type: 'restart', runSpecId: '/app', force: true });
  t.match(second, { ok: true, version: versionAt(0.002) }, 'a second one moves on again');
  h.run(...h.offer(makeOffer()));
  t.same(h.calls('kill').map((k) => k.taskId), launched.map((l) => l.taskId), 'the old instance is replaced');
  t.same(h.scheduler.rootVersions().slice(0, 3), [versionAt(0.002), versionAt(0.001), versionAt(0)], 'no root version overwritten');
});

t.test('an unchanged put keeps the run spec and its version (fact 46); the root moves to a later version', async (t) => {
  const cases: [string, number][] = [['later', 5_000], ['in the same millisecond', 0]];
  for (const [name, afterMs] of cases) {
    const h = new Harness();
    const app = makeApp({ instances: 2 });
    h.deploy(app);
    const rootBefore = h.scheduler.root();
    h.advance(afterMs);
    h.clearRecords();
    // The same definition, carrying an older version than the clock (a client's copy): the root
    // gets the clock's now, 1 ms after the current root's when in its millisecond.
    const result = h.put(makeApp({ instances: 2, version: '2025-12-31T00:00:00.000Z' }));
    const expected = afterMs === 0 ? versionAt(0.001) : versionAt(afterMs / 1000);
    t.match(result, { ok: true, version: expected }, `${name}: the root's new version`);
    t.equal(h.scheduler.runSpec('/app'), h.store.runSpecs.get('/app'), `${name}: stored`);
    t.equal(h.scheduler.runSpec('/app')?.version, app.version, `${name}: the run spec keeps its version`);
    t.same(h.scheduler.versions('/app'), [app.version], `${name}: no new run spec version`);
    t.equal(h.scheduler.rootVersion(rootBefore.version), rootBefore, `${name}: the older root history entry is intact`);
    t.same(h.calls('kill'), [], `${name}: nothing restarted`);
  }
});

t.test('a whole-root deploy (bulk app update, group change) changing a resident role is refused unless forced (fact 114)', async (t) => {
  const h = new Harness();
  h.deploy(makeApp({ id: '/dev/db', role: 'dev', resident: true }));
  h.advance(1000);
  const moved = putInTree(h.scheduler.root(), makeApp({ id: '/dev/db', role: '*', resident: true, version: versionAt(1) }), { version: versionAt(1), newGroupEnforceRole: 'off' });
  if (!moved.ok) throw new Error(moved.message);
  t.same(h.handle({ type: 'deploy', root: moved.root }), {
    ok: false, error: 'invalid', message: 'Object is not valid',
    details: [{ path: '/role', errors: ['Resident apps cannot have the role *', residentRoleChangeMessage('dev', '*')] }],
  });
  t.equal(h.scheduler.runSpec('/dev/db')?.role, 'dev', 'nothing changed');
  const other = putInTree(h.scheduler.root(), makeApp({ id: '/dev/db', role: 'ops', resident: true, version: versionAt(1) }), { version: versionAt(1), newGroupEnforceRole: 'off' });
  if (!other.ok) throw new Error(other.message);
  t.same(h.handle({ type: 'deploy', root: other.root, force: true }), {
    ok: false, error: 'invalid', message: 'Object is not valid', details: [{ path: '/role', errors: ['got ops, expected one of: [*, dev]'] }],
  }, 'the allowed roles are checked for a whole-root change too (one place: the deployment manager), force or not');
  // With --mesos_role ops the role is allowed: force accepts the resident role change.
  const withOps = new Harness({ options: { defaultRole: 'ops' } });
  withOps.deploy(makeApp({ id: '/dev/db', role: 'dev', resident: true }));
  withOps.advance(1000);
  const toOps = putInTree(withOps.scheduler.root(), makeApp({ id: '/dev/db', role: 'ops', resident: true, version: versionAt(1) }), { version: versionAt(1), newGroupEnforceRole: 'off' });
  if (!toOps.ok) throw new Error(toOps.message);
  t.match(withOps.handle({ type: 'deploy', root: toOps.root }), { ok: false, details: [{ path: '/role', errors: [residentRoleChangeMessage('dev', 'ops')] }] }, 'refused unless forced');
  t.match(withOps.handle({ type: 'deploy', root: toOps.root, force: true }), { ok: true }, 'with force the change is accepted');
});

t.test('roles are checked in one place for every root change: a put, a bulk put and a group update get the same /role answer', async (t) => {
  const refused = { ok: false, error: 'invalid', message: 'Object is not valid', details: [{ path: '/role', errors: ['got foo, expected one of: [*, dev]'] }] };
  const app = makeApp({ id: '/dev/a', role: 'foo' });
  const h = new Harness();
  t.same(h.put(app), refused, 'putRunSpec');
  t.same(h.handle({ type: 'changeRoot', change: { kind: 'putRunSpecs', specs: [app] } }), refused, 'changeRoot putRunSpecs');
  t.same(h.handle({ type: 'changeRoot', change: { kind: 'updateGroup', update: { id: '/dev', apps: [app] } } }), refused, 'changeRoot updateGroup');
  t.same(h.scheduler.runSpecs(), [], 'nothing changed');
  t.match(h.put(makeApp({ id: '/dev/a', role: 'dev', instances: 0 })), { ok: true }, 'an allowed role is accepted');
});

t.test('one version rule for every root change: a changed put in the current root\'s millisecond is stamped 1 ms later, as a group change is', async (t) => {
  const viaPut = new Harness();
  viaPut.put(makeApp({ instances: 1 }));
  const put = viaPut.put(makeApp({ instances: 1, cmd: 'changed' }), { force: true });
  const viaGroup = new Harness();
  viaGroup.put(makeApp({ instances: 1 }));
  const group = viaGroup.handle({ type: 'changeRoot', change: { kind: 'putRunSpecs', specs: [makeApp({ instances: 1, cmd: 'changed' })] }, force: true });
  const next = new Date(START_MS + 1).toISOString();
  t.match(put, { ok: true, version: next }, 'putRunSpec');
  t.match(group, { ok: true, version: next }, 'changeRoot');
  t.equal(viaPut.scheduler.runSpec('/app')?.version, next, 'the changed run spec takes the root version');
  t.ok(viaPut.scheduler.rootVersion(versionAt(0)), 'the first root version is kept in the history, not overwritten');
});

t.test('a put that closes a dependency cycle gets Marathon\'s answer, as a group change does (fact 74: one check)', async (t) => {
  const h = new Harness();
  h.put(makeApp({ id: '/a', dependencies: ['/b'] }));
  const before = h.scheduler.root();
  t.same(h.put(makeApp({ id: '/b', dependencies: ['/a'] }), { force: true }), {
    ok: false, error: 'invalid', message: 'Object is not valid', details: [{ path: '/', errors: ['Dependency graph has cyclic dependencies.'] }],
  });
  t.equal(h.scheduler.root(), before, 'nothing changed');
});

t.test('a kill-and-scale that kills nothing starts no deployment and writes no root version (one app or several)', async (t) => {
  const h = new Harness();
  h.deploy(makeApp({ instances: 1 }));
  h.advance(1000);
  h.clearRecords();
  const root = h.scheduler.root();
  const answers = [
    h.kill('/app', [], { scale: true }),
    h.handle({ type: 'killAndScale', targets: [], force: false }),
    h.handle({ type: 'killAndScale', targets: [{ runSpecId: '/app', instanceIds: [] }], force: false }),
  ];
  for (const answer of answers) t.match(answer, { ok: true, deploymentId: UUID, version: root.version });
  t.equal(h.scheduler.root(), root, 'the root is unchanged');
  t.same(h.scheduler.deployments(), []);
  t.same(h.events(), [], 'no event: nothing changed');
  t.same(h.calls(), []);
});
