import t from 'tap';
import type { UnreachablePolicy } from '../../../../src/scheduler/model/run-spec';
import { makeOffer } from '../../../builders/cluster-builders';
import { makeApp, makePod, type AppOverrides } from '../../../builders/run-spec-builders';
import { Harness } from '../../../harness/core-harness';

const SLOW: UnreachablePolicy = { kind: 'enabled', inactiveAfterMs: 60_000, expungeAfterMs: 300_000 };

function deployOne(o: AppOverrides = {}) {
  const h = new Harness();
  const [l] = h.deploy(makeApp(o));
  const inst = h.scheduler.instance(l.instanceId);
  if (inst === undefined) throw new Error('not deployed');
  h.clearRecords();
  return { h, l, inst };
}

t.test('{0, 0} (app default): replaced and expunged at once', async (t) => {
  const { h, l, inst } = deployOne();
  h.status(l.taskId, 'TASK_UNREACHABLE');
  // One instance_changed_event, UnreachableInactive, as Marathon 1.11 publishes: its
  // Instance.conditionFromTasks makes the instance UnreachableInactive as it becomes unreachable
  // when the inactive timeout (0 s) has passed, and InstanceUpdater expunges it with that event.
  t.same(h.events().map((e) => [e.eventType, 'condition' in e ? e.condition : 'taskStatus' in e ? e.taskStatus : '', 'instanceId' in e ? e.instanceId === inst.instanceId : '']), [
    ['status_update_event', 'TASK_UNREACHABLE', ''],
    ['instance_changed_event', 'UnreachableInactive', true],
    ['instance_changed_event', 'Scheduled', false],
  ]);
  t.equal(h.scheduler.instance(inst.instanceId), undefined, 'expunged');
  t.same(h.store.writes.filter((w) => w.type === 'deleteInstance'), [{ type: 'deleteInstance', instanceId: inst.instanceId }]);
  t.equal(h.scheduler.backoffUntilMs('/app'), undefined, 'no backoff for the replacement');
  const [r] = h.offer(makeOffer({ agent: { hostname: 'h2' } }));
  t.not(r.instanceId, inst.instanceId, 'a new instance replaces it');
  t.same(h.timers('unreachableInactive'), []);
});

t.test('{60 s, 300 s}: inactive (and replaced) at 60 s, expunged at 300 s', async (t) => {
  const { h, l, inst } = deployOne({ unreachable: SLOW });
  const since = h.nowMs;
  h.status(l.taskId, 'TASK_UNREACHABLE');
  t.equal(inst.condition, 'Unreachable');
  t.same(h.timers().filter((x) => x.timer.kind.startsWith('unreachable')).map((x) => [x.timer.kind, x.dueMs - since]), [
    ['unreachableInactive', 60_000], ['unreachableExpunge', 300_000],
  ]);
  h.advance(59_999);
  t.equal(inst.condition, 'Unreachable');
  t.same(h.scheduler.queue(), [], 'an unreachable instance still fills the target');
  h.advance(1);
  t.equal(inst.condition, 'UnreachableInactive');
  t.equal(h.scheduler.queue()[0]?.scheduled, 1, 'a replacement waits for an offer');
  t.equal(h.instances('/app').length, 2);
  h.advance(239_999);
  t.ok(h.scheduler.instance(inst.instanceId), 'kept until the expunge deadline');
  h.advance(1);
  t.equal(h.scheduler.instance(inst.instanceId), undefined, 'expunged at 300 s');
  t.equal(h.instances('/app').length, 1);
  t.equal(h.scheduler.queue()[0]?.scheduled, 1, 'expunging does not add a second replacement');
});

t.test('coming back before the inactive deadline: no replacement', async (t) => {
  const { h, l, inst } = deployOne({ unreachable: SLOW });
  h.status(l.taskId, 'TASK_UNREACHABLE');
  h.advance(30_000);
  h.status(l.taskId, 'TASK_RUNNING');
  t.equal(inst.condition, 'Running');
  t.equal(inst.unreachableSinceMs, undefined);
  h.advance(600_000);
  t.equal(inst.condition, 'Running', 'the old timers do nothing');
  t.equal(h.instances('/app').length, 1);
  t.same(h.scheduler.queue(), []);
  t.same(h.calls('kill'), []);
});

t.test('a second unreachable episode is timed from its own start', async (t) => {
  const { h, l, inst } = deployOne({ unreachable: SLOW });
  h.status(l.taskId, 'TASK_UNREACHABLE');
  h.advance(30_000);
  h.status(l.taskId, 'TASK_RUNNING');
  h.advance(20_000);
  h.status(l.taskId, 'TASK_UNREACHABLE');
  h.advance(10_000);
  t.equal(inst.condition, 'Unreachable', 'the first episode\'s 60 s timer passed without effect');
  h.advance(49_999);
  t.equal(inst.condition, 'Unreachable');
  h.advance(1);
  t.equal(inst.condition, 'UnreachableInactive', '60 s after the second episode began');
});

