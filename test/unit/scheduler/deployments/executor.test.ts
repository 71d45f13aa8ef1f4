import t, { type Test } from 'tap';
import { isTerminalCondition } from '../../../../src/scheduler/model/condition';
import type { MarathonEvent } from '../../../../src/scheduler/model/events';
import type { CommandResult } from '../../../../src/scheduler/model/inputs';
import type { TaskLaunch } from '../../../../src/scheduler/model/launch';
import type { RunSpec, UpgradePolicy } from '../../../../src/scheduler/model/run-spec';
import { makeOffer } from '../../../builders/cluster-builders';
import { makeApp, makeHealthCheck, makePod, versionAt, type AppOverrides } from '../../../builders/run-spec-builders';
import { Harness } from '../../../harness/core-harness';
import { rootWith } from '../../../builders/group-builders';

/*
 * The deployment executor (src/scheduler/deployments) driven through the Scheduler: plans and
 * their events, locking and force, rolling restarts within upgradeStrategy, cancel / rollback,
 * what `scheduler.deployments()` says a step waits for, the running-deployment cap, zero-step
 * deployments and dependency order (marathon-reference §2 "Deployments", "Deployment conflicts /
 * locking", "upgradeStrategy"; marathon-api-facts 59–64, 107, 108, 119, 122, 124).
 */

const T0 = '2026-01-01T00:00:00.000Z';
const V2 = versionAt(60);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

type ActionName = 'StartApplication' | 'StopApplication' | 'ScaleApplication' | 'RestartApplication' | 'StartPod' | 'StopPod' | 'ScalePod' | 'RestartPod';

/** A step as deployment events carry it: `{actions: [{action, app}]}`. */
function step(...actions: [ActionName, string][]): { actions: Record<string, string>[] } {
  return { actions: actions.map(([action, id]): Record<string, string> => (action.endsWith('Pod') ? { action, pod: id } : { action, app: id })) };
}

/** The deployment id of an accepted command (fails the test otherwise). */
function accepted(t: Test, result: CommandResult, what = 'accepted'): string {
  t.match(result, { ok: true, deploymentId: UUID }, what);
  return result.ok ? result.deploymentId ?? '' : '';
}

/** Event types of the log, without the instance-level ones, lightened ({@link lightened}). */
function deploymentEvents(h: Harness): Lightened[] {
  return h.events().filter((e) => e.eventType !== 'instance_changed_event' && e.eventType !== 'status_update_event'
    && e.eventType !== 'instance_health_changed_event' && e.eventType !== 'health_status_changed_event').map(lightened);
}

/** An event as {@link lightened} returns it. */
type Lightened = Readonly<Record<string, unknown>> & { readonly eventType: MarathonEvent['eventType'] };

/**
 * An event with the full plan of `deployment_info` / `deployment_step_*` reduced to `{id, steps,
 * version}` and the `type` twin dropped from its `currentStep` actions, so tests can state plans
 * compactly; the full shape is pinned by the test 'deployment_info and step events carry the full
 * plan' below. Other events are returned as they are.
 */
function lightened(e: MarathonEvent): Lightened {
  if (e.eventType !== 'deployment_info' && e.eventType !== 'deployment_step_success' && e.eventType !== 'deployment_step_failure') return { ...e };
  const { id, steps, version } = e.plan;
  const actions = e.currentStep.actions.map(({ type: _type, ...rest }) => rest);
  return { ...e, plan: { id, steps, version }, currentStep: { actions } };
}

/** The ids of the running deployments. */
function running(h: Harness): string[] {
  return h.scheduler.deployments().map((d) => d.deployment.plan.id);
}

/** Instances that exist (not terminal, whatever their goal). */
function existing(h: Harness, id = '/app'): number {
  return h.instances(id).filter((i) => !isTerminalCondition(i.condition)).length;
}

/** Instances a deployment counts as healthy capacity: Running, goal Running, and healthy when the app has checks. */
function healthy(h: Harness, id = '/app'): number {
  const spec = h.scheduler.runSpec(id);
  const checks = spec?.kind === 'app' && spec.healthChecks.length > 0;
  return h.instances(id).filter((i) => i.condition === 'Running' && i.goal === 'Running' && (!checks || i.healthy === true)).length;
}

/** Each instance as `old|new:Condition` (`-killing` when its goal is Decommissioned), in creation order. */
function tags(h: Harness, v1: RunSpec, id = '/app'): string[] {
  return h.instances(id).map((i) => `${i.runSpecVersion === v1.version ? 'old' : 'new'}:${i.condition}${i.goal === 'Decommissioned' ? '-killing' : ''}`);
}

/** Task ids the driver was asked to kill, in order. */
function kills(h: Harness): string[] {
  return h.calls('kill').map((k) => k.taskId);
}

function tail<T>(xs: readonly T[], n: number): T[] {
  return xs.slice(Math.max(0, xs.length - n));
}


// ── plans and their events ───────────────────────────────────────────────────────────────────────

t.test('a new app: [StartApplication] then [ScaleApplication]; events in Marathon order, deployment_success once all instances run (fact 108)', async (t) => {
  const h = new Harness();
  const app = makeApp({ id: '/prod/web', instances: 2 });
  const id = accepted(t, h.put(app));
  const plan = { id, steps: [step(['StartApplication', '/prod/web']), step(['ScaleApplication', '/prod/web'])], version: app.version };
  t.same(deploymentEvents(h), [
    { eventType: 'group_change_success', timestamp: T0, groupId: '/prod', version: app.version },
    { eventType: 'deployment_info', timestamp: T0, plan, currentStep: plan.steps[0] },
    { eventType: 'deployment_step_success', timestamp: T0, plan, currentStep: plan.steps[0] },
    { eventType: 'deployment_info', timestamp: T0, plan, currentStep: plan.steps[1] },
  ], 'the start step is an instant no-op; the scale step waits');
  t.same(h.events('instance_changed_event').map((e) => e.condition), ['Scheduled', 'Scheduled'], 'instances are scheduled by the scale step');
  t.equal(h.scheduler.runSpec('/prod/web')?.instances, 2);
  t.match(h.scheduler.deployments(), [{ deployment: { plan: { id, targetVersion: app.version }, stepIndex: 1 } }], 'visible while it runs (currentStep 2 of 2)');
  t.same(h.scheduler.root().groups.get('/prod')?.apps.get('/prod/web'), app, 'the root already holds the target');

  const launched = h.offer(makeOffer());
  h.run(launched[0]);
  t.same(h.events('deployment_success'), [], 'one of two running: not done');
  h.advance(1000);
  h.run(launched[1]);
  const ts = '2026-01-01T00:00:01.000Z';
  t.same(tail(h.events(), 3).map(lightened), [
    { eventType: 'instance_changed_event', timestamp: ts, instanceId: launched[1].instanceId, condition: 'Running', runSpecId: '/prod/web', agentId: launched[1].agentId, host: 'host-1', runSpecVersion: app.version },
    { eventType: 'deployment_step_success', timestamp: ts, plan, currentStep: plan.steps[1] },
    { eventType: 'deployment_success', timestamp: ts, id, plan },
  ], 'step success and deployment success come last, right after the last instance runs');
  t.same(h.scheduler.deployments(), []);
  for (const e of h.events()) {
    if (e.eventType === 'deployment_success' || e.eventType === 'deployment_failed') {
      t.notOk('original' in e.plan || 'target' in e.plan, `${e.eventType}: a light plan (fact 106)`);
    } else if ('plan' in e) t.ok('original' in e.plan && 'target' in e.plan, `${e.eventType}: the full plan (spec 6)`);
  }
});

