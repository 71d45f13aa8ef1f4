import t from 'tap';
import { makeOffer } from '../../../builders/cluster-builders';
import { makeApp } from '../../../builders/run-spec-builders';
import { Harness } from '../../../harness/core-harness';
import type { InstanceContext } from '../../../../src/scheduler/instances/instance-context';
import { setCondition } from '../../../../src/scheduler/instances/instance-tracker';
import { Instance } from '../../../../src/scheduler/model/instance';

const T0 = '2026-01-01T00:00:00.000Z';

/** The instance events of the run (deployment events around them are asserted in the events and executor tests). */
function instanceEvents(h: Harness) {
  return h.events().filter((e) => e.eventType === 'instance_changed_event' || e.eventType === 'status_update_event');
}

t.test('status updates drive the condition; status_update_event comes right before instance_changed_event', async (t) => {
  const h = new Harness();
  const app = makeApp({ hostPorts: [0] });
  h.put(app);
  const [inst] = h.instances('/app');
  const id = inst.instanceId;
  t.same(instanceEvents(h), [
    { eventType: 'instance_changed_event', timestamp: T0, instanceId: id, condition: 'Scheduled', runSpecId: '/app', agentId: null, host: null, runSpecVersion: app.version },
  ]);
  h.clearRecords();
  h.advance(1234);
  const [l] = h.offer(makeOffer({ agent: { hostname: 'h1', agentId: 'a1' } }));
  const ts = '2026-01-01T00:00:01.234Z';
  t.same(instanceEvents(h), [
    { eventType: 'instance_changed_event', timestamp: ts, instanceId: id, condition: 'Provisioned', runSpecId: '/app', agentId: 'a1', host: 'h1', runSpecVersion: app.version },
  ]);
  const steps = [['TASK_STAGING', 'Staging'], ['TASK_STARTING', 'Starting'], ['TASK_RUNNING', 'Running']] as const;
  for (const [state, condition] of steps) {
    h.clearRecords();
    h.status(l.taskId, state, { message: state === 'TASK_RUNNING' ? 'up' : undefined });
    t.same(instanceEvents(h), [
      {
        eventType: 'status_update_event', timestamp: ts, slaveId: 'a1', taskId: l.taskId, taskStatus: state,
        message: state === 'TASK_RUNNING' ? 'up' : '', appId: '/app', host: 'h1', ipAddresses: [], ports: [31000], version: app.version,
      },
      { eventType: 'instance_changed_event', timestamp: ts, instanceId: id, condition, runSpecId: '/app', agentId: 'a1', host: 'h1', runSpecVersion: app.version },
    ], state);
    t.equal(h.scheduler.instance(id)?.condition, condition);
  }
  t.equal(inst.tasks[0].state, 'TASK_RUNNING');
  t.equal(inst.startedAtMs, h.nowMs);
  h.clearRecords();
  h.status(l.taskId, 'TASK_RUNNING');
  t.same(h.events(), [], 'a repeated state emits nothing');
});

t.test('status updates are acknowledged only when they carry a uuid, after being applied', async (t) => {
  const h = new Harness();
  h.put(makeApp());
  const [l] = h.offer(makeOffer({ agent: { agentId: 'a1' } }));
  h.clearRecords();
  h.status(l.taskId, 'TASK_STAGING');
  t.same(h.calls('ack'), [], 'no uuid, no ack');
  h.status(l.taskId, 'TASK_RUNNING', { uuid: 'u-1' });
  t.same(h.calls('ack'), [{ type: 'ack', agentId: 'a1', taskId: l.taskId, uuid: 'u-1' }]);
  const kinds = h.effects.map((e) => (e.kind === 'driver' ? e.call.type : e.kind === 'event' ? e.event.eventType : e.kind));
  t.ok(kinds.lastIndexOf('instance_changed_event') < kinds.indexOf('ack'), 'acked after the change was applied');
  h.status(l.taskId, 'TASK_RUNNING', { uuid: 'u-2' });
  t.equal(h.calls('ack').length, 2, 'duplicates are acknowledged too');
  h.status('stray-task', 'TASK_FINISHED', { agentId: 'a1', uuid: 'u-3' });
  t.same(h.calls('ack')[2], { type: 'ack', agentId: 'a1', taskId: 'stray-task', uuid: 'u-3' }, 'unknown tasks too');
});