t.test('coming back after it was replaced: the surplus instance is killed', async (t) => {
  t.test('replacement still waiting: it is dropped, nothing to kill', async (t) => {
    const { h, l, inst } = deployOne({ unreachable: SLOW });
    h.status(l.taskId, 'TASK_UNREACHABLE');
    h.advance(60_000);
    t.equal(h.instances('/app').length, 2);
    h.status(l.taskId, 'TASK_RUNNING');
    t.equal(inst.condition, 'Running');
    t.same(h.instances('/app').map((i) => i.instanceId), [inst.instanceId]);
    t.same(h.scheduler.queue(), []);
    t.same(h.calls('kill'), []);
  });
  for (const [killSelection, victim] of [['YOUNGEST_FIRST', 'replacement'], ['OLDEST_FIRST', 'returning']] as const) {
    t.test(`replacement running, ${killSelection}: the ${victim} one is killed`, async (t) => {
      const { h, l, inst } = deployOne({ unreachable: SLOW, killSelection });
      h.status(l.taskId, 'TASK_UNREACHABLE');
      h.advance(60_000);
      const [r] = h.offer(makeOffer({ agent: { hostname: 'h2' } }));
      h.run(r);
      h.clearRecords();
      h.status(l.taskId, 'TASK_RUNNING');
      t.equal(inst.condition, 'Running');
      const expected = victim === 'replacement' ? r : l;
      t.same(h.calls('kill').map((k) => k.taskId), [expected.taskId]);
      h.status(expected.taskId, 'TASK_KILLED');
      t.equal(h.instances('/app').length, 1);
      t.same(h.scheduler.queue(), [], 'the surplus kill is not replaced');
    });
  }
});

t.test('coming back after it was expunged: killed as unknown, then unknown_instance_terminated_event', async (t) => {
  const { h, l, inst } = deployOne({ unreachable: SLOW });
  h.status(l.taskId, 'TASK_UNREACHABLE');
  h.advance(300_000);
  t.equal(h.scheduler.instance(inst.instanceId), undefined);
  h.clearRecords();
  h.status(l.taskId, 'TASK_RUNNING', { uuid: 'u1' });
  t.same(h.calls('kill'), [{ type: 'kill', taskId: l.taskId, agentId: l.agentId, gracePeriodMs: 3000 }]);
  t.same(h.events(), [], 'an unknown task emits no instance events');
  t.same(h.calls('ack'), [{ type: 'ack', agentId: l.agentId, taskId: l.taskId, uuid: 'u1' }]);
  h.advance(250);
  h.status(l.taskId, 'TASK_KILLED');
  t.same(h.events(), [{
    eventType: 'unknown_instance_terminated_event', timestamp: '2026-01-01T00:05:00.250Z',
    instanceId: inst.instanceId, runSpecId: '/app', condition: 'Killed',
  }]);
  h.status(l.taskId, 'TASK_KILLED');
  t.equal(h.events().length, 1, 'reported once');
});

t.test('{0, 0}: the old task coming back is killed as unknown', async (t) => {
  const { h, l, inst } = deployOne();
  h.status(l.taskId, 'TASK_UNREACHABLE');
  h.status(l.taskId, 'TASK_RUNNING');
  t.same(h.calls('kill').map((k) => k.taskId), [l.taskId]);
  h.status(l.taskId, 'TASK_FAILED');
  t.match(h.events('unknown_instance_terminated_event'), [{ instanceId: inst.instanceId, runSpecId: '/app', condition: 'Failed' }]);
});

t.test('a stray task nobody knew: killed; its end reports nothing', async (t) => {
  const h = new Harness();
  h.status('other_app.instance-x._app.1', 'TASK_RUNNING', { agentId: 'a9' });
  t.same(h.calls('kill'), [{ type: 'kill', taskId: 'other_app.instance-x._app.1', agentId: 'a9', gracePeriodMs: 3000 }]);
  h.status('never-seen', 'TASK_FINISHED', { agentId: 'a9' });
  t.same(h.events(), []);
});

t.test('disabled: never replaced nor expunged', async (t) => {
  const { h, l, inst } = deployOne({ unreachable: { kind: 'disabled' } });
  h.status(l.taskId, 'TASK_UNREACHABLE');
  h.advance(30 * 24 * 3600_000);
  t.equal(inst.condition, 'Unreachable');
  t.same(h.instances('/app').map((i) => i.instanceId), [inst.instanceId]);
  t.same(h.scheduler.queue(), []);
  t.same(h.timers().filter((x) => x.timer.kind.startsWith('unreachable')), []);
  h.status(l.taskId, 'TASK_RUNNING');
  t.equal(inst.condition, 'Running', 'it can still come back');
});