t.test('deployment_info and step events carry the full plan (spec 6): both roots, steps, version; currentStep actions with action and type', async (t) => {
  const h = new Harness();
  const before = h.scheduler.root();
  const app = makeApp({ id: '/prod/web', instances: 1 });
  const id = accepted(t, h.put(app));
  const after = h.scheduler.root();
  const [info] = h.events('deployment_info');
  const { original, target, ...light } = info.plan;
  t.same(light, { id, steps: [step(['StartApplication', '/prod/web']), step(['ScaleApplication', '/prod/web'])], version: app.version });
  t.equal(original, before, 'the root before the change (rendered by the wire, not the core)');
  t.equal(target, after, 'the root after it');
  t.same(info.currentStep, { actions: [{ action: 'StartApplication', app: '/prod/web', type: 'StartApplication' }] });
  const stepSuccess = h.events().find((e) => e.eventType === 'deployment_step_success');
  t.equal(stepSuccess !== undefined && 'plan' in stepSuccess ? stepSuccess.plan : undefined, info.plan, 'one plan object for all events of a deployment');
  h.run(h.offer(makeOffer()));
  const [success] = h.events('deployment_success');
  t.same(success.plan, { id, steps: info.plan.steps, version: app.version }, 'deployment_success keeps the light plan');
});

t.test('plan shapes: a scale-only change is one ScaleApplication step, any other change one RestartApplication step, a delete one StopApplication step; pods use …Pod and `pod`', async (t) => {
  const infoSteps = (h: Harness) => h.events('deployment_info').map((e) => e.plan.steps);

  const scaled = new Harness();
  scaled.deploy(makeApp());
  scaled.clearRecords();
  scaled.advance(1000);
  accepted(t, scaled.scale('/app', 2));
  t.same(infoSteps(scaled), [[step(['ScaleApplication', '/app'])]], 'scale');

  const changed = new Harness();
  changed.deploy(makeApp());
  changed.clearRecords();
  accepted(t, changed.put(makeApp({ labels: { tier: 'web' }, version: V2 })));
  t.same(infoSteps(changed), [[step(['RestartApplication', '/app'])]], 'a label change restarts');

  const deleted = new Harness();
  const [l] = deleted.deploy(makeApp());
  deleted.clearRecords();
  const id = accepted(t, deleted.delete('/app'));
  t.same(infoSteps(deleted), [[step(['StopApplication', '/app'])]], 'delete');
  t.same(deleted.events('deployment_success'), [], 'waits for the kill');
  deleted.status(l.taskId, 'TASK_KILLED');
  t.same(tail(deleted.events().map((e) => e.eventType), 3), ['app_terminated_event', 'deployment_step_success', 'deployment_success'], 'done once the run spec is gone');
  t.match(deleted.events('deployment_success'), [{ id }]);
  t.same(deleted.scheduler.root().apps.size, 0);

  const pod = new Harness();
  accepted(t, pod.put(makePod({ id: '/pods/p' })));
  t.same(infoSteps(pod)[0], [step(['StartPod', '/pods/p']), step(['ScalePod', '/pods/p'])], 'pods');
  t.match(pod.events('group_change_success'), [{ groupId: '/pods' }]);
});

// ── locking and force ────────────────────────────────────────────────────────────────────────────

/** /app (cpus 100: no offer ever fits) whose creation deployment keeps waiting, holding /app. */
function held(o: AppOverrides = {}): { h: Harness; app: RunSpec; first: string } {
  const h = new Harness();
  const app = makeApp({ cpus: 100, ...o });
  const r = h.put(app);
  if (!r.ok || r.deploymentId === undefined) throw new Error('not accepted');
  return { h, app, first: r.deploymentId };
}

t.test('locking: a change to a run spec held by a running deployment is refused with the locking deployment ids; nothing changes', async (t) => {
  const { h, app, first } = held();
  h.clearRecords();
  const v2 = makeApp({ cpus: 100, cmd: 'v2', version: V2 });
  t.same(h.put(v2), {
    ok: false, error: 'locked', deployments: [first],
    message: `App is locked by one or more deployments. Override with the option '?force=true'. Locking deployments: ${first}`,
  });
  t.match(h.scale('/app', 3), { ok: false, error: 'locked', deployments: [first] }, 'scale');
  t.match(h.delete('/app', { force: false }), { ok: false, error: 'locked', deployments: [first] }, 'delete with force=false');
  t.same(h.events().map((e) => e.eventType), ['deployment_failed', 'group_change_failed', 'deployment_failed', 'group_change_failed', 'deployment_failed', 'group_change_failed'],
    'per refusal, the refused plan fails, then the group change (fact 7), nothing else');
  t.ok(h.events().every((e) => (e.eventType === 'group_change_failed' || e.eventType === 'deployment_failed') && /locked/.test(e.reason ?? '')), 'each refusal says why');
  const failed = h.events('deployment_failed');
  t.equal(new Set(failed.map((e) => e.id)).size, 3, 'each refused plan has its own id');
  t.notOk(failed.some((e) => e.id === first), 'none is the running deployment');
  t.ok(failed.every((e) => e.plan.id === e.id && Array.isArray(e.plan.steps)), 'each carries its light plan');
  t.same(h.calls().filter((c) => c.type === 'kill'), []);
  t.equal(h.scheduler.runSpec('/app'), app, 'the run spec is untouched');
  t.equal(h.scheduler.root().apps.get('/app'), app, 'and so is the root');
  t.same(running(h), [first]);
  accepted(t, h.put(makeApp({ id: '/other' })), 'another run spec is not held');
  t.equal(running(h).length, 2);
});

t.test('locking: a change touching run specs of several running deployments names all of them', async (t) => {
  const h = new Harness();
  const a = makeApp({ id: '/a', cpus: 100 });
  const b = makeApp({ id: '/b', cpus: 100 });
  const ida = accepted(t, h.put(a));
  const idb = accepted(t, h.put(b));
  const target = rootWith(h.scheduler.root(), V2, makeApp({ id: '/a', cpus: 100, instances: 2, version: V2 }), makeApp({ id: '/b', cpus: 100, instances: 2, version: V2 }));
  t.match(h.deployRoot(target), { ok: false, error: 'locked', deployments: [ida, idb] });
  t.same(running(h), [ida, idb]);
});

t.test('force: the conflicting deployment is stopped (deployment_step_failure, deployment_failed) and the new one starts', async (t) => {
  const { h, app, first } = held({ instances: 2 });
  h.clearRecords();
  const v2 = makeApp({ cpus: 1, instances: 2, cmd: 'v2', version: V2 });
  const second = accepted(t, h.put(v2, { force: true }));
  t.not(second, first);
  const firstPlan = { id: first, steps: [step(['StartApplication', '/app']), step(['ScaleApplication', '/app'])], version: app.version };
  const secondPlan = { id: second, steps: [step(['RestartApplication', '/app'])], version: V2 };
  t.same(deploymentEvents(h), [
    { eventType: 'deployment_step_failure', timestamp: T0, plan: firstPlan, currentStep: firstPlan.steps[1] },
    { eventType: 'deployment_failed', timestamp: T0, id: first, plan: firstPlan, reason: 'The deployment has been canceled by a forced change' },
    { eventType: 'group_change_success', timestamp: T0, groupId: '/', version: V2 },
    { eventType: 'deployment_info', timestamp: T0, plan: secondPlan, currentStep: secondPlan.steps[0] },
  ]);
  t.same(running(h), [second]);
  t.equal(h.scheduler.runSpec('/app'), v2);
  t.same(h.instances('/app').map((i) => [i.condition, i.runSpecVersion]), [['Scheduled', V2], ['Scheduled', V2]], 'the waiting instances now wait for v2');
  const launched = h.offer(makeOffer());
  t.equal(launched.length, 2);
  h.run(launched);
  t.same(tail(h.events().map((e) => e.eventType), 2), ['deployment_step_success', 'deployment_success']);
  t.match(h.events('deployment_success'), [{ id: second }]);
});