t.test('a failed task: the same instance is rescheduled, relaunched with a new incarnation and task id', async (t) => {
  const h = new Harness();
  const app = makeApp();
  h.put(app);
  const [l1] = h.offer(makeOffer({ agent: { agentId: 'a1', hostname: 'h1' } }));
  h.run(l1);
  const [inst] = h.instances('/app');
  t.equal(inst.incarnation, 1);
  t.equal(l1.taskId, `${inst.instanceId}._app.1`);
  h.clearRecords();
  h.status(l1.taskId, 'TASK_FAILED', { message: 'exit 1' });
  t.same(h.events().map((e) => [e.eventType, 'condition' in e ? e.condition : 'taskStatus' in e ? e.taskStatus : '', 'agentId' in e ? e.agentId : '']), [
    ['status_update_event', 'TASK_FAILED', ''],
    ['instance_changed_event', 'Failed', 'a1'],
    ['instance_changed_event', 'Scheduled', null],
  ]);
  t.equal(h.events('status_update_event')[0].message, 'exit 1');
  t.same(h.instances('/app').map((i) => i.instanceId), [inst.instanceId], 'no new instance');
  t.equal(inst.condition, 'Scheduled');
  t.same(inst.tasks, []);
  t.equal(inst.agent, undefined);
  const saved = h.store.instances.get(inst.instanceId);
  t.equal(saved?.condition, 'Scheduled', 'the store has the rescheduled record');
  h.advance(1000);
  const [l2] = h.offer(makeOffer({ agent: { agentId: 'a2', hostname: 'h2' } }));
  t.equal(l2.instanceId, inst.instanceId);
  t.equal(l2.taskId, `${inst.instanceId}._app.2`);
  t.equal(inst.incarnation, 2);
  h.status(l1.taskId, 'TASK_RUNNING', { agentId: 'a1' });
  t.same(h.calls('kill').map((k) => k.taskId), [l1.taskId], 'the old incarnation reappearing is unknown and killed');
});

t.test('TASK_LOST: unreachable unless its reason says it cannot come back', async (t) => {
  for (const [reason, condition] of [
    [undefined, 'UnreachableInactive'], ['REASON_AGENT_DISCONNECTED', 'UnreachableInactive'], ['REASON_AGENT_REMOVED_BY_OPERATOR', 'Gone'],
  ] as const) {
    const h = new Harness();
    h.deploy(makeApp());
    const [l] = h.calls('accept').flatMap((a) => a.operations);
    h.status(l.kind === 'launch' ? l.task.taskId : '', 'TASK_LOST', { reason });
    const changes = h.events('instance_changed_event').map((e) => e.condition);
    t.ok(changes.includes(condition), `${reason}: ${changes.join(',')}`);
  }
});

t.test('scale up schedules new instances; scale to the same count does nothing', async (t) => {
  const h = new Harness();
  h.deploy(makeApp());
  h.clearRecords();
  t.match(h.scale('/app', 3), { ok: true, deploymentId: String });
  t.same(h.conditions('/app'), ['Running', 'Scheduled', 'Scheduled']);
  t.equal(h.scheduler.runSpec('/app')?.instances, 3);
  t.equal(h.events('instance_changed_event').length, 2);
  h.clearRecords();
  t.match(h.scale('/app', 3), { ok: true }, 'not locked: an unchanged count affects no run spec');
  t.same(h.events().map((e) => e.eventType), ['group_change_success', 'deployment_success'], 'a zero-step deployment (Marathon deploys an unchanged root too), no instance change');
  t.same(h.conditions('/app'), ['Running', 'Scheduled', 'Scheduled']);
  t.match(h.scale('/app', -1), { ok: false, error: 'invalid' });
  t.match(h.scale('/nope', 1), { ok: false, error: 'unknown-run-spec' });
});

/** Three running instances started 10 s apart; returns their instance ids, oldest first. */
function threeRunning(h: Harness, killSelection: 'YOUNGEST_FIRST' | 'OLDEST_FIRST'): string[] {
  h.put(makeApp({ instances: 3, killSelection }));
  const launched = h.offer(makeOffer());
  for (const l of launched) {
    h.run(l);
    h.advance(10_000);
  }
  return launched.map((l) => l.instanceId);
}

