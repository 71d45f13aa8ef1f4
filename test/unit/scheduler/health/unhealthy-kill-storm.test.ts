import t from 'tap';
import { UNHEALTHY_KILL_FLOOR_LABEL } from '../../../../src/scheduler/health/unhealthy-kill-floor';
import type { SchedulerOptions } from '../../../../src/scheduler/scheduler-options';
import { makeOffer } from '../../../builders/cluster-builders';
import { makeApp, makeHealthCheck, type AppOverrides } from '../../../builders/run-spec-builders';
import { Harness } from '../../../harness/core-harness';
import { Instance } from '../../../../src/scheduler/model/instance';
import { answer, healthyApp, nextRound } from '../../../harness/health-storm';

/** Kill-storm protection through the core (issue 18): health/unhealthy-kill.ts applying unhealthy-kill-floor.ts. */

function storm(instances: number, overrides: AppOverrides = {}, options: Partial<SchedulerOptions> = {}) {
  const h = new Harness({ options });
  const ids = healthyApp(h, instances, overrides);
  h.clearRecords();
  return { h, ids };
}

const killed = (h: Harness) => h.events('unhealthy_instance_kill_event').map((e) => e.instanceId);
const held = (h: Harness) => h.events('pacer_unhealthy_kill_deferred_event').map((e) => e.instanceId);
const ended = (h: Harness) => h.events('pacer_unhealthy_kill_deferral_ended_event').map((e) => [e.instanceId, e.outcome]);

t.test('every instance fails at once: kills stop at the floor, the rest are held and keep running', async (t) => {
  const cases: [string, number, AppOverrides, Partial<SchedulerOptions>, number][] = [
    ['default: minimumHealthCapacity 1 → floor 9 of 10', 10, {}, {}, 1],
    ['minimumHealthCapacity 0.5 → floor 5', 10, { upgrade: { minimumHealthCapacity: 0.5, maximumOverCapacity: 1 } }, {}, 5],
    ['label 0.5 over the default strategy', 10, { labels: { [UNHEALTHY_KILL_FLOOR_LABEL]: '0.5' } }, {}, 5],
    ['label 0.75 over the flag 0 → floor ceil(7.5) = 8', 10, { labels: { [UNHEALTHY_KILL_FLOOR_LABEL]: '0.75' } }, { unhealthyKillFloor: 0 }, 2],
    ['flag 0: no protection, every instance killed (Marathon)', 10, {}, { unhealthyKillFloor: 0 }, 10],
    ['flag 0.3 → floor ceil(1.2) = 2 of 4: two go', 4, {}, { unhealthyKillFloor: 0.3 }, 2],
    ['label 0: no protection for this app', 6, { labels: { [UNHEALTHY_KILL_FLOOR_LABEL]: '0' } }, {}, 6],
    ['a single instance is always replaceable', 1, {}, {}, 1],
  ];
  for (const [name, instances, overrides, options, expectKilled] of cases) {
    t.test(name, async (t) => {
      const { h, ids } = storm(instances, overrides, options);
      nextRound(h, ids, 500);
      t.same(killed(h), ids.slice(0, expectKilled), 'kills in the order they fell due');
      t.equal(h.calls('kill').length, expectKilled, 'one driver kill per unhealthy kill');
      t.same(held(h), ids.slice(expectKilled), 'each held kill announced once');
      const running = h.instances('/storm').filter((i) => i.condition === 'Running' && i.killRequestedAtMs === undefined).length;
      t.equal(running, instances - expectKilled, 'held instances keep running');
      for (const e of h.events('pacer_unhealthy_kill_deferred_event')) {
        t.match(e, { appId: '/storm', instances, floor: instances - expectKilled, counted: instances - expectKilled, reason: /HTTP health check failed 1 times consecutively/ });
      }
      t.same(h.scheduler.heldUnhealthyKills().map((s) => s.held.map((k) => k.instanceId)), expectKilled === instances ? [] : [ids.slice(expectKilled)]);
      nextRound(h, ids.slice(expectKilled), 500);
      t.equal(killed(h).length, expectKilled, 'failing again does not kill beyond the floor');
      t.equal(held(h).length, instances - expectKilled, 'nor announce a held kill twice');
    });
  }
});