t.test('delete defaults to force: it stops the creation that holds the app', async (t) => {
  const { h, first } = held();
  h.clearRecords();
  const id = accepted(t, h.delete('/app'));
  t.same(deploymentEvents(h).map((e) => e.eventType), [
    'deployment_step_failure', 'deployment_failed', 'group_change_success', 'deployment_info', 'app_terminated_event', 'deployment_step_success', 'deployment_success',
  ], 'nothing was launched, so the stop finishes at once');
  t.match(h.events('deployment_failed'), [{ id: first }]);
  t.match(h.events('deployment_success'), [{ id }]);
  t.equal(h.scheduler.runSpec('/app'), undefined);
});

t.test('maxRunningDeployments: beyond it a change is refused, even with force', async (t) => {
  const h = new Harness({ options: { maxRunningDeployments: 1 } });
  const a = accepted(t, h.put(makeApp({ id: '/a', cpus: 100 })));
  h.clearRecords();
  const refusal = { ok: false, error: 'too-many-deployments', message: 'Max number of running deployments is sealed: 1' };
  t.same(h.put(makeApp({ id: '/b' })), refusal);
  t.same(h.put(makeApp({ id: '/b' }), { force: true }), refusal, 'force does not lift the cap');
  t.match(h.events(), [
    { eventType: 'group_change_failed', groupId: '/', reason: 'Max number of running deployments is sealed: 1' },
    { eventType: 'group_change_failed', groupId: '/', reason: 'Max number of running deployments is sealed: 1' },
  ]);
  t.equal(h.events().length, 2, 'nothing else');
  t.equal(h.scheduler.runSpec('/b'), undefined);
  t.equal(h.scheduler.root().apps.has('/b'), false);
  accepted(t, h.cancelDeployment(a, { force: true }));
  accepted(t, h.put(makeApp({ id: '/b' })), 'accepted once a slot is free');
});

t.test('maxTotalInstances: a change that would ask for more instances in all is refused, even forced; one that lowers the total passes', async (t) => {
  const tooMany = (total: number): unknown => ({
    ok: false, error: 'invalid', message: 'Object is not valid',
    details: [{ path: '/', errors: [`the root group would ask for ${total} instances in all, more than 10 (--max_total_instances)`] }],
  });
  const h = new Harness({ options: { maxTotalInstances: 10 } });
  h.deploy(makeApp({ id: '/a', instances: 6 }));
  h.deploy(makePod({ id: '/p', instances: 2 }));
  h.clearRecords();
  // Each row: what is put, and the refusal (undefined: accepted). The total before each row is 8, then what the accepted rows leave.
  const cases: readonly [string, () => unknown, unknown][] = [
    ['a new app past the bound', () => h.put(makeApp({ id: '/b', instances: 3 })), tooMany(11)],
    ['forced', () => h.put(makeApp({ id: '/b', instances: 3 }), { force: true }), tooMany(11)],
    ['a scale-up of an app past it', () => h.scale('/a', 9), tooMany(11)],
    ['a pod scaled past it', () => h.put(makePod({ id: '/p', instances: 5 })), tooMany(11)],
    ['a new app up to the bound exactly', () => h.put(makeApp({ id: '/b', instances: 2 })), undefined],
  ];
  for (const [name, put, refusal] of cases) {
    const result = put();
    if (refusal === undefined) t.match(result, { ok: true }, name);
    else t.same(result, refusal, name);
  }
  t.equal(h.scheduler.runSpec('/a')?.instances, 6, 'nothing refused was changed');
  t.equal(h.scheduler.root().apps.get('/b')?.instances, 2);
});

t.test('maxTotalInstances: a root above a lowered bound still shrinks, and may not grow', async (t) => {
  const h = new Harness({ options: { maxTotalInstances: 10 } });
  h.deploy(makeApp({ id: '/a', instances: 3 }));
  h.deploy(makeApp({ id: '/b', instances: 3 }));
  t.same(h.scheduler.runningPlans(), [], 'both deployed');
  const lowered = new Harness({ stored: h.store.load(), options: { maxTotalInstances: 4 } });
  t.equal(lowered.scheduler.runSpec('/a')?.instances, 3, 'the stored root (6 instances) is recovered whole above the bound of 4');
  t.match(lowered.scale('/a', 4), { ok: false, error: 'invalid' }, 'growing it is refused');
  t.match(lowered.scale('/a', 2, { force: true }), { ok: true }, 'a scale-down passes above the bound');
  t.match(lowered.scale('/a', 3, { force: true }), { ok: false, error: 'invalid' }, 'growing again is refused while above the bound');
  t.match(lowered.delete('/b', { force: true }), { ok: true }, 'a delete passes');
  t.match(lowered.scale('/a', 4, { force: true }), { ok: true }, 'up to the bound again once below it');
});

t.test('a zero-change put is a deployment with no steps: deployment_success at once, nothing restarted', async (t) => {
  const h = new Harness();
  const app = makeApp({ instances: 2 });
  h.deploy(app);
  h.clearRecords();
  h.advance(5000);
  const id = accepted(t, h.put(app));
  // Fact 46: the app keeps its version; the root gets the clock's now (never an older root's version).
  const rootVersion = '2026-01-01T00:00:05.000Z';
  const plan = { id, steps: [], version: rootVersion };
  t.same(h.events(), [
    { eventType: 'group_change_success', timestamp: '2026-01-01T00:00:05.000Z', groupId: '/', version: rootVersion },
    { eventType: 'deployment_success', timestamp: '2026-01-01T00:00:05.000Z', id, plan },
  ]);
  t.equal(h.scheduler.runSpec('/app')?.version, app.version, 'the app keeps its version');
  t.equal(h.scheduler.root().version, rootVersion);
  t.same(h.calls(), []);
  t.same(running(h), []);
  t.same(h.conditions('/app'), ['Running', 'Running']);
});

// ── rolling restarts (RestartApplication within upgradeStrategy; fact 119) ──────────────────────

interface Rolling {
  readonly h: Harness;
  readonly v1: RunSpec;
  readonly v2: RunSpec;
  /** The v1 tasks, oldest first (started 1 s apart). */
  readonly old: TaskLaunch[];
  readonly deploymentId: string;
  /** Extremes seen between inputs since v2 was put. */
  readonly seen: { maxExisting: number; minHealthy: number };
}