t.test('scale down kills by killSelection', async (t) => {
  for (const [selection, survivors] of [['YOUNGEST_FIRST', [0]], ['OLDEST_FIRST', [2]]] as const) {
    const h = new Harness();
    const ids = threeRunning(h, selection);
    h.clearRecords();
    h.scale('/app', 1);
    const killed = h.calls('kill').map((k) => k.taskId.split('._app.')[0]);
    const expected = ids.filter((_, i) => !(survivors as readonly number[]).includes(i));
    t.same([...killed].sort(), [...expected].sort(), `${selection}: kills ${expected.length}`);
    if (selection === 'YOUNGEST_FIRST') t.same(killed, [ids[2], ids[1]], 'youngest first');
    else t.same(killed, [ids[0], ids[1]], 'oldest first');
    t.same(h.instances('/app').map((i) => i.goal), ['Running', 'Running', 'Running'].map((g, i) => (expected.includes(ids[i]) ? 'Decommissioned' : g)));
    for (const k of h.calls('kill')) h.status(k.taskId, 'TASK_KILLED');
    t.same(h.instances('/app').map((i) => i.instanceId), ids.filter((_, i) => (survivors as readonly number[]).includes(i)), 'killed ones are forgotten');
    t.equal(h.scheduler.backoffUntilMs('/app'), undefined, 'a scale-down kill is no failure');
    t.same(h.scheduler.queue(), [], 'and no replacement');
  }
});

t.test('a goal change alone emits instance_changed_event (fact 107: condition or goal)', async (t) => {
  const h = new Harness();
  const ids = threeRunning(h, 'YOUNGEST_FIRST');
  h.clearRecords();
  h.scale('/app', 2);
  t.match(h.events('instance_changed_event'), [{ instanceId: ids[2], condition: 'Running', runSpecId: '/app' }], 'goal Decommissioned, still Running');
  h.status(h.calls('kill')[0].taskId, 'TASK_KILLED');
  t.match(h.events('instance_changed_event').at(-1), { instanceId: ids[2], condition: 'Killed' });
});

t.test('scale down kills waiting, staging and unhealthy instances before healthy running ones', async (t) => {
  const h = new Harness();
  h.put(makeApp({ instances: 4, killSelection: 'OLDEST_FIRST', cpus: 1 }));
  const [old, young] = h.offer(makeOffer({ cpus: 2 }));
  h.run(old);
  h.advance(1000);
  h.run(young);
  const [staging] = h.offer(makeOffer({ cpus: 1 }));
  h.status(staging.taskId, 'TASK_STAGING');
  const waiting = h.instances('/app').find((i) => i.condition === 'Scheduled');
  t.ok(waiting);
  h.clearRecords();
  // The creation's deployment is still waiting (one instance unplaced): force past its lock.
  t.match(h.scale('/app', 2, { force: true }), { ok: true });
  t.same(h.calls('kill').map((k) => k.taskId), [staging.taskId], 'the staging one is killed; the waiting one needs no kill');
  t.notOk(h.instances('/app').some((i) => i.instanceId === waiting?.instanceId), 'the waiting one is gone at once');
  t.same(h.scheduler.queue(), []);
  // Now with one unhealthy running instance: it goes before the healthy older one.
  const youngInst = h.scheduler.instance(young.instanceId);
  if (youngInst !== undefined) youngInst.healthy = false;
  t.match(h.scale('/app', 1, { force: true }), { ok: true }, 'the scale to 2 is still waiting for the staging kill');
  t.equal(h.calls('kill')[1]?.taskId, young.taskId, 'unhealthy before healthy, whatever killSelection says');
});

