import t from 'tap';
import { makeOffer } from '../../../builders/cluster-builders';
import { makeApp, versionAt } from '../../../builders/run-spec-builders';
import { Harness } from '../../../harness/core-harness';

/** A second core started on what the first one's store holds, at the first one's clock (a restart). */
function restart(h: Harness): Harness {
  return new Harness({ stored: h.store.load(), startMs: h.nowMs });
}

/** Instance ids with their condition and goal, sorted by id. */
function snapshot(h: Harness, id = '/app'): string[] {
  return h.instances(id).map((i) => `${i.instanceId}:${i.condition}:${i.goal}:${i.runSpecVersion}`).sort();
}

t.test('a restart recovers the root, run specs, instances, history and framework id; nothing is relaunched', async (t) => {
  const h1 = new Harness();
  h1.handle({ type: 'subscribed', frameworkId: 'fw-1' });
  h1.deploy(makeApp({ instances: 2 }));
  h1.put(makeApp({ instances: 3, version: versionAt(30) }));
  const h2 = restart(h1);
  t.equal(h2.scheduler.root().version, h1.scheduler.root().version);
  t.same(h2.scheduler.runSpec('/app'), h1.scheduler.runSpec('/app'));
  t.same(snapshot(h2), snapshot(h1), 'same instances, conditions, goals and versions');
  t.same(h2.scheduler.versions('/app'), h1.scheduler.versions('/app'), 'version history survives');
  t.same(h2.scheduler.deployments().map((d) => d.deployment.plan.id), h1.scheduler.deployments().map((d) => d.deployment.plan.id),
    'the scale deployment waiting for an offer is still running');
  t.same(h2.calls('kill'), [], 'nothing killed');
  t.same(h2.calls('revive'), [{ type: 'revive', roles: ['*'] }], 'offers revived for the instance still waiting');
  t.equal(h2.scheduler.queue()[0]?.scheduled, 1);
  h2.handle({ type: 'subscribed', frameworkId: 'fw-1' });
  t.same(h2.calls('reconcile').flatMap((c) => c.tasks.map((x) => x.taskId)).sort(),
    h1.instances('/app').flatMap((i) => i.tasks.map((x) => x.taskId)).sort(), 'known tasks are reconciled after resubscribing');
  const launched = h2.offer(makeOffer());
  t.equal(launched.length, 1, 'only the missing instance is launched');
  h2.run(...launched);
  t.same(h2.scheduler.deployments(), [], 'the recovered deployment finishes');
  t.equal(h2.events('deployment_success').length, 1);
});

t.test('a restart in the middle of a rolling upgrade resumes it from its current step; unconfirmed kills are sent again', async (t) => {
  const h1 = new Harness();
  const v1 = makeApp({ instances: 2, upgrade: { minimumHealthCapacity: 1, maximumOverCapacity: 0.5 } });
  const old = h1.deploy(v1);
  const v2 = makeApp({ instances: 2, upgrade: { minimumHealthCapacity: 1, maximumOverCapacity: 0.5 }, cmd: 'v2', version: versionAt(60) });
  h1.advance(60_000);
  const r = h1.put(v2);
  t.match(r, { ok: true });
  const fresh = h1.offer(makeOffer());
  t.equal(fresh.length, 1, 'one extra instance allowed');
  h1.run(fresh[0]);
  t.equal(h1.calls('kill').length, 1, 'one old instance is being killed');
  const killed = h1.calls('kill')[0].taskId;

  const h2 = restart(h1);
  const [running] = h2.scheduler.deployments();
  t.equal(running?.deployment.plan.id, r.ok ? r.deploymentId : '', 'the same deployment runs on');
  t.same(h2.calls('kill').map((k) => k.taskId), [killed], 'the unconfirmed kill is sent again');
  h2.status(killed, 'TASK_KILLED');
  const next = h2.offer(makeOffer());
  t.equal(next.length, 1, 'the replacement of the killed instance is launched');
  h2.run(next[0]);
  const rest = h2.calls('kill').map((k) => k.taskId).filter((id) => id !== killed);
  t.same(rest, old.map((l) => l.taskId).filter((id) => id !== killed), 'the last old instance goes once the new one runs');
  h2.status(rest[0], 'TASK_KILLED');
  t.same(h2.scheduler.deployments(), [], 'done');
  t.same(h2.instances('/app').map((i) => i.runSpecVersion), [v2.version, v2.version]);
});

