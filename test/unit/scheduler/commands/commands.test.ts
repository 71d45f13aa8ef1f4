import t from 'tap';
import { makeOffer } from '../../../builders/cluster-builders';
import { makeApp, makePod, versionAt } from '../../../builders/run-spec-builders';
import { Harness, START_MS } from '../../../harness/core-harness';

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
  t.same(spec?.definition.versionInfo, spec?.versionInfo, 'the definition says the same');
  t.equal(spec?.version, versionAt(30));
  t.same(h.calls('kill'), [], 'nothing restarted');
  t.same(h.conditions('/app'), ['Running', 'Scheduled', 'Scheduled']);
  t.equal(h.scheduler.instance(launched[0].instanceId)?.runSpecVersion, versionAt(0), 'the running instance keeps its version');
});

t.test('scale command writes a new version stamped by the clock; pods update scaling.instances', async (t) => {
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
  t.match(app?.definition, { instances: 2, version: ts });
  const pod = h.scheduler.runSpec('/pod');
  t.match(pod, { instances: 3, version: ts });
  t.match(pod?.definition, { scaling: { kind: 'fixed', instances: 3 }, version: ts });
  t.equal(h.store.runSpecs.get('/pod')?.instances, 3);
  t.same(h.conditions('/pod'), ['Scheduled', 'Scheduled', 'Scheduled']);
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

t.test('subscribed: framework id stored, every known task reconciled', async (t) => {
  const h = new Harness();
  const launched = h.deploy(makeApp({ instances: 2 }));
  h.handle({ type: 'subscribed', frameworkId: 'fw-1' });
  t.equal(h.store.frameworkId, 'fw-1');
  t.same(h.calls('reconcile'), [{ type: 'reconcile', tasks: launched.map((l) => ({ taskId: l.taskId, agentId: l.agentId })) }]);
  h.advance(600_000);
  t.equal(h.calls('reconcile').length, 2, 'and periodically (reconciliation interval)');
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