t.test('kill command: relaunch, wipe, or kill-and-scale', async (t) => {
  t.test('plain kill relaunches the same instance', async (t) => {
    const h = new Harness();
    const [l] = h.deploy(makeApp());
    t.same(h.kill('/app', [l.instanceId]), { ok: true });
    t.same(h.calls('kill'), [{ type: 'kill', taskId: l.taskId, agentId: l.agentId, gracePeriodMs: 3000 }]);
    h.status(l.taskId, 'TASK_KILLED');
    t.same(h.conditions('/app'), ['Scheduled']);
    t.equal(h.instances('/app')[0].instanceId, l.instanceId);
  });
  t.test('wipe forgets it at once (Marathon force-expunges it, api/TaskKiller.scala:44-52) and a new instance replaces it', async (t) => {
    const h = new Harness();
    const [l] = h.deploy(makeApp());
    h.kill('/app', [l.instanceId], { wipe: true });
    t.same(h.calls('kill').map((k) => k.taskId), [l.taskId], 'its task is killed');
    const now = h.instances('/app');
    t.equal(now.length, 1, 'forgotten before the kill is answered');
    t.not(now[0].instanceId, l.instanceId, 'the replacement is scheduled at once');
    t.same(h.events('instance_changed_event').filter((e) => e.instanceId === l.instanceId).map((e) => e.condition).slice(-2),
      ['Running', 'Killed'], 'its goal change, then Killed as it is forgotten (InstanceUpdater.forceExpunge)');
    h.status(l.taskId, 'TASK_RUNNING');
    t.same(h.calls('kill').map((k) => k.taskId), [l.taskId, l.taskId], 'a wiped task that reports running (a lost kill) is killed again as unknown');
    const ids = h.instances('/app').map((i) => i.instanceId);
    t.equal(ids.length, 1);
    t.not(ids[0], l.instanceId);
    t.equal(h.scheduler.runSpec('/app')?.instances, 1);
  });
  t.test('scale lowers the target', async (t) => {
    const h = new Harness();
    const launched = h.deploy(makeApp({ instances: 2 }));
    h.kill('/app', [launched[0].instanceId], { scale: true });
    t.equal(h.scheduler.runSpec('/app')?.instances, 1);
    h.status(launched[0].taskId, 'TASK_KILLED');
    t.same(h.instances('/app').map((i) => i.instanceId), [launched[1].instanceId]);
    t.same(h.scheduler.queue(), []);
  });
  t.test('ids the run spec no longer holds are skipped; an unknown run spec rejects the command', async (t) => {
    const h = new Harness();
    const [l] = h.deploy(makeApp());
    t.match(h.kill('/app', [l.instanceId, 'nope']), { ok: true });
    t.same(h.calls('kill').map((k) => k.taskId), [l.taskId], 'the held one is killed');
    t.match(h.kill('/nope', [l.instanceId]), { ok: false, error: 'unknown-run-spec' });
  });
});

t.test('a config change replaces running instances with the new version, rolling (default upgradeStrategy {1, 1})', async (t) => {
  const h = new Harness();
  const v1 = makeApp({ instances: 2 });
  h.put(v1);
  const launched = h.offer(makeOffer());
  h.run(launched[0]);
  h.advance(1000);
  h.run(launched[1]); // the younger one
  const v2 = makeApp({ instances: 2, cmd: 'v2', version: '2026-01-01T00:01:00.000Z' });
  h.clearRecords();
  t.match(h.put(v2), { ok: true });
  t.same(h.calls('kill'), [], 'minimumHealthCapacity 1: no old instance goes before a new one is healthy');
  t.same(h.instances('/app').map((i) => [i.condition, i.runSpecVersion]), [
    ['Running', v1.version], ['Running', v1.version], ['Scheduled', v2.version], ['Scheduled', v2.version],
  ], 'maximumOverCapacity 1: both new ones are scheduled next to the old ones');
  const next = h.offer(makeOffer());
  t.same(next.map((l) => l.runSpecVersion), [v2.version, v2.version]);
  t.same(h.calls('kill'), [], 'launched is not healthy yet');
  h.run(next[0]);
  t.same(h.calls('kill').map((k) => k.taskId), [launched[1].taskId], 'one new instance running: one old one goes (YOUNGEST_FIRST)');
  h.run(next[1]);
  t.same(h.calls('kill').map((k) => k.taskId), [launched[1].taskId, launched[0].taskId], 'the second new one running: the last old one goes');
  for (const l of launched) h.status(l.taskId, 'TASK_KILLED');
  t.same(h.instances('/app').map((i) => [i.condition, i.runSpecVersion]), [['Running', v2.version], ['Running', v2.version]]);
  t.equal(h.scheduler.backoffUntilMs('/app'), undefined, 'replacement kills are no failures');
  t.same(h.scheduler.queue(), [], 'and are not relaunched');
  t.same(h.scheduler.deployments(), [], 'the RestartApplication deployment is done');
  t.equal(h.events('deployment_success').length, 1);
});

t.test('delete: kills everything, app_terminated_event after the last instance is gone', async (t) => {
  const h = new Harness();
  h.put(makeApp({ instances: 3, cpus: 1 }));
  const launched = h.offer(makeOffer({ cpus: 2 }));
  h.run(launched);
  h.clearRecords();
  t.match(h.delete('/app'), { ok: true, deploymentId: String });
  t.same(h.calls('kill').map((k) => k.taskId), launched.map((l) => l.taskId));
  t.equal(h.instances('/app').length, 2, 'the waiting instance is gone at once');
  h.status(launched[0].taskId, 'TASK_KILLED');
  t.same(h.events('app_terminated_event'), []);
  t.ok(h.scheduler.runSpec('/app'), 'still known while an instance lives');
  h.advance(500);
  h.status(launched[1].taskId, 'TASK_KILLED');
  t.same(h.events('app_terminated_event'), [{ eventType: 'app_terminated_event', timestamp: '2026-01-01T00:00:00.500Z', appId: '/app' }]);
  t.equal(h.scheduler.runSpec('/app'), undefined);
  t.same(h.store.writes.filter((w) => w.type === 'deleteRunSpec'), [{ type: 'deleteRunSpec', runSpecId: '/app' }]);
  t.equal(h.store.instances.size, 0);
  t.same(h.scheduler.queue(), []);
  t.match(h.delete('/app'), { ok: false, error: 'unknown-run-spec' });
});