/** `instances` running v1 instances of /app under `upgrade`, then v2 (a cmd change) is put. */
function rolling(upgrade: UpgradePolicy, instances = 4, o: AppOverrides = {}): Rolling {
  const h = new Harness();
  const v1 = makeApp({ instances, upgrade, ...o });
  h.put(v1);
  const old = h.offer(makeOffer());
  for (const l of old) {
    h.run(l);
    h.advance(1000);
  }
  if (h.scheduler.deployments().length > 0) throw new Error('v1 not deployed');
  const seen = { maxExisting: existing(h), minHealthy: healthy(h) };
  h.observe(() => {
    seen.maxExisting = Math.max(seen.maxExisting, existing(h));
    seen.minHealthy = Math.min(seen.minHealthy, healthy(h));
  });
  h.clearRecords();
  const v2 = makeApp({ instances, upgrade, cmd: 'v2', version: V2, ...o });
  const r = h.put(v2);
  if (!r.ok || r.deploymentId === undefined) throw new Error('v2 refused');
  return { h, v1, v2, old, deploymentId: r.deploymentId, seen };
}

/** Confirms every requested kill that is not confirmed yet. */
function confirmKills(h: Harness, done: Set<string>): void {
  for (const id of kills(h)) {
    if (done.has(id)) continue;
    done.add(id);
    h.status(id, 'TASK_KILLED');
  }
}

t.test('rolling {1, 1}: all new instances start next to the old ones; an old one is killed each time a new one runs', async (t) => {
  const { h, v1, old, deploymentId, seen } = rolling({ minimumHealthCapacity: 1, maximumOverCapacity: 1 });
  t.same(kills(h), [], 'nothing killed before a new instance is healthy (minHealthy 4)');
  t.same(tags(h, v1), [...Array(4).fill('old:Running'), ...Array(4).fill('new:Scheduled')], 'maxCapacity 8: four new ones at once');
  const fresh = h.offer(makeOffer());
  t.equal(fresh.length, 4);
  t.same(kills(h), [], 'launched is not healthy');
  const youngestFirst = [...old].reverse().map((l) => l.taskId);
  for (let i = 0; i < 4; i++) {
    h.run(fresh[i]);
    t.same(kills(h), youngestFirst.slice(0, i + 1), `new #${i + 1} running: old #${i + 1} killed (YOUNGEST_FIRST)`);
  }
  t.same(running(h), [deploymentId], 'not done while old instances still exist');
  confirmKills(h, new Set());
  t.same(tags(h, v1), Array(4).fill('new:Running'));
  t.same(running(h), []);
  t.match(h.events('deployment_success'), [{ id: deploymentId }]);
  t.equal(seen.maxExisting, 8, 'never more than 8 instances');
  t.equal(seen.minHealthy, 4, 'never fewer than 4 healthy');
});

t.test('rolling {1, 0}: one extra instance is allowed so the restart can progress (non-resident)', async (t) => {
  const { h, v1, old, deploymentId, seen } = rolling({ minimumHealthCapacity: 1, maximumOverCapacity: 0 });
  t.same(kills(h), []);
  t.same(tags(h, v1), [...Array(4).fill('old:Running'), 'new:Scheduled'], 'one extra: 5 instances');
  const confirmed = new Set<string>();
  const youngestFirst = [...old].reverse().map((l) => l.taskId);
  for (let i = 0; i < 4; i++) {
    const [l] = h.offer(makeOffer());
    t.ok(l, `new #${i + 1} launched`);
    t.equal(h.instances('/app').filter((x) => x.condition === 'Scheduled').length, 0, 'one at a time');
    h.run(l);
    t.same(kills(h), youngestFirst.slice(0, i + 1), `new #${i + 1} running: old #${i + 1} killed`);
    t.equal(existing(h), 5, 'the killed one still counts until it is gone: no new launch yet');
    confirmKills(h, confirmed);
  }
  t.same(tags(h, v1), Array(4).fill('new:Running'));
  t.match(h.events('deployment_success'), [{ id: deploymentId }]);
  t.equal(seen.maxExisting, 5, 'never more than 4 + 1');
  t.equal(seen.minHealthy, 4, 'never fewer than 4 healthy');
});

t.test('rolling {0.5, 0} with 4 instances: 2 old killed at once, the total never above 4 (fact 119)', async (t) => {
  const { h, v1, old, deploymentId, seen } = rolling({ minimumHealthCapacity: 0.5, maximumOverCapacity: 0 });
  t.same(kills(h), [old[3].taskId, old[2].taskId], 'healthy 4 − minHealthy 2 = 2 killed at once, youngest first');
  t.same(tags(h, v1), ['old:Running', 'old:Running', 'old:Running-killing', 'old:Running-killing'], 'no room for a new one yet');
  const confirmed = new Set<string>();
  confirmKills(h, confirmed);
  t.same(tags(h, v1), ['old:Running', 'old:Running', 'new:Scheduled', 'new:Scheduled'], 'the freed capacity goes to new instances');
  const fresh = h.offer(makeOffer());
  t.equal(fresh.length, 2);
  h.run(fresh[0]);
  t.same(kills(h).slice(2), [old[1].taskId], 'a new one healthy: the next old one goes');
  h.run(fresh[1]);
  t.same(kills(h).slice(2), [old[1].taskId, old[0].taskId]);
  t.equal(h.instances('/app').filter((i) => i.condition === 'Scheduled').length, 0, 'still no room while the old ones are being killed');
  confirmKills(h, confirmed);
  t.same(tags(h, v1), ['new:Running', 'new:Running', 'new:Scheduled', 'new:Scheduled']);
  h.run(h.offer(makeOffer()));
  t.same(tags(h, v1), Array(4).fill('new:Running'));
  t.match(h.events('deployment_success'), [{ id: deploymentId }]);
  t.equal(seen.maxExisting, 4, 'the total never exceeds 4');
  t.equal(seen.minHealthy, 2, 'never fewer than 2 healthy');
});

t.test('rolling {0, 0}: every old instance is killed at once, new ones start as the old ones are gone', async (t) => {
  const { h, v1, old, deploymentId, seen } = rolling({ minimumHealthCapacity: 0, maximumOverCapacity: 0 });
  t.same(kills(h), [...old].reverse().map((l) => l.taskId), 'all four at once');
  t.same(tags(h, v1), Array(4).fill('old:Running-killing'), 'no room for new ones');
  h.status(old[3].taskId, 'TASK_KILLED');
  t.same(tags(h, v1), [...Array(3).fill('old:Running-killing'), 'new:Scheduled'], 'one gone, one new');
  confirmKills(h, new Set([old[3].taskId]));
  t.same(tags(h, v1), Array(4).fill('new:Scheduled'));
  h.run(h.offer(makeOffer()));
  t.match(h.events('deployment_success'), [{ id: deploymentId }]);
  t.equal(seen.maxExisting, 4);
  t.equal(seen.minHealthy, 0);
});

t.test('rolling with health checks: an old instance goes only when a new one is healthy, not merely running', async (t) => {
  const hc = makeHealthCheck({ gracePeriodMs: 0, intervalMs: 10_000, maxConsecutiveFailures: 0 });
  const h = new Harness();
  const v1 = makeApp({ instances: 2, hostPorts: [0], healthChecks: [hc] });
  h.put(v1);
  const old = h.offer(makeOffer());
  h.run(old[0]);
  h.advance(1000);
  h.run(old[1]);
  t.equal(h.events('deployment_success').length, 0, 'v1 waits for health too');
  for (const l of old) h.probeInstance(l.instanceId, { httpStatus: 200 });
  t.equal(h.events('deployment_success').length, 1, 'v1 deployed once both are healthy');
  h.clearRecords();
  const v2 = makeApp({ instances: 2, hostPorts: [0], healthChecks: [hc], cmd: 'v2', version: V2 });
  const id = accepted(t, h.put(v2));
  const fresh = h.offer(makeOffer());
  h.run(fresh);
  t.same(kills(h), [], 'running but health unknown: nothing killed');
  t.match(h.scheduler.deployments(), [{ actions: [{ done: false, waitingFor: { unplaced: 0, notHealthy: 2, toReplace: 2 } }] }]);
  h.probeInstance(fresh[0].instanceId, { httpStatus: 500 });
  t.same(kills(h), [], 'unhealthy: nothing killed');
  h.advance(10_000);
  h.probeInstance(fresh[0].instanceId, { httpStatus: 200 });
  t.same(kills(h), [old[1].taskId], 'healthy: one old instance goes');
  h.probeInstance(fresh[1].instanceId, { httpStatus: 200 });
  t.same(kills(h), [old[1].taskId, old[0].taskId]);
  t.same(running(h), [id]);
  confirmKills(h, new Set());
  t.same(running(h), []);
  t.match(h.events('deployment_success'), [{ id }]);
});