t.test('instances of a run spec that no longer exists are forgotten; their tasks are killed when they report', async (t) => {
  const h1 = new Harness();
  const [task] = h1.deploy(makeApp());
  const stored = h1.store.load();
  const h2 = new Harness({ stored: { ...stored, runSpecs: [] }, startMs: h1.nowMs });
  t.same(h2.instances('/app'), []);
  t.equal(h2.store.instances.size, 0, 'the orphan is deleted from the store');
  h2.status(task.taskId, 'TASK_RUNNING');
  t.same(h2.calls('kill').map((k) => k.taskId), [task.taskId], 'a task of a forgotten instance is killed');
});

// Marathon's scale check runs after an election; a store can hold a run spec short of the root's
// count with no deployment to get it there (written before pacer scaled such run specs when a
// deployment stopped early, or a deployment's end durable while the scale was not).
const scaleChecks: readonly { readonly name: string; readonly stored: number; readonly inRoot: number }[] = [
  { name: 'a run spec at 0 that the root holds at 2 is scaled to 2', stored: 0, inRoot: 2 },
  { name: 'a run spec at 3 that the root holds at 1 is scaled to 1', stored: 3, inRoot: 1 },
  { name: 'a run spec whose count agrees is left as it is', stored: 2, inRoot: 2 },
];
for (const row of scaleChecks) {
  t.test(`a restart runs the scale check: ${row.name}`, async (t) => {
    const h1 = new Harness();
    h1.deploy(makeApp({ instances: Math.max(row.stored, row.inRoot) }));
    if (row.inRoot < row.stored) h1.handle({ type: 'scale', runSpecId: '/app', instances: row.inRoot });
    const stored = h1.store.load();
    // What the store would hold had the run spec never been brought to the root's count.
    const runSpecs = stored.runSpecs.map((s) => (s.id === '/app' ? { ...s, instances: row.stored } : s));
    const h2 = new Harness({ stored: { ...stored, runSpecs, deployments: [] }, startMs: h1.nowMs });
    t.equal(h2.scheduler.root().apps.get('/app')?.instances, row.inRoot, 'the root is as stored');
    t.equal(h2.scheduler.runSpec('/app')?.instances, row.inRoot, 'the run spec follows the root');
    t.equal(h2.instances('/app').filter((i) => i.goal === 'Running').length, row.inRoot, 'and so do its instances');
    t.same(h2.scheduler.deployments(), [], 'no deployment is needed');
  });
}

t.test('an unreachable instance gets its deadlines armed again, counted from when it became unreachable', async (t) => {
  const h1 = new Harness();
  const app = makeApp({ unreachable: { kind: 'enabled', inactiveAfterMs: 60_000, expungeAfterMs: 120_000 } });
  const [task] = h1.deploy(app);
  h1.status(task.taskId, 'TASK_UNREACHABLE');
  h1.advance(30_000);
  const h2 = restart(h1);
  t.same(h2.timers('unreachableInactive').map((x) => x.dueMs - h2.nowMs), [30_000], 'inactive 60 s after it became unreachable');
  h2.advance(30_000);
  t.equal(h2.instances('/app').filter((i) => i.condition === 'Scheduled').length, 1, 'a replacement is scheduled');
});

t.test('an expunge deadline that passed while no scheduler ran waits for task_lost_expunge_initial_delay after the start', async (t) => {
  // Swarm seed 20500: the agent came back while no scheduler led; expunged at the start, the
  // instance's task reported running at the reconciliation and was killed as unknown.
  const rows: { name: string; delayMs: number; back: boolean; expunged: boolean; killed: number }[] = [
    { name: 'its agent came back: the reconciliation reports it running and it stays', delayMs: 300_000, back: true, expunged: false, killed: 0 },
    { name: 'still unreachable: expunged once the delay is over', delayMs: 300_000, back: false, expunged: true, killed: 0 },
    { name: 'no delay: expunged at the start, its task killed as unknown when it reports', delayMs: 0, back: true, expunged: true, killed: 1 },
  ];
  for (const row of rows) {
    t.test(row.name, async (t) => {
      const h1 = new Harness();
      const app = makeApp({ instances: 1, unreachable: { kind: 'enabled', inactiveAfterMs: 120_000, expungeAfterMs: 120_000 } });
      const [task] = h1.deploy(app);
      h1.status(task.taskId, 'TASK_UNREACHABLE');
      h1.advance(30_000);
      // The leader dies 30 s after the task became unreachable; another starts 200 s later, after the 120 s expunge deadline.
      const h2 = new Harness({ stored: h1.store.load(), startMs: h1.nowMs + 200_000, options: { taskLostExpungeInitialDelayMs: row.delayMs } });
      const kept = () => h2.instances('/app').some((i) => i.instanceId === task.instanceId);
      t.equal(kept(), row.delayMs > 0, row.delayMs > 0 ? 'kept at the start' : 'expunged at the start');
      if (row.back) h2.status(task.taskId, 'TASK_RUNNING');
      h2.advance(row.delayMs + 1000);
      t.equal(kept(), !row.expunged, row.expunged ? 'expunged' : 'kept');
      t.equal(h2.calls('kill').filter((c) => c.taskId === task.taskId).length, row.killed, 'kills of its task');
    });
  }
});

