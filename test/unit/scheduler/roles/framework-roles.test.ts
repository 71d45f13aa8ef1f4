import t from 'tap';
import type { RunSpec } from '../../../../src/scheduler/model/run-spec';
import { makeOffer } from '../../../builders/cluster-builders';
import { makeApp, versionAt } from '../../../builders/run-spec-builders';
import { Harness } from '../../../harness/core-harness';
import { launchedTasks } from '../../../harness/recording-driver';

/*
 * Framework roles through the driver port (spec section 3: an ephemeral service's role change
 * "updates its registration with the resource manager to include the new role"; fact 114: old
 * resident instances keep the old role).
 */

/** The role sets the driver was told, in order. */
function told(h: Harness): string[][] {
  return h.calls('updateFramework').map((c) => [...c.roles]);
}

/** Reports every task the driver was asked to kill as TASK_KILLED. */
function confirmKills(h: Harness): void {
  for (const kill of h.calls('kill')) h.status(kill.taskId, 'TASK_KILLED');
}

t.test('a run spec with a new role: the driver is told the new set once; unchanged roles cost no call', async (t) => {
  const h = new Harness();
  t.same(told(h), [], 'a fresh core uses only the default role the driver subscribed with');
  h.put(makeApp({ id: '/dev/a', role: 'dev' }));
  t.same(told(h), [['*', 'dev']], 'right after the accepted change');
  h.run(...h.offer(makeOffer()));
  h.put(makeApp({ id: '/dev/b', role: 'dev' }));
  h.put(makeApp({ id: '/c' }));
  h.scale('/dev/a', 3);
  t.same(told(h), [['*', 'dev']], 'no call while the set stays the same');
});

t.test('an ephemeral app\'s role change redeploys with the new role; the old role goes once its instances are gone', async (t) => {
  const h = new Harness();
  const v1 = makeApp({ id: '/dev/a', instances: 2, role: '*' });
  const old = h.deploy(v1);
  t.same(told(h), []);
  h.advance(1000);
  const v2 = makeApp({ id: '/dev/a', instances: 2, role: 'dev', version: versionAt(1) });
  t.match(h.put(v2), { ok: true });
  t.match(h.events('deployment_info').at(-1), { currentStep: { actions: [{ action: 'RestartApplication', app: '/dev/a' }] } });
  t.same(told(h), [['*', 'dev']], 'the framework registers the new role');
  const fresh = h.offer(makeOffer({ cpus: 4 }));
  t.same(fresh.map((l) => l.role), ['dev', 'dev'], 'new instances launch with the new role');
  h.run(fresh);
  confirmKills(h);
  t.same(h.calls('kill').map((k) => k.taskId).sort(), old.map((l) => l.taskId).sort(), 'the old instances are replaced');
  t.same(h.scheduler.deployments(), [], 'done');
  t.same(h.instances('/dev/a').map((i) => i.role), ['dev', 'dev']);
  t.same(told(h), [['*', 'dev']], '* stays: it is the default role');

  h.advance(1000);
  h.clearRecords();
  t.match(h.put(makeApp({ id: '/dev/a', instances: 2, role: '*', version: versionAt(2) })), { ok: true });
  t.same(told(h), [], 'back to *: dev is still in use by the running instances');
  h.run(h.offer(makeOffer({ cpus: 4 })));
  confirmKills(h);
  t.same(h.instances('/dev/a').map((i) => i.role), ['*', '*']);
  t.same(told(h), [['*']], 'the last dev instance is gone: dev is dropped');
});

