import t from 'tap';
import { makeOffer } from '../../../builders/cluster-builders';
import { makeApp, makeContainer, makePod } from '../../../builders/run-spec-builders';
import { Harness } from '../../../harness/core-harness';

t.test('app kill grace: taskKillGracePeriodSeconds (default 3 s) goes to the driver', async (t) => {
  for (const [grace, expected] of [[undefined, 3000], [10_000, 10_000], [0, 0]] as const) {
    const h = new Harness();
    const [l] = h.deploy(makeApp(grace === undefined ? {} : { killGracePeriodMs: grace }));
    t.equal(l.killGracePeriodMs, expected, 'the launch carries it too');
    h.kill('/app', [l.instanceId]);
    t.same(h.calls('kill'), [{ type: 'kill', taskId: l.taskId, agentId: l.agentId, gracePeriodMs: expected }], `grace ${expected}`);
  }
});

t.test('pod kill grace: per container lifecycle.killGracePeriodSeconds, default 3 s', async (t) => {
  const h = new Harness();
  const launched = h.deploy(makePod({
    containers: [makeContainer({ name: 'slow', killGracePeriodMs: 30_000 }), makeContainer({ name: 'fast' })],
  }));
  t.same(launched.map((l) => l.killGracePeriodMs), [30_000, 3000]);
  h.kill('/pod', [launched[0].instanceId]);
  t.same(h.calls('kill').map((k) => [k.taskId, k.gracePeriodMs]), [[launched[0].taskId, 30_000], [launched[1].taskId, 3000]]);
});

t.test('TASK_KILLING during the grace period: condition Killing, still fills the target', async (t) => {
  const h = new Harness({ options: { taskKilling: true } });
  const [l] = h.deploy(makeApp({ killGracePeriodMs: 5000 }));
  h.kill('/app', [l.instanceId]);
  h.clearRecords();
  h.status(l.taskId, 'TASK_KILLING');
  t.same(h.events().map((e) => e.eventType), ['status_update_event', 'instance_changed_event']);
  t.equal(h.events('status_update_event')[0].taskStatus, 'TASK_KILLING');
  t.equal(h.events('instance_changed_event')[0].condition, 'Killing');
  t.same(h.conditions('/app'), ['Killing'], 'Killing is not terminal: no replacement yet');
  h.advance(5000);
  h.status(l.taskId, 'TASK_KILLED');
  t.same(h.events('instance_changed_event').map((e) => e.condition).slice(1), ['Killed', 'Scheduled']);
});

t.test('a scale-down victim in Killing is not replaced and is forgotten once killed', async (t) => {
  const h = new Harness({ options: { taskKilling: true } });
  const launched = h.deploy(makeApp({ instances: 2 }));
  h.scale('/app', 1);
  const victim = h.calls('kill')[0].taskId;
  h.status(victim, 'TASK_KILLING');
  t.same(h.scheduler.queue(), []);
  h.status(victim, 'TASK_KILLED');
  t.equal(h.instances('/app').length, 1);
  t.ok(launched.some((l) => l.taskId === victim));
});

t.test('a lost kill is retried after grace + kill retry timeout while the task is not terminal', async (t) => {
  const h = new Harness({ options: { killRetryMs: 10_000 } });
  const [l] = h.deploy(makeApp({ killGracePeriodMs: 2000 }));
  h.kill('/app', [l.instanceId]);
  t.equal(h.calls('kill').length, 1);
  h.advance(11_999);
  t.equal(h.calls('kill').length, 1);
  h.advance(1);
  t.equal(h.calls('kill').length, 2, 'retried at grace + retry');
  h.status(l.taskId, 'TASK_KILLED');
  h.advance(60_000);
  t.equal(h.calls('kill').length, 2, 'no retry once terminal');
});

t.test('a kill of an instance not yet launched sends nothing; a kill-and-scale of one changes nothing (it is not active, fact 55)', async (t) => {
  const h = new Harness();
  h.put(makeApp({ instances: 2, cpus: 100 }));
  const [a] = h.instances('/app');
  const root = h.scheduler.root();
  t.match(h.kill('/app', [a.instanceId], { scale: true }), { ok: true, version: root.version }, 'nothing to kill: no deployment, so no lock to meet');
  t.match(h.kill('/app', [a.instanceId], { scale: true, force: true }), { ok: true, version: root.version });
  t.equal(h.scheduler.root(), root, 'the target is unchanged');
  t.equal(h.instances('/app').length, 2, 'it still waits for an offer');
  h.kill('/app', [a.instanceId], { wipe: true });
  t.same(h.calls('kill'), [], 'no task to kill');
  t.equal(h.instances('/app').filter((i) => i.instanceId === a.instanceId).length, 0, 'a plain kill with wipe forgets it');
});

t.test('a plain kill of an instance not yet launched leaves it as it was: launched later, it carries no kill reason (swarm seed 31352)', async (t) => {
  const h = new Harness();
  h.put(makeApp({ instances: 1 }));
  const [a] = h.instances('/app');
  t.match(h.kill('/app', [a.instanceId]), { ok: true });
  const waiting = h.instances('/app')[0];
  t.match(waiting, { condition: 'Scheduled', goal: 'Running', killReason: undefined }, 'still waiting, nothing remembered');
  h.run(h.offer(makeOffer()));
  const running = h.instances('/app')[0];
  t.match(running, { instanceId: a.instanceId, condition: 'Running', killReason: undefined, killRequestedAtMs: undefined }, 'running, not taken for one being killed');
  t.same(h.calls('kill'), [], 'nothing was ever killed');
});

t.test('pod: killing any task ends the whole instance', async (t) => {
  const h = new Harness();
  const launched = h.deploy(makePod({ containers: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] }));
  const [inst] = h.instances('/pod');
  h.clearRecords();
  h.status(launched[0].taskId, 'TASK_FAILED');
  t.equal(inst.condition, 'Killing', 'one task ended, the others are being torn down');
  t.same(h.calls('kill').map((k) => k.taskId), [launched[1].taskId, launched[2].taskId], 'the siblings are killed');
  t.same(h.scheduler.queue(), [], 'no relaunch while tasks live');
  h.status(launched[1].taskId, 'TASK_KILLED');
  t.equal(inst.condition, 'Killing');
  h.status(launched[2].taskId, 'TASK_KILLED');
  t.same(h.events('instance_changed_event').map((e) => e.condition), ['Killing', 'Failed', 'Scheduled'], 'the instance ends whole, as Failed');
  t.equal(h.scheduler.backoffUntilMs('/pod'), h.nowMs + 1000, 'a failure: backoff');
  h.advance(1000);
  const again = h.offer(makeOffer());
  t.same(again.map((l) => l.taskId), ['a', 'b', 'c'].map((c) => `${inst.instanceId}.${c}.2`), 'same instance, new incarnation in the task ids');
  t.same(new Set(again.map((l) => l.agentId)).size, 1);
});

t.test('pod: a kill command kills every task of the instance', async (t) => {
  const h = new Harness();
  const launched = h.deploy(makePod({ instances: 1, containers: [{ name: 'a' }, { name: 'b' }] }));
  h.kill('/pod', [launched[0].instanceId], { wipe: true });
  t.same(h.calls('kill').map((k) => k.taskId), launched.map((l) => l.taskId));
  h.status(launched[0].taskId, 'TASK_KILLED');
  t.equal(h.calls('kill').length, 2, 'no second kill for the sibling when the first task ends');
  h.status(launched[1].taskId, 'TASK_KILLED');
  t.notOk(h.scheduler.instance(launched[0].instanceId), 'wiped');
});