// ── cancel: rollback, or just stop (facts 62–64) ────────────────────────────────────────────────

t.test('cancel without force rolls back: the canceled deployment fails, a new one restores the original definition', async (t) => {
  const { h, v1, old, deploymentId } = rolling({ minimumHealthCapacity: 1, maximumOverCapacity: 1 }, 2);
  t.same(tags(h, v1), ['old:Running', 'old:Running', 'new:Scheduled', 'new:Scheduled']);
  h.clearRecords();
  h.advance(1000);
  const rollback = accepted(t, h.cancelDeployment(deploymentId));
  t.not(rollback, deploymentId);
  const ts = '2026-01-01T00:00:03.000Z';
  // The rollback is a new root version like any change: strictly after the current root's (V2,
  // stamped ahead of this clock), never the clock's now behind it.
  const rollbackVersion = '2026-01-01T00:01:00.001Z';
  const canceledPlan = { id: deploymentId, steps: [step(['RestartApplication', '/app'])], version: V2 };
  const rollbackPlan = { id: rollback, steps: [step(['RestartApplication', '/app'])], version: rollbackVersion };
  t.same(deploymentEvents(h), [
    { eventType: 'deployment_step_failure', timestamp: ts, plan: canceledPlan, currentStep: canceledPlan.steps[0] },
    { eventType: 'deployment_failed', timestamp: ts, id: deploymentId, plan: canceledPlan, reason: 'The deployment has been canceled' },
    { eventType: 'group_change_success', timestamp: ts, groupId: '/', version: rollbackVersion },
    { eventType: 'deployment_info', timestamp: ts, plan: rollbackPlan, currentStep: rollbackPlan.steps[0] },
    { eventType: 'deployment_step_success', timestamp: ts, plan: rollbackPlan, currentStep: rollbackPlan.steps[0] },
    { eventType: 'deployment_success', timestamp: ts, id: rollback, plan: rollbackPlan },
  ], 'the v1 instances are still there, so going back to v1 is done at once');
  t.equal(h.scheduler.runSpec('/app'), v1, 'the original definition again');
  t.equal(h.scheduler.root().apps.get('/app'), v1);
  t.same(tags(h, v1), ['old:Running', 'old:Running'], 'the not yet launched v2 instances are dropped');
  t.same(kills(h), [], 'no running instance was touched');
  t.same(running(h), []);
  t.equal(old.length, 2);
});

t.test('cancel without force of a creation removes the app (a reverted create deletes it)', async (t) => {
  const { h, first } = held();
  h.clearRecords();
  const rollback = accepted(t, h.cancelDeployment(first));
  t.same(deploymentEvents(h).map((e) => e.eventType), [
    'deployment_step_failure', 'deployment_failed', 'group_change_success', 'deployment_info', 'app_terminated_event', 'deployment_step_success', 'deployment_success',
  ]);
  t.match(h.events('deployment_info'), [{ plan: { id: rollback, steps: [step(['StopApplication', '/app'])] } }]);
  t.equal(h.scheduler.runSpec('/app'), undefined);
  t.equal(h.scheduler.root().apps.has('/app'), false);
});

t.test('cancel with force just stops: deployment_failed, no rollback, the app keeps the new definition', async (t) => {
  const { h, v1, v2, deploymentId } = rolling({ minimumHealthCapacity: 1, maximumOverCapacity: 1 }, 2);
  h.clearRecords();
  t.match(h.cancelDeployment(deploymentId, { force: true }), { ok: true });
  t.same(deploymentEvents(h).map((e) => e.eventType), ['deployment_step_failure', 'deployment_failed'], 'no new deployment');
  t.equal(h.scheduler.runSpec('/app'), v2, 'nothing rolled back');
  t.equal(h.scheduler.root().apps.get('/app'), v2);
  t.same(running(h), []);
  t.same(tags(h, v1), ['old:Running', 'old:Running'], 'left half-upgraded: the count is brought back to 2, dropping the waiting new ones');
  t.same(kills(h), []);
});

t.test('cancel of an unknown deployment', async (t) => {
  const h = new Harness();
  t.same(h.cancelDeployment('nope'), { ok: false, error: 'unknown-deployment', message: 'DeploymentPlan nope does not exist' });
});

// ── why a deployment waits ───────────────────────────────────────────────────────────────────────

t.test('deployments() says why the current action waits: unplaced instances with the offer rejections, not healthy, to replace', async (t) => {
  t.test('unplaced, with the reasons offers were refused', async (t) => {
    const h = new Harness();
    const id = accepted(t, h.put(makeApp({ instances: 2, cpus: 6, mem: 8000 })));
    h.offer(makeOffer());
    h.offer(makeOffer({ cpus: 8 }));
    t.same(h.scheduler.deployments().map((d) => d.actions), [[{
      action: { action: 'ScaleApplication', runSpecId: '/app', kind: 'app' },
      done: false,
      waitingFor: { unplaced: 2, rejections: { InsufficientCpus: 1, InsufficientMemory: 1 }, notHealthy: 0, notReady: 0, toReplace: 0 },
    }]]);
    t.match(h.scheduler.deployments(), [{ deployment: { plan: { id }, stepIndex: 1, startedAtMs: h.nowMs } }]);
  });
  t.test('running but not healthy', async (t) => {
    const h = new Harness();
    h.put(makeApp({ hostPorts: [0], healthChecks: [makeHealthCheck({ gracePeriodMs: 0 })] }));
    h.run(h.offer(makeOffer()));
    t.match(h.scheduler.deployments(), [{ actions: [{ done: false, waitingFor: { unplaced: 0, notHealthy: 1, toReplace: 0 } }] }]);
    h.probeInstance(h.instances('/app')[0].instanceId, { httpStatus: 200 });
    t.same(h.scheduler.deployments(), [], 'healthy: done');
  });
  t.test('old instances to replace', async (t) => {
    const { h } = rolling({ minimumHealthCapacity: 1, maximumOverCapacity: 1 }, 2);
    t.same(h.scheduler.deployments().map((d) => d.actions.map((a) => [a.action.action, a.done, a.waitingFor])), [[
      ['RestartApplication', false, { unplaced: 2, rejections: {}, notHealthy: 0, notReady: 0, toReplace: 2 }],
    ]]);
    h.run(h.offer(makeOffer()));
    t.match(h.scheduler.deployments(), [{ actions: [{ done: false, waitingFor: { unplaced: 0, notHealthy: 0, notReady: 0, toReplace: 2 } }] }], 'killed but not gone yet');
  });
});

// ── dependencies (fact 124) ──────────────────────────────────────────────────────────────────────