t.test('one bad instance among healthy ones is killed at once, as without the floor', async (t) => {
  const { h, ids } = storm(10);
  nextRound(h, ids.slice(3, 4), 500);
  answer(h, [...ids.slice(0, 3), ...ids.slice(4)], 200);
  t.same(killed(h), [ids[3]]);
  t.same(held(h), [], 'nothing held');
});

t.test('a held kill is dropped when its instance passes its check again (outcome recovered)', async (t) => {
  const { h, ids } = storm(3);
  nextRound(h, ids, 500);
  t.same(held(h), ids.slice(1));
  nextRound(h, ids.slice(1), 200);
  t.same(ended(h), [[ids[1], 'recovered'], [ids[2], 'recovered']]);
  t.same(killed(h), [ids[0]], 'no further kill');
  t.same(h.scheduler.heldUnhealthyKills(), []);
  nextRound(h, ids.slice(1), 500);
  t.same(killed(h), [ids[0]], 'a later failure is judged afresh: floor 2 of 3, and the replacement (not launched) counts nothing');
  t.same(held(h), [...ids.slice(1), ...ids.slice(1)], 'held again, announced again');
});

t.test('held kills proceed in the order they fell due as replacements prove themselves', async (t) => {
  const { h, ids } = storm(4);
  nextRound(h, ids, 500);
  t.same(killed(h), [ids[0]]);
  t.same(held(h), ids.slice(1));
  const [k] = h.calls('kill');
  h.status(k.taskId, 'TASK_KILLED');
  h.advance(2000);
  const launched = h.offer(makeOffer());
  t.equal(launched.length, 1, 'the replacement launches');
  h.run(launched);
  t.same(killed(h), [ids[0]], 'running is not enough: it has not been healthy yet');
  h.probeInstance(launched[0].instanceId, { httpStatus: 200 });
  t.same(killed(h), [ids[0], ids[1]], 'the replacement turned healthy: the kill held longest goes');
  t.same(ended(h), [[ids[1], 'killed']]);
  t.same(h.scheduler.heldUnhealthyKills()[0].held.map((x) => x.instanceId), ids.slice(2), 'the others still wait, in order');
});

t.test('a replacement that never turned healthy does not count: its kill goes ahead while older ones wait', async (t) => {
  const { h, ids } = storm(4);
  nextRound(h, ids, 500);
  const [k] = h.calls('kill');
  h.status(k.taskId, 'TASK_KILLED');
  h.advance(2000);
  const [replacement] = h.offer(makeOffer());
  h.run(replacement);
  h.probeInstance(replacement.instanceId, { httpStatus: 500 });
  t.same(killed(h), [ids[0], replacement.instanceId]);
  t.same(held(h), ids.slice(1), 'the three proven instances are still held');
});

t.test('a held instance that ends for another reason: its held kill ends (outcome gone)', async (t) => {
  const { h, ids } = storm(3);
  nextRound(h, ids, 500);
  const inst = h.scheduler.instance(ids[2]);
  const taskId = inst?.tasks[0]?.taskId ?? '';
  h.status(taskId, 'TASK_FAILED');
  t.same(ended(h), [[ids[2], 'gone']]);
  t.same(h.scheduler.heldUnhealthyKills()[0].held.map((x) => x.instanceId), [ids[1]]);
});

t.test('scaling down: the floor follows the new target; held kills of instances the scale-down stops end as they do (gone)', async (t) => {
  const { h, ids } = storm(4);
  nextRound(h, ids, 500);
  t.same(held(h), ids.slice(1));
  h.scale('/storm', 2);
  const stopping = h.instances('/storm').filter((i) => i.killReason === 'scale-down');
  t.same(stopping.map((i) => i.instanceId), ids.slice(2), 'kill selection stops the youngest two');
  const [status] = h.scheduler.heldUnhealthyKills();
  t.match(status, { appId: '/storm', instances: 2, floor: 1, counted: 1 }, 'floor min(ceil(2 × 1), 2 − 1) = 1');
  t.same(status.held.map((k) => k.instanceId), [ids[1]], 'only the held kill of an instance nobody else is stopping is listed');
  for (const inst of stopping) h.status(inst.tasks[0].taskId, 'TASK_KILLED');
  t.same(ended(h), [[ids[2], 'gone'], [ids[3], 'gone']]);
  nextRound(h, [ids[1]], 500);
  t.same(killed(h), [ids[0]], 'the last proven instance stays: the floor of 1 holds it');
});

