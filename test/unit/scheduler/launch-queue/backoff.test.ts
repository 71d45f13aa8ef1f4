import t from 'tap';
import { makeOffer } from '../../../builders/cluster-builders';
import { makeApp, versionAt, type AppOverrides } from '../../../builders/run-spec-builders';
import { Harness } from '../../../harness/core-harness';

const policy = { initialMs: 1000, factor: 2, maxMs: 3500 };

/** Launches the single scheduled instance of /app on a fresh offer and fails it; returns the task id. */
function launchAndFail(h: Harness, state: 'TASK_FAILED' | 'TASK_FINISHED' | 'TASK_ERROR' | 'TASK_KILLED' = 'TASK_FAILED'): string {
  const launched = h.offer(makeOffer());
  if (launched.length !== 1) throw new Error(`expected one launch at +${h.elapsedMs} ms, got ${launched.length}`);
  h.run(launched);
  h.status(launched[0].taskId, state);
  return launched[0].taskId;
}

function setup(o: AppOverrides = {}): Harness {
  const h = new Harness();
  h.put(makeApp({ backoff: policy, ...o }));
  return h;
}

t.test('failures grow the delay by the factor up to maxLaunchDelay', async (t) => {
  const h = setup();
  const delays: number[] = [];
  for (let i = 0; i < 5; i++) {
    launchAndFail(h);
    const until = h.scheduler.backoffUntilMs('/app');
    delays.push((until ?? h.nowMs) - h.nowMs);
    t.equal(h.scheduler.queue()[0].backoffUntilMs, until, '/v2/queue shows the delay');
    h.advance(delays[i]);
  }
  t.same(delays, [1000, 2000, 3500, 3500, 3500]);
});

t.test('default backoff: 1 s, then × 1.15', async (t) => {
  const h = new Harness();
  h.put(makeApp());
  launchAndFail(h);
  t.equal(h.scheduler.backoffUntilMs('/app'), h.nowMs + 1000);
  h.advance(1000);
  launchAndFail(h);
  t.equal(h.scheduler.backoffUntilMs('/app'), h.nowMs + 1150);
});

t.test('every terminal outcome of a running instance counts as a launch failure', async (t) => {
  for (const state of ['TASK_FAILED', 'TASK_FINISHED', 'TASK_ERROR', 'TASK_KILLED'] as const) {
    const h = setup();
    launchAndFail(h, state);
    t.equal(h.scheduler.backoffUntilMs('/app'), h.nowMs + 1000, state);
  }
});

t.test('no launch during backoff; the same instance launches once it expires', async (t) => {
  const h = setup();
  const firstTask = launchAndFail(h);
  const [inst] = h.instances('/app');
  t.equal(inst.condition, 'Scheduled');
  h.clearRecords();
  h.advance(999);
  t.same(h.offer(makeOffer({ offerId: 'early' })), [], 'inside the delay');
  t.same(h.calls('decline'), [{ type: 'decline', offerIds: ['early'], refuseMs: 120_000 }]);
  t.same(h.scheduler.rejections('/app')?.byReason(), {}, 'a run spec in backoff does not look at offers');
  h.advance(1);
  const [again] = h.offer(makeOffer());
  t.ok(again, 'launched when the delay is over');
  t.equal(again.instanceId, inst.instanceId, 'same instance');
  t.not(again.taskId, firstTask, 'new task id');
  t.equal(again.taskId, `${inst.instanceId}._app.2`);
});