t.test('an inactive instance that ends for good is forgotten without delaying its replacement', async (t) => {
  const { h, l, inst } = deployOne({ unreachable: SLOW });
  h.status(l.taskId, 'TASK_UNREACHABLE');
  h.advance(60_000);
  h.status(l.taskId, 'TASK_GONE');
  t.equal(h.scheduler.instance(inst.instanceId), undefined, 'the replaced instance is gone');
  t.equal(h.instances('/app').length, 1);
  t.equal(h.scheduler.backoffUntilMs('/app'), undefined, 'no backoff for the replacement');
  t.equal(h.offer(makeOffer()).length, 1, 'the replacement launches at once');
});

t.test('pod: one unreachable task makes the instance Unreachable (pod default 900 s)', async (t) => {
  const h = new Harness();
  const launched = h.deploy(makePod({ containers: [{ name: 'a' }, { name: 'b' }] }));
  const [inst] = h.instances('/pod');
  h.status(launched[0].taskId, 'TASK_UNREACHABLE');
  t.equal(inst.condition, 'Unreachable');
  h.advance(899_999);
  t.equal(inst.condition, 'Unreachable');
  h.advance(1);
  t.equal(inst.condition, 'UnreachableInactive');
  t.equal(h.scheduler.queue()[0]?.scheduled, 1);
});

t.test('delete with an unreachable instance completes at once: the instance cannot answer, so it is forgotten (Marathon)', async (t) => {
  const { h, l, inst } = deployOne({ unreachable: SLOW });
  h.status(l.taskId, 'TASK_UNREACHABLE');
  h.advance(10_000);
  h.delete('/app');
  t.same(h.calls('kill').map((k) => k.taskId), [l.taskId], 'a kill is still tried');
  t.equal(h.scheduler.instance(inst.instanceId), undefined, 'forgotten at once');
  t.match(h.events('app_terminated_event'), [{ appId: '/app', timestamp: '2026-01-01T00:00:10.000Z' }]);
  t.equal(h.scheduler.runSpec('/app'), undefined);
  h.status(l.taskId, 'TASK_RUNNING');
  t.equal(h.calls('kill').at(-1)?.taskId, l.taskId, 'coming back later: killed as unknown');
  h.status(l.taskId, 'TASK_KILLED');
  t.match(h.events('unknown_instance_terminated_event'), [{ instanceId: inst.instanceId, runSpecId: '/app', condition: 'Killed' }]);
});

t.test('delete with an unreachable resident instance waits for it (its reservation must be cleaned up)', async (t) => {
  const { h, l, inst } = deployOne({ id: '/dev/app', role: 'dev', unreachable: { kind: 'disabled' }, resident: true });
  h.status(l.taskId, 'TASK_UNREACHABLE');
  h.delete('/dev/app');
  t.ok(h.scheduler.instance(inst.instanceId), 'still known');
  t.same(h.events('app_terminated_event'), []);
  h.status(l.taskId, 'TASK_KILLED');
  t.ok(h.scheduler.instance(inst.instanceId), 'killed, still known until its reservation is released');
  // The master offers the reservation back: UNRESERVE, and only then is the instance forgotten.
  h.offer(makeOffer({ agent: l.agentId === undefined ? undefined : { agentId: l.agentId }, reserved: [{ role: 'dev', cpus: 4, mem: 4096, reservationId: inst.instanceId }] }));
  t.equal(h.scheduler.instance(inst.instanceId), undefined);
  t.equal(h.events('app_terminated_event').length, 1);
});

t.test('scale-down of an unreachable instance: it is the victim, forgotten at once, never replaced', async (t) => {
  const h = new Harness();
  const launched = h.deploy(makeApp({ instances: 2, unreachable: SLOW }));
  h.status(launched[0].taskId, 'TASK_UNREACHABLE');
  h.scale('/app', 1);
  t.same(h.calls('kill').map((k) => k.taskId), [launched[0].taskId], 'the unreachable one is the victim');
  t.same(h.instances('/app').map((i) => i.instanceId), [launched[1].instanceId], 'forgotten at once');
  h.advance(300_000);
  t.same(h.instances('/app').map((i) => i.instanceId), [launched[1].instanceId]);
  t.same(h.scheduler.queue(), []);
});