t.test('delete of a run spec with nothing launched terminates at once', async (t) => {
  const h = new Harness();
  h.put(makeApp({ instances: 2 }));
  h.delete('/app');
  t.equal(h.events('app_terminated_event').length, 1);
  t.same(h.instances('/app'), []);
});

t.test('re-creating a run spec while it is being deleted cancels the delete', async (t) => {
  const h = new Harness();
  const [l] = h.deploy(makeApp());
  h.delete('/app');
  t.match(h.put(makeApp()), { ok: false, error: 'locked' }, 'the StopApplication deployment holds /app');
  t.match(h.put(makeApp(), { force: true }), { ok: true });
  h.status(l.taskId, 'TASK_KILLED');
  t.same(h.events('app_terminated_event'), []);
  t.ok(h.scheduler.runSpec('/app'));
  t.equal(h.instances('/app').filter((i) => i.condition === 'Scheduled').length, 1, 'the target is filled again');
});

t.test('an app task keeps its launch time whatever changes the condition before its task is read', async (t) => {
  // The task is made when first read (model/instance.ts), from the condition's time at the launch:
  // every change of the condition must make it first. Each way below changes the condition of a
  // just-placed instance whose task nobody has read yet (the harness reads no task).
  const cases: { name: string; change: (h: Harness, instanceId: string, taskId: string) => void }[] = [
    { name: 'TASK_STAGING', change: (h, _i, taskId) => h.status(taskId, 'TASK_STAGING') },
    { name: 'TASK_RUNNING', change: (h, _i, taskId) => h.status(taskId, 'TASK_RUNNING') },
    { name: 'a kill, then TASK_KILLING', change: (h, instanceId, taskId) => { h.kill('/app', [instanceId]); h.status(taskId, 'TASK_KILLING'); } },
  ];
  for (const c of cases) {
    const h = new Harness();
    h.put(makeApp({ hostPorts: [0] }));
    h.advance(1234);
    const [l] = h.offer(makeOffer({ agent: { hostname: 'h1', agentId: 'a1' } }));
    const launchedAtMs = h.nowMs;
    const inst = h.instances('/app')[0];
    h.advance(5000);
    c.change(h, inst.instanceId, l.taskId);
    t.not(inst.conditionSinceMs, launchedAtMs, `${c.name}: the condition's time moved`);
    t.equal(inst.tasks[0].taskId, l.taskId, `${c.name}: the task launched`);
    t.equal(inst.tasks[0].launchedAtMs, launchedAtMs, `${c.name}: launched at the placement, not at the change`);
  }
});

t.test('setCondition makes an app task not made yet before it moves the condition\'s time (the launch time)', async (t) => {
  // The status path reads the task before any change (the look-up of its instance does), so this
  // calls the tracker directly, with only what setCondition touches.
  const nowMs = { value: 1_000 };
  const ctx = {
    clock: { nowMs: () => nowMs.value },
    // `runSpecs`: it looks up the run spec of an instance that starts or stops being killable for its health (none here).
    state: { changed: new Set<string>(), dirty: { add: () => undefined }, runSpecs: new Map() },
    effects: { event: () => undefined },
  } as unknown as InstanceContext;
  const inst = Instance.from({
    instanceId: 'app.instance-1', runSpecId: '/app', kind: 'app', runSpecVersion: 'v', configVersion: 'v', incarnation: 1,
    goal: 'Running', condition: 'Provisioned', conditionSinceMs: 1_000, role: '*', tasks: [],
  });
  inst.launchApp([31_000], { cpusMilli: 100, memMilli: 32_000, diskMilli: 0, gpus: 0 });
  nowMs.value = 6_000;
  setCondition(ctx, undefined, inst, 'Running');
  t.equal(inst.conditionSinceMs, 6_000);
  t.equal(inst.tasks[0].launchedAtMs, 1_000, 'launched at 1,000, not at the change');
});