t.test('a fresh store starts empty and writes root, versions and deployments as changes are accepted', async (t) => {
  const h = new Harness();
  h.put(makeApp());
  const stored = h.store.load();
  t.equal(stored.root?.version, h.scheduler.root().version);
  t.same(stored.versions.map((v) => `${v.id}@${v.version}`), [`/app@${versionAt(0)}`]);
  t.equal(stored.rootVersions.at(-1)?.version, h.scheduler.root().version);
  t.same(stored.deployments.map((d) => d.plan.id), h.scheduler.deployments().map((d) => d.deployment.plan.id));
  h.run(...h.offer(makeOffer()));
  t.same(h.store.load().deployments, [], 'a finished deployment is deleted');
});

t.test('root versions survive a restart; the empty root the new core was built with is not among them', async (t) => {
  const h1 = new Harness();
  const initial = h1.scheduler.root().version;
  h1.put(makeApp({ id: '/a', version: versionAt(10) }));
  h1.advance(10_000);
  h1.put(makeApp({ id: '/b', version: versionAt(20) }), { force: true });
  const before = h1.scheduler.rootVersions();
  t.equal(before.length, 3, 'the starting root and two changes');
  t.equal(before.at(-1), initial, 'the starting root is the oldest');
  h1.advance(60_000);
  const h2 = restart(h1);
  const after = h2.scheduler.rootVersions();
  t.same(after, before.slice(0, 2), 'the stored versions, newest first; the unstored starting root is gone');
  t.notOk(after.includes(new Date(h2.nowMs).toISOString()), 'no placeholder at the restart time');
  for (const v of after) t.same(h2.scheduler.rootVersion(v), h1.scheduler.rootVersion(v), `root ${v} read back`);
  t.equal(h2.scheduler.rootVersion(initial), undefined);
});

t.test('a restart sets aside what it cannot load and runs the rest (issue 11): a run spec beyond MAX_INSTANCES and its instances', async (t) => {
  const h1 = new Harness();
  h1.deploy(makeApp({ id: '/ok', instances: 1 }));
  h1.deploy(makeApp({ id: '/bad', instances: 2, version: versionAt(10) }));
  const stored = h1.store.load();
  // The record as an older pacer could have stored it, in the run specs being run and in the root.
  const bad = { ...(stored.runSpecs.find((s) => s.id === '/bad') as ReturnType<typeof makeApp>), instances: 4294967296 };
  const h2 = new Harness({ stored: { ...stored, runSpecs: stored.runSpecs.map((s) => (s.id === '/bad' ? bad : s)) }, startMs: h1.nowMs });
  t.same(h2.scheduler.runSpecs().map((s) => s.id), ['/bad', '/ok'], 'the root still holds a sound /bad: its copy runs instead');
  t.equal(h2.scheduler.runSpec('/bad')?.instances, 2);
  t.same(h2.scheduler.setAsideRecords().map((r) => `${r.kind} ${r.key}`), ['runSpec /bad']);
  t.match(h2.scheduler.setAsideRecords()[0].reason, /instances: 4294967296 is outside \[0, 100000\]; running the root's copy instead/);
  t.same(h2.store.writes.filter((w) => w.type === 'setAside').map((w) => (w.type === 'setAside' ? w.record.key : '')), ['/bad'], 'the store was told');
  t.same(snapshot(h2, '/bad'), snapshot(h1, '/bad'), 'its instances are adopted under the root\'s copy');
});