t.test('a restart changes no floor decision: an instance counts after it as before (proven, stored)', async (t) => {
  // Until store format 9 the new core counted every instance it found running, ever healthy or
  // not (it could not know), so a restart during a storm of never-healthy instances held kills a
  // running core lets go. The instance's `proven` is stored now: the decisions are the same.
  const cases: [string, boolean][] = [['healthy before the restart', true], ['never answered a probe before the restart', false]];
  for (const [name, provenBefore] of cases) {
    const h1 = new Harness();
    const ids = provenBefore ? healthyApp(h1, 4) : runningUnprobed(h1, 4);
    const h2 = new Harness({ stored: h1.store.load(), startMs: h1.nowMs });
    t.equal(h2.instances('/storm').filter((i) => i.condition === 'Running').length, 4, `${name}: recovered running`);
    const [killedBefore, heldBefore] = [killed(h1).length, held(h1).length];
    for (const h of [h1, h2]) {
      h.advance(10_000);
      answer(h, ids, 500);
    }
    t.same(killed(h2), killed(h1).slice(killedBefore), `${name}: the same kills as without the restart`);
    t.same(held(h2), held(h1).slice(heldBefore), `${name}: the same held kills`);
    t.same(killed(h2), provenBefore ? ids.slice(0, 1) : ids, provenBefore ? `${name}: one kill goes, the floor of 3 holds the rest` : `${name}: none counts, so every kill goes`);
  }
});

t.test('after a restart an instance found unreachable that had run counts again once it is back Running', async (t) => {
  // Swarm seed 20536: the new core forgot that it had been healthy, so its kill did not count and
  // went ahead while the floor already held the others' kills.
  const cases: [string, boolean][] = [['it had run before it was cut off', true], ['it never ran (Staging when cut off)', false]];
  for (const [name, ran] of cases) {
    const h1 = new Harness();
    const ids = healthyApp(h1, 4, { unreachable: { kind: 'enabled', inactiveAfterMs: 300_000, expungeAfterMs: 600_000 } });
    const cut = h1.instances('/storm').find((i) => i.instanceId === ids[0]);
    const taskId = cut?.tasks[0]?.taskId ?? '';
    h1.status(taskId, 'TASK_UNREACHABLE');
    const stored = h1.store.load();
    // A task cut off before it ran: the same record without the start time (and so never healthy).
    const unstarted = (i: (typeof stored.instances)[number]) => Instance.from({ ...(i instanceof Instance ? i.toJSON() : i), startedAtMs: undefined, proven: undefined });
    const instances = ran ? stored.instances : stored.instances.map((i) => (i.instanceId === ids[0] ? unstarted(i) : i));
    const h2 = new Harness({ stored: { ...stored, instances }, startMs: h1.nowMs });
    h2.status(taskId, 'TASK_RUNNING');
    t.equal(h2.instances('/storm').filter((i) => i.condition === 'Running').length, 4, `${name}: four running again`);
    h2.advance(10_000);
    // The three found running fail first, the one that came back last.
    answer(h2, [...ids.slice(1), ids[0]], 500);
    const expected = ran ? [ids[1]] : [ids[0]];
    t.same(h2.events('unhealthy_instance_kill_event').map((e) => e.instanceId), expected,
      ran ? `${name}: it counts, so the floor of 3 lets the first kill go and holds the rest` : `${name}: it does not count, so its kill goes and the three others are held`);
  }
});

/** `/storm` with `instances` running instances whose probes were never answered (before a restart they would not count). */
function runningUnprobed(h: Harness, instances: number): string[] {
  const check = makeHealthCheck({ gracePeriodMs: 0, intervalMs: 10_000, timeoutMs: 2000, maxConsecutiveFailures: 1 });
  h.put(makeApp({ id: '/storm', instances, hostPorts: [0], healthChecks: [check] }));
  h.run(h.offer(makeOffer({ agent: { hostname: 'h0', agentId: 'a0' } })));
  return h.instances('/storm').map((i) => i.instanceId);
}