t.test('a resident app changed to another role with force: old instances keep the old role, new ones get the new role (fact 114)', async (t) => {
  const h = new Harness({ options: { defaultRole: 'ops' } });
  const resident = (role: string, instances: number, at: number): RunSpec => makeApp({
    id: '/dev/db', role, instances, resident: true, unreachable: { kind: 'disabled' },
    upgrade: { minimumHealthCapacity: 0.5, maximumOverCapacity: 0 }, version: versionAt(at),
  });
  const v1 = resident('dev', 2, 0);
  const old = h.deploy(v1, makeOffer({ cpus: 4 }));
  const ids = old.map((l) => l.instanceId);
  t.same(told(h), [['dev', 'ops']]);
  h.advance(1000);
  t.match(h.put(resident('ops', 2, 1)), { ok: false, error: 'invalid', details: [{ path: '/role' }] }, 'refused without force');
  t.match(h.put(resident('ops', 2, 1), { force: true }), { ok: true });
  t.equal(h.scheduler.runSpec('/dev/db')?.role, 'ops', 'the spec role changes');
  t.same(h.calls('kill').map((k) => k.taskId), [old[1].taskId], 'one old instance at a time is relaunched in place (minimumHealthCapacity 0.5)');
  t.same(h.scheduler.queue(), [], 'nothing is started next to it');
  confirmKills(h);
  // A resident instance relaunches only on its own reservation, offered back with its id.
  const ownReservation = (instanceId: string) => makeOffer({ cpus: 4, reserved: [{ role: 'dev', cpus: 4, mem: 4096, disk: 1000, reservationId: instanceId }] });
  const [again] = h.offer(ownReservation(old[1].instanceId));
  t.equal(again.instanceId, old[1].instanceId, 'the same instance comes back');
  t.equal(again.role, 'dev', 'under its old role');
  h.run(again);
  confirmKills(h);
  const [second] = h.offer(ownReservation(old[0].instanceId));
  t.equal(second.instanceId, old[0].instanceId);
  t.equal(second.role, 'dev');
  h.run(second);
  t.same(h.scheduler.deployments(), [], 'the restart is done');
  t.same(h.instances('/dev/db').map((i) => [i.instanceId, i.role, i.configVersion]), ids.map((id) => [id, 'dev', versionAt(1)]),
    'both old instances run the new config under the old role');
  t.same(h.events('instance_changed_event').filter((e) => e.condition === 'Scheduled' && !ids.includes(e.instanceId)), [], 'no new instance');

  h.advance(1000);
  t.match(h.scale('/dev/db', 3, { force: true }), { ok: true });
  const [added] = h.offer(makeOffer({ cpus: 4 }));
  t.equal(added.role, 'ops', 'an instance added by scaling up gets the new role');
  t.same(told(h), [['dev', 'ops']], 'dev stays registered while instances use it');
  const relaunch = h.instances('/dev/db').find((i) => i.instanceId === ids[0]);
  h.status(second.taskId, 'TASK_FAILED');
  h.advance(5000);
  const [back] = h.offer(ownReservation(ids[0] ?? ''));
  t.equal(back.instanceId, relaunch?.instanceId);
  t.equal(back.role, 'dev', 'a failed old instance relaunches under its old role too');
  t.ok(launchedTasks(h.calls('accept')).every((l) => l.role === 'dev' || l.instanceId === added.instanceId));
});

t.test('after a restart the recovered roles are announced when they differ from the default', async (t) => {
  const h1 = new Harness();
  h1.deploy(makeApp({ id: '/dev/a', role: 'dev' }));
  const h2 = new Harness({ stored: h1.store.load(), startMs: h1.nowMs });
  t.same(told(h2), [['*', 'dev']]);
  const h3 = new Harness({ stored: new Harness().store.load() });
  t.same(told(h3), [], 'nothing beyond the default role: no call');
});

t.test('deleting apps: the default role always stays; another role goes with its last app (no instances)', async (t) => {
  const h = new Harness();
  h.put(makeApp({ id: '/dev/a', role: 'dev', instances: 0 }));
  h.put(makeApp({ id: '/dev/b', role: 'dev', instances: 0 }));
  h.put(makeApp({ id: '/c', instances: 0 }));
  h.put(makeApp({ id: '/d', instances: 0 }));
  t.same(told(h), [['*', 'dev']]);
  const cases: [string, string, string[][]][] = [
    ['an app of the default role: no call, * stays', '/c', [['*', 'dev']]],
    ['one of two apps of role dev: no call, dev is still in use', '/dev/a', [['*', 'dev']]],
    ['the last app of role dev: the set shrinks to the default role', '/dev/b', [['*', 'dev'], ['*']]],
    ['the last app of the default role: * stays', '/d', [['*', 'dev'], ['*']]],
  ];
  for (const [name, id, expected] of cases) {
    t.match(h.scheduler.handle({ type: 'deleteRunSpec', runSpecId: id }), { ok: true }, `${name}: deleted`);
    t.same(told(h), expected, name);
  }
});