t.test('a root with a dependency cycle is refused (group_change_failed), and nothing changes', async (t) => {
  const h = new Harness();
  const a = makeApp({ id: '/g/a', dependencies: ['/g/b'], version: V2 });
  const b = makeApp({ id: '/g/b', dependencies: ['/g/a'], version: V2 });
  const before = h.scheduler.root();
  // Marathon's answer (fact 74), whichever command made the root: one check, in the deployment manager.
  t.same(h.deployRoot(rootWith(before, V2, a, b)), {
    ok: false, error: 'invalid', message: 'Object is not valid', details: [{ path: '/', errors: ['Dependency graph has cyclic dependencies.'] }],
  });
  t.equal(h.scheduler.root(), before, 'the root is unchanged');
  t.same(h.scheduler.runSpecs(), []);
  t.match(h.events('group_change_failed'), [{ groupId: '/', version: V2, reason: 'Object is not valid' }]);
  t.same(h.events('deployment_info'), []);
});

t.test('a refused (locked) change emits group_change_failed with the reason', async (t) => {
  const h = new Harness();
  h.put(makeApp({ cpus: 100 }));
  t.match(h.put(makeApp({ cpus: 100, instances: 2, version: V2 })), { ok: false, error: 'locked' });
  t.match(h.events('group_change_failed'), [{ groupId: '/', reason: /locked by one or more deployments/ }]);
});

t.test('dependency order: a root deployed at once starts the dependent app only after its dependency is running and healthy', async (t) => {
  const h = new Harness();
  const db = makeApp({ id: '/g/db', hostPorts: [0], healthChecks: [makeHealthCheck({ gracePeriodMs: 0 })], version: V2 });
  const service = makeApp({ id: '/g/service', instances: 2, dependencies: ['/g/db'], version: V2 });
  const cache = makeApp({ id: '/g/cache', version: V2 });
  const id = accepted(t, h.deployRoot(rootWith(h.scheduler.root(), V2, db, service, cache)));
  t.same(h.events('deployment_info').map((e) => e.plan.steps)[0], [
    step(['StartApplication', '/g/cache'], ['StartApplication', '/g/db'], ['StartApplication', '/g/service']),
    step(['ScaleApplication', '/g/cache'], ['ScaleApplication', '/g/db']),
    step(['ScaleApplication', '/g/service']),
  ], 'dependencies first, independent apps in the first layer');
  t.match(h.events('group_change_success'), [{ groupId: '/', version: V2 }], 'a root replaced at once names / (fact 107)');
  t.equal(h.scheduler.runSpec('/g/service')?.instances, 0, 'started with 0 instances');
  t.same(h.instances('/g/service'), [], 'not started before its dependency');
  const first = h.offer(makeOffer());
  t.same(first.map((l) => l.runSpecId).sort(), ['/g/cache', '/g/db']);
  h.run(first);
  t.same(h.instances('/g/service'), [], 'db running but not healthy yet: still waiting');
  t.match(h.scheduler.deployments(), [{ deployment: { stepIndex: 1 }, actions: [{ action: { runSpecId: '/g/cache' }, done: true }, { action: { runSpecId: '/g/db' }, done: false, waitingFor: { notHealthy: 1 } }] }]);
  h.probeInstance(first.find((l) => l.runSpecId === '/g/db')?.instanceId ?? '', { httpStatus: 200 });
  t.equal(h.scheduler.runSpec('/g/service')?.instances, 2, 'db healthy: the service step begins');
  t.same(h.conditions('/g/service'), ['Scheduled', 'Scheduled']);
  const infos = h.events('deployment_info').map((e) => lightened(e).currentStep);
  t.same(infos, [
    step(['StartApplication', '/g/cache'], ['StartApplication', '/g/db'], ['StartApplication', '/g/service']),
    step(['ScaleApplication', '/g/cache'], ['ScaleApplication', '/g/db']),
    step(['ScaleApplication', '/g/service']),
  ]);
  h.run(h.offer(makeOffer()));
  t.match(h.events('deployment_success'), [{ id }]);
  t.same(running(h), []);
});

// A step is done when all of its actions are done at once. The executor asks the action that held
// the step last time first (deployment-manager.ts `stepDone`); an action done before may have
// become not done meanwhile, and then the step must still wait for it.
t.test('a step waits for all of its actions at once: an action done earlier that is no longer done holds it again', async (t) => {
  const h = new Harness();
  const hc = makeHealthCheck({ gracePeriodMs: 0, intervalMs: 10_000, maxConsecutiveFailures: 0 });
  const apps = ['/g/a', '/g/b', '/g/c'].map((id) => makeApp({ id, hostPorts: [0], healthChecks: [hc], version: V2 }));
  const id = accepted(t, h.deployRoot(rootWith(h.scheduler.root(), V2, ...apps)));
  const first = h.offer(makeOffer());
  t.equal(first.length, 3, 'one instance of each app launched');
  h.run(first);
  const of = (runSpecId: string): TaskLaunch => first.find((l) => l.runSpecId === runSpecId) as TaskLaunch;
  h.probeInstance(of('/g/a').instanceId, { httpStatus: 200 });
  h.probeInstance(of('/g/c').instanceId, { httpStatus: 200 });
  const doneOf = (): boolean[] => h.scheduler.deployments()[0]?.actions.map((a) => a.done) ?? [];
  t.same(doneOf(), [true, false, true], 'a and c healthy, b not: b holds the step');
  h.status(of('/g/a').taskId, 'TASK_FAILED');
  t.same(doneOf(), [false, false, true], 'a failed: a and b hold it');
  h.probeInstance(of('/g/b').instanceId, { httpStatus: 200 });
  t.same(doneOf(), [false, true, true], 'b healthy now');
  t.same(h.events('deployment_success'), [], 'but a is not: the step still waits');
  t.same(running(h), [id]);
  h.advance(600_000);
  const again = h.offer(makeOffer());
  t.same(again.map((l) => l.runSpecId), ['/g/a'], 'a relaunched');
  h.run(again);
  t.same(h.events('deployment_success'), [], 'a running, not healthy yet: still waiting');
  h.probeInstance(again[0]?.instanceId ?? '', { httpStatus: 200 });
  t.match(h.events('deployment_success'), [{ id }], 'all three healthy at once: done');
  t.same(running(h), []);
});

// ── regressions of known core defects ────────────────────────────────────────────────────────────
//
// Each test below reproduced a defect (the comment above it says what was wrong); all are fixed,
// and the assertions hold. A change that brings one back fails here.

// Was: action-status counted only instances whose runSpecVersion equalled the spec's version; a
// scale moves the version, so an instance started before the scale counted as toReplace forever,
// the ScaleApplication never ended and the app stayed locked. Instances are now counted by config
// generation (`lastConfigChangeAt`, which a scale keeps), as Marathon's ScaleApplication counts
// the app's launched instances whatever their version.
const scales: readonly { readonly name: string; readonly from: number; readonly to: number }[] = [
  { name: 'up by one', from: 1, to: 2 },
  { name: 'up by two', from: 1, to: 3 },
  { name: 'down by two', from: 3, to: 1 },
  { name: 'down by one', from: 3, to: 2 },
  { name: 'down to zero', from: 2, to: 0 },
];
for (const row of scales) {
  t.test(`a scale of a running app completes once its count runs (${row.name}: ${row.from} → ${row.to})`, async (t) => {
    const h = new Harness();
    h.deploy(makeApp({ instances: row.from }));
    t.same(h.conditions('/app'), Array(row.from).fill('Running'), 'deployed');
    h.advance(1000);
    const id = accepted(t, h.scale('/app', row.to));
    const waiting = h.scheduler.deployments().flatMap((d) => d.actions.map((a) => a.waitingFor));
    // Only the surplus of a scale-down is to go; an instance started before the scale is not.
    t.same(waiting.map((w) => w.toReplace), [Math.max(0, row.from - row.to)], 'to replace: the surplus only');
    h.run(h.offer(makeOffer()));
    confirmKills(h, new Set());
    t.same(h.conditions('/app'), Array(row.to).fill('Running'));
    t.same(running(h), [], 'no deployment left');
    t.match(h.events('deployment_success').at(-1), { id }, 'deployment_success');
    t.match(h.scale('/app', row.to + 1), { ok: true }, '/app is not held any more');
  });
}