t.test('an instance asked to be killed that then becomes unreachable is forgotten at once, by a running core as by a restarted one (swarm seed 146)', async (t) => {
  // The running core: the delete kills the instance (it still runs), then its agent becomes unreachable.
  const { h, l, inst } = deployOne({ unreachable: SLOW });
  h.delete('/app');
  t.ok(h.scheduler.instance(inst.instanceId), 'killing: still known while it can answer');
  const stored = h.store.load();
  h.status(l.taskId, 'TASK_UNREACHABLE');
  t.equal(h.scheduler.instance(inst.instanceId), undefined, 'unreachable while being killed: forgotten at once (the kill rule)');
  t.equal(h.scheduler.runSpec('/app'), undefined, 'the delete completes without waiting for the agent');
  t.equal(h.events('app_terminated_event').length, 1);
  t.same(h.timers('unreachableExpunge'), [], 'no expunge deadline left behind');
  h.status(l.taskId, 'TASK_RUNNING');
  t.equal(h.calls('kill').at(-1)?.taskId, l.taskId, 'its task coming back is killed as unknown');

  // A core restarted from the store as it was before the unreachable update agrees.
  const restarted = new Harness({ stored });
  t.ok(restarted.scheduler.instance(inst.instanceId), 'recovered while it can answer');
  restarted.status(l.taskId, 'TASK_UNREACHABLE');
  t.equal(restarted.scheduler.instance(inst.instanceId), undefined, 'the restarted core forgets it too');
  t.equal(restarted.scheduler.runSpec('/app'), undefined);

  // And a scale-down victim (not a delete) is forgotten the same way (a resident one is kept: above).
  const scaled = new Harness();
  const launched = scaled.deploy(makeApp({ instances: 2, unreachable: SLOW }));
  scaled.scale('/app', 1);
  const victim = launched.find((x) => scaled.scheduler.instance(x.instanceId)?.goal === 'Decommissioned');
  if (victim === undefined) throw new Error('no victim');
  scaled.status(victim.taskId, 'TASK_UNREACHABLE');
  t.equal(scaled.scheduler.instance(victim.instanceId), undefined, 'a scale-down victim that becomes unreachable is forgotten');
  t.equal(scaled.instances('/app').length, 1, 'and not replaced');
});

t.test('the strategy counts from the master\'s unreachable time when the update carries it (TaskStatus.unreachable_time, Marathon Task.isUnreachableExpired)', async (t) => {
  // {60 s, 300 s}; the update arrives `ago` ms after the master marked the agent unreachable
  // (pacer was disconnected: the master's TASK_UNREACHABLE was dropped, reconciliation reports it).
  // `events`: the instance's conditions in its instance_changed_events: one only when the
  // inactive deadline has passed already (Marathon's conditionFromTasks).
  const cases: { name: string; ago: number | undefined; condition: string; events: string[]; inactiveInMs?: number; expunged: boolean }[] = [
    { name: 'no unreachable time: counted from arrival', ago: undefined, condition: 'Unreachable', events: ['Unreachable'], inactiveInMs: 60_000, expunged: false },
    { name: 'unreachable 20 s ago: inactive in 40 s', ago: 20_000, condition: 'Unreachable', events: ['Unreachable'], inactiveInMs: 40_000, expunged: false },
    { name: 'unreachable 60 s ago: inactive (replaced) at once', ago: 60_000, condition: 'UnreachableInactive', events: ['UnreachableInactive'], expunged: false },
    { name: 'unreachable 90 s ago: inactive (replaced) at once', ago: 90_000, condition: 'UnreachableInactive', events: ['UnreachableInactive'], expunged: false },
    { name: 'unreachable 400 s ago: expunged at once', ago: 400_000, condition: 'expunged', events: ['UnreachableInactive'], expunged: true },
    { name: 'a master clock ahead of pacer\'s: counted from arrival', ago: -30_000, condition: 'Unreachable', events: ['Unreachable'], inactiveInMs: 60_000, expunged: false },
  ];
  for (const c of cases) {
    const { h, l, inst } = deployOne({ unreachable: SLOW });
    const now = h.nowMs;
    h.status(l.taskId, 'TASK_UNREACHABLE', c.ago === undefined ? {} : { unreachableSinceMs: now - c.ago });
    const kept = h.scheduler.instance(inst.instanceId);
    t.equal(kept === undefined ? 'expunged' : inst.condition, c.condition, `${c.name}: condition`);
    t.same(h.events().filter((e) => e.eventType === 'instance_changed_event' && e.instanceId === inst.instanceId).map((e) => ('condition' in e ? e.condition : '')), c.events, `${c.name}: events`);
    t.equal(kept === undefined, c.expunged, `${c.name}: expunged`);
    if (c.inactiveInMs !== undefined) {
      t.same(h.timers('unreachableInactive').map((x) => x.dueMs - now), [c.inactiveInMs], `${c.name}: inactive timer`);
    }
    if (c.condition !== 'Unreachable') t.equal(h.scheduler.queue()[0]?.scheduled, 1, `${c.name}: a replacement waits for an offer`);
  }
});