t.test('a new config version resets the delay; a scale change does not', async (t) => {
  t.test('config change', async (t) => {
    const h = setup();
    launchAndFail(h);
    launchAndFailAfterDelay(h);
    t.equal(h.scheduler.backoffUntilMs('/app'), h.nowMs + 2000, 'grown to 2 s');
    h.put(makeApp({ backoff: policy, cmd: 'new', version: versionAt(60) }));
    t.equal(h.scheduler.backoffUntilMs('/app'), undefined, 'reset');
    t.same(h.timers('backoffExpired'), [], 'its timer is cancelled');
    const [l] = h.offer(makeOffer());
    t.equal(l?.runSpecVersion, versionAt(60), 'launches at once, with the new version');
    h.run(l);
    h.status(l.taskId, 'TASK_FAILED');
    t.equal(h.scheduler.backoffUntilMs('/app'), h.nowMs + 1000, 'and the next failure starts over at 1 s');
  });
  t.test('scale-only put', async (t) => {
    const h = setup();
    launchAndFail(h);
    const until = h.scheduler.backoffUntilMs('/app');
    h.put(makeApp({ backoff: policy, instances: 2, version: versionAt(60), versionInfo: { lastConfigChangeAt: versionAt(0), lastScalingAt: versionAt(60) } }));
    t.equal(h.scheduler.backoffUntilMs('/app'), until, 'still backed off');
    t.same(h.offer(makeOffer()), [], 'neither instance launches');
  });
  t.test('scale command', async (t) => {
    const h = setup();
    launchAndFail(h);
    const until = h.scheduler.backoffUntilMs('/app');
    t.match(h.scale('/app', 3), { ok: true, deploymentId: String }, 'not locked: the creation finished when the instance ran');
    t.equal(h.scheduler.backoffUntilMs('/app'), until);
    t.same(h.offer(makeOffer()), []);
    t.equal(h.scheduler.queue()[0].scheduled, 3);
  });
});

function launchAndFailAfterDelay(h: Harness): void {
  const until = h.scheduler.backoffUntilMs('/app');
  if (until !== undefined) h.advanceTo(until);
  launchAndFail(h);
}

t.test('resetDelay launches at once and restarts the growth', async (t) => {
  const h = setup();
  launchAndFail(h);
  launchAndFailAfterDelay(h);
  t.same(h.resetDelay('/app'), { ok: true });
  t.equal(h.scheduler.backoffUntilMs('/app'), undefined);
  t.same(h.timers('backoffExpired'), []);
  launchAndFail(h);
  t.equal(h.scheduler.backoffUntilMs('/app'), h.nowMs + 1000);
  t.match(h.resetDelay('/nope'), { ok: false, error: 'unknown-run-spec' });
});

t.test('a user kill relaunches without backoff', async (t) => {
  const h = setup();
  const [l] = h.offer(makeOffer());
  h.run(l);
  h.kill('/app', [l.instanceId]);
  h.status(l.taskId, 'TASK_KILLED');
  t.equal(h.scheduler.backoffUntilMs('/app'), undefined);
  t.equal(h.offer(makeOffer()).length, 1);
});

t.test('revive when work appears, suppress per role when none is left', async (t) => {
  const h = new Harness();
  h.put(makeApp({ id: '/dev/a', role: 'dev' }));
  t.same(h.calls().filter((c) => c.type === 'revive' || c.type === 'suppress'), [{ type: 'revive', roles: ['dev'] }]);
  h.put(makeApp({ id: '/b', backoff: policy }));
  t.same(h.calls().filter((c) => c.type === 'revive' || c.type === 'suppress').slice(1), [{ type: 'revive', roles: ['*'] }]);
  h.clearRecords();

  const [lb] = h.offer(makeOffer({ allocationRole: '*' }));
  t.equal(lb.runSpecId, '/b');
  t.same(h.calls('suppress'), [{ type: 'suppress', roles: ['*'] }], 'only the role that ran out is suppressed');
  h.clearRecords();

  h.run(lb);
  h.status(lb.taskId, 'TASK_FAILED');
  t.same(h.calls().filter((c) => c.type === 'revive' || c.type === 'suppress'), [], 'no revive while backed off');
  h.advance(1000);
  t.same(h.calls('revive'), [{ type: 'revive', roles: ['*'] }], 'revive when the delay expires');
  h.clearRecords();

  const launched = h.offer(makeOffer());
  t.same(launched.map((l) => l.runSpecId).sort(), ['/b', '/dev/a']);
  t.same(h.calls('suppress'), [{ type: 'suppress', roles: ['*', 'dev'] }], 'both roles suppressed at once, sorted');
  h.run(launched.filter((l) => l.runSpecId === '/dev/a')); // /a's creation finishes, so it can be scaled without force
  h.clearRecords();
  t.match(h.scale('/dev/a', 2), { ok: true });
  t.same(h.calls('revive'), [{ type: 'revive', roles: ['dev'] }], 'scaling up revives');
});

t.test('a run spec deleted while waiting stops wanting offers', async (t) => {
  const h = new Harness();
  h.put(makeApp({ cpus: 100 }));
  h.clearRecords();
  h.delete('/app');
  t.same(h.calls('suppress'), [{ type: 'suppress', roles: ['*'] }]);
  t.same(h.offer(makeOffer()), []);
});