t.test('a config change, unlike a scale, counts every instance of the old config as to replace', async (t) => {
  const { h, old, deploymentId } = rolling({ minimumHealthCapacity: 1, maximumOverCapacity: 1 }, 2);
  t.equal(old.length, 2);
  t.same(running(h), [deploymentId]);
  t.match(h.scheduler.deployments()[0]?.actions[0]?.waitingFor, { toReplace: 2 }, 'both v1 instances are to replace');
});

// Was: applyStart reused the dying run spec's state and skipped emitHealthCheckChanges, so the
// delete's remove_health_check_event was never followed by add_health_check_event.
t.test('re-creating an app while its delete is under way announces its health checks again', async (t) => {
  const h = new Harness();
  const hc = makeHealthCheck({ path: '/a' });
  const app = makeApp({ hostPorts: [0], healthChecks: [hc] });
  h.deploy(app);
  h.clearRecords();
  accepted(t, h.delete('/app'));
  t.match(h.events('remove_health_check_event'), [{ appId: '/app', healthCheck: hc }]);
  t.same(h.events('add_health_check_event'), [], 'nothing added by the delete');
  accepted(t, h.put(app, { force: true }));
  // The re-created app is stamped after the delete's root version (versionAfter), not with its old one.
  const recreated = h.scheduler.runSpec('/app')?.version;
  t.ok(recreated !== undefined && recreated > app.version, 'the re-created app has a version after its old one');
  t.match(h.events('add_health_check_event'), [{ appId: '/app', version: recreated, healthCheck: hc }], 'the checks come back with the app');
});

// Was: the group of group_change_success was derived from the plan's affected run specs, which a
// zero-change put has none of, so it said "/"; and a plan touching one group named that group
// whatever the command addressed. Now each command names the group it addressed, as Marathon's
// `GroupManager.updateRoot(id, …)` does (fact 107; src/scheduler/groups/changed-group-id.ts).
interface GroupIdRow {
  readonly name: string;
  /** Runs before the records are cleared (a change to undo, a deployment to cancel). */
  readonly before?: (h: Harness) => void;
  readonly act: (h: Harness) => CommandResult | undefined;
  readonly groupId: string;
}
const LATER = versionAt(120);
const groupIdRows: readonly GroupIdRow[] = [
  { name: 'a new app names its parent group', act: (h) => h.put(makeApp({ id: '/prod/api' })), groupId: '/prod' },
  { name: 'an unchanged put (a plan without steps) names it too', act: (h) => h.put(makeApp({ id: '/prod/web' })), groupId: '/prod' },
  { name: 'an update', act: (h) => h.put(makeApp({ id: '/prod/web', cmd: 'v2', version: LATER })), groupId: '/prod' },
  { name: 'a top-level app names /', act: (h) => h.put(makeApp({ id: '/solo' })), groupId: '/' },
  { name: 'a scale', act: (h) => h.scale('/prod/web', 2), groupId: '/prod' },
  { name: 'a restart', act: (h) => h.handle({ type: 'restart', runSpecId: '/prod/web' }), groupId: '/prod' },
  { name: 'a delete', act: (h) => h.delete('/prod/web'), groupId: '/prod' },
  { name: 'a nested app names its own parent', act: (h) => h.put(makeApp({ id: '/prod/back/db' })), groupId: '/prod/back' },
  { name: 'kill-and-scale of one app changes the root (Marathon TaskKiller.killAndScale)', act: (h) => h.kill('/prod/web', [h.instances('/prod/web')[0]?.instanceId ?? '?'], { scale: true }), groupId: '/' },
  {
    name: 'kill-and-scale across apps (POST /v2/tasks/delete?scale=true)',
    act: (h) => h.handle({ type: 'killAndScale', targets: [{ runSpecId: '/prod/web', instanceIds: [h.instances('/prod/web')[0]?.instanceId ?? '?'] }] }),
    groupId: '/',
  },
  { name: 'a bulk app update (PUT /v2/apps) changes the root', act: (h) => h.handle({ type: 'changeRoot', change: { kind: 'putRunSpecs', specs: [makeApp({ id: '/prod/web', instances: 2 })] } }), groupId: '/' },
  { name: 'a group update names the group\'s parent', act: (h) => h.handle({ type: 'changeRoot', change: { kind: 'updateGroup', update: { id: '/prod/back', apps: [makeApp({ id: '/prod/back/db' })] } } }), groupId: '/prod' },
  { name: 'a group scale', act: (h) => h.handle({ type: 'changeRoot', change: { kind: 'scaleGroup', groupId: '/prod', factor: 2 } }), groupId: '/' },
  { name: 'a group removal', act: (h) => h.handle({ type: 'changeRoot', change: { kind: 'removeGroup', groupId: '/prod' } }), groupId: '/' },
  { name: 'the root\'s removal', act: (h) => h.handle({ type: 'changeRoot', change: { kind: 'removeGroup', groupId: '/' } }), groupId: '/' },
  {
    name: 'a group revert',
    before: (h) => h.put(makeApp({ id: '/prod/web', cmd: 'v2', version: LATER }), { force: true }),
    act: (h) => h.handle({ type: 'changeRoot', change: { kind: 'revertGroup', groupId: '/prod', version: h.scheduler.versions('/prod/web').at(-1) ?? '?' }, force: true }),
    groupId: '/',
  },
  { name: 'a root replaced at once', act: (h) => h.deployRoot(rootWith(h.scheduler.root(), LATER, makeApp({ id: '/prod/web', instances: 2, version: LATER }))), groupId: '/' },
  {
    name: 'the rollback of a canceled deployment changes the root',
    before: (h) => h.put(makeApp({ id: '/prod/web', cpus: 100, version: LATER })),
    act: (h) => h.cancelDeployment(running(h)[0] ?? '?'),
    groupId: '/',
  },
];
for (const row of groupIdRows) {
  t.test(`group_change_success names the group the command addressed (fact 107): ${row.name}`, async (t) => {
    const h = new Harness();
    h.deploy(makeApp({ id: '/prod/web' }));
    t.match(h.events('group_change_success'), [{ groupId: '/prod' }], 'the creation names /prod');
    row.before?.(h);
    h.clearRecords();
    t.match(row.act(h), { ok: true });
    t.match(h.events('group_change_success'), [{ groupId: row.groupId, version: h.scheduler.root().version }]);
  });
}

t.test('group_change_failed of a refused change names the group the command addressed as well', async (t) => {
  const h = new Harness();
  h.put(makeApp({ id: '/prod/web', cpus: 100 }));
  t.match(h.put(makeApp({ id: '/prod/web', cpus: 100, instances: 2, version: V2 })), { ok: false, error: 'locked' });
  t.match(h.events('group_change_failed'), [{ groupId: '/prod', reason: /locked by one or more deployments/ }]);
});

// Was: kill-and-scale killed first and then deployed with force=true, silently canceling a running
// deployment (a rolling restart left half-done). Marathon's `force` defaults to false for
// `DELETE /v2/apps/{id}/tasks?scale=true` and `POST /v2/tasks/delete?scale=true`: a held app is
// refused as locked (409 with the deployments, fact 48) before anything is killed; with force the
// held deployment is canceled, as every forced change does. A kill without scale changes no
// definition and is never locked.
interface KillRow {
  readonly name: string;
  readonly act: (h: Harness, victim: string) => CommandResult | undefined;
  readonly locked: boolean;
  readonly canceled: boolean;
}
const killRows: readonly KillRow[] = [
  { name: 'kill-and-scale of one app', act: (h, v) => h.kill('/app', [v], { scale: true }), locked: true, canceled: false },
  { name: 'kill-and-scale across apps', act: (h, v) => h.handle({ type: 'killAndScale', targets: [{ runSpecId: '/app', instanceIds: [v] }] }), locked: true, canceled: false },
  { name: 'forced kill-and-scale of one app', act: (h, v) => h.kill('/app', [v], { scale: true, force: true }), locked: false, canceled: true },
  { name: 'forced kill-and-scale across apps', act: (h, v) => h.handle({ type: 'killAndScale', targets: [{ runSpecId: '/app', instanceIds: [v] }], force: true }), locked: false, canceled: true },
  { name: 'a kill without scale', act: (h, v) => h.kill('/app', [v]), locked: false, canceled: false },
  { name: 'a kill with wipe', act: (h, v) => h.kill('/app', [v], { wipe: true }), locked: false, canceled: false },
];
for (const row of killRows) {
  t.test(`during a rolling restart: ${row.name} ${row.locked ? 'is refused as locked' : 'is accepted'}`, async (t) => {
    const { h, old, deploymentId } = rolling({ minimumHealthCapacity: 1, maximumOverCapacity: 1 }, 3);
    const victim = h.instances('/app').find((i) => i.tasks.some((task) => task.taskId === old[0].taskId))?.instanceId ?? '?';
    const result = row.act(h, victim);
    if (row.locked) {
      t.match(result, { ok: false, error: 'locked', deployments: [deploymentId] }, 'refused as locked, naming the rolling restart');
      t.same(kills(h), [], 'nothing killed');
    } else {
      t.match(result, { ok: true });
      t.same(kills(h), [old[0].taskId], 'the instance is killed');
    }
    const failed = h.events('deployment_failed').map((e) => e.id);
    t.equal(failed.includes(deploymentId), row.canceled, row.canceled ? 'the rolling restart is canceled' : 'nothing canceled');
    // A refused kill-and-scale fails its own plan, as any change refused for a lock (fact 7).
    t.equal(failed.filter((id) => id !== deploymentId).length, row.locked ? 1 : 0, row.locked ? 'the refused plan is reported failed' : 'no other plan fails');
    t.equal(running(h).includes(deploymentId), !row.canceled, row.canceled ? 'the restart is gone' : 'the rolling restart goes on');
  });
}

// Was: a deployment stopped before its run spec's scale step ran (here by a forced change of its
// dependency) left the run spec at 0 instances while the root says 2, with no deployment to get
// there and nothing that checks: Marathon's periodic scale check (`--scale_apps_interval`) scales
// such a run spec to the root's count. pacer checks when the deployment stops, the one moment the
// run spec and the root can part without a deployment holding it.
interface StopRow {
  readonly name: string;
  /** The dependency's cpus: 100 fits no offer, so the deployment waits on it. */
  readonly dbCpus: number;
  readonly stop: (h: Harness, deploymentId: string) => CommandResult;
}
const stops: readonly StopRow[] = [
  { name: 'a forced change of its dependency', dbCpus: 100, stop: (h) => h.put(makeApp({ id: '/g/db', cpus: 1, version: versionAt(120) }), { force: true }) },
  { name: 'a forced cancel (no rollback)', dbCpus: 100, stop: (h, id) => h.cancelDeployment(id, { force: true }) },
];
for (const row of stops) {
  t.test(`after ${row.name}, a run spec whose scale step never ran still reaches the count the root holds`, async (t) => {
    const h = new Harness();
    const db = makeApp({ id: '/g/db', cpus: row.dbCpus, version: V2 });
    const service = makeApp({ id: '/g/service', instances: 2, dependencies: ['/g/db'], version: V2 });
    const id = accepted(t, h.deployRoot(rootWith(h.scheduler.root(), V2, db, service)));
    t.equal(h.scheduler.runSpec('/g/service')?.instances, 0, 'started with 0 instances');
    h.advance(1000);
    t.match(row.stop(h, id), { ok: true });
    t.match(h.events('deployment_failed'), [{ id }], 'the deployment stopped');
    t.equal(h.scheduler.root().groups.get('/g')?.apps.get('/g/service')?.instances, 2, 'the root says 2');
    t.equal(h.scheduler.runSpec('/g/service')?.instances, 2, 'the run spec agrees');
    t.equal(h.instances('/g/service').length, 2, 'and its instances are scheduled');
    h.run(h.offer(makeOffer()));
    t.same(running(h), []);
    t.same(h.conditions('/g/service'), ['Running', 'Running'], 'they run');
  });
}

// ── versions and pod queries (spec section 1, rules 12 and 13) ───────────────────────────────────

t.test('every accepted change stores the run spec version; history survives delete and re-create', async (t) => {
  const h = new Harness();
  accepted(t, h.put(makePod({ id: '/pods/p', version: versionAt(0) })));
  h.advance(1000);
  accepted(t, h.put(makePod({ id: '/pods/p', instances: 2, version: versionAt(1) }), { force: true }));
  t.same(h.scheduler.versions('/pods/p'), [versionAt(1), versionAt(0)], 'newest first');
  t.equal(h.scheduler.runSpecVersion('/pods/p', versionAt(0))?.instances, 1);
  accepted(t, h.delete('/pods/p'));
  accepted(t, h.put(makePod({ id: '/pods/p', version: versionAt(5) }), { force: true }));
  t.same(h.scheduler.versions('/pods/p'), [versionAt(5), versionAt(1), versionAt(0)], 'the re-created pod inherits the history');
});

t.test('a pod update is reported with the previous definition until the redeployment completes (rule 13)', async (t) => {
  const h = new Harness();
  const v1 = makePod({ id: '/pods/p', version: versionAt(0) });
  accepted(t, h.put(v1));
  h.run(h.offer(makeOffer()));
  t.same(running(h), [], 'v1 deployed');
  t.equal(h.scheduler.podForQuery('/pods/p')?.version, versionAt(0));
  const v2 = makePod({ id: '/pods/p', version: versionAt(10), labels: { release: 'two' } });
  accepted(t, h.put(v2));
  t.equal(h.scheduler.podForQuery('/pods/p')?.version, versionAt(0), 'still v1 while the restart runs');
  h.run(h.offer(makeOffer()));
  confirmKills(h, new Set());
  t.same(running(h), [], 'the redeployment completed');
  t.equal(h.scheduler.podForQuery('/pods/p')?.version, versionAt(10), 'now v2');
  t.equal(h.scheduler.podForQuery('/nope'), undefined);
});
