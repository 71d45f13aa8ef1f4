import t from 'tap';
import { computePlan } from '../../../../src/scheduler/deployments/compute-plan';
import type { DeploymentPlan } from '../../../../src/scheduler/model/deployment-plan';
import {
  actionJson, currentStepJson, deploymentStepInfoJson, eventStepJson, fullPlan, lightPlanJson,
} from '../../../../src/scheduler/deployments/plan-json';
import type { Group } from '../../../../src/scheduler/groups/group';
import type { DeploymentFailedEvent, DeploymentInfoEvent, DeploymentSuccessEvent } from '../../../../src/scheduler/model/events';
import type { AppSpec } from '../../../../src/scheduler/model/app';
import type { PodSpec } from '../../../../src/scheduler/model/pod';
import { makeApp, makePod, versionAt } from '../../../builders/run-spec-builders';

const V1 = versionAt(100);
const V2 = versionAt(200);

function group(id: string, parts: { apps?: AppSpec[]; pods?: PodSpec[]; groups?: Group[]; dependencies?: string[] }, version: string): Group {
  const byId = <T extends { readonly id: string }>(items: readonly T[] = []): Map<string, T> => new Map(items.map((i) => [i.id, i]));
  return {
    id, apps: byId(parts.apps), pods: byId(parts.pods), groups: byId(parts.groups),
    dependencies: parts.dependencies ?? [], enforceRole: false, version,
  };
}

const noDependencies = (): readonly string[] => [];

/** A plan with two steps: start /g/web and /g/db-pod, then scale both; /old is stopped first. */
function fixture(): { original: Group; target: Group; plan: DeploymentPlan } {
  const old = makeApp({ id: '/old', version: V1 });
  const web = makeApp({ id: '/g/web', version: V2 });
  const pod = makePod({ id: '/g/db-pod', version: V2 });
  const original = group('/', { apps: [old] }, V1);
  const target = group('/', { groups: [group('/g', { apps: [web], pods: [pod], dependencies: ['/x'] }, V2)] }, V2);
  const plan = computePlan(original, target, { id: 'dep-1', version: V2, dependenciesOf: noDependencies });
  return { original, target, plan };
}

/** Keys of an object, sorted: JSON shapes are compared as key sets plus values. */
function keys(o: object): string[] {
  return Object.keys(o).sort();
}

t.test('actions: {action, app} or {action, pod}, never both', async (t) => {
  t.strictSame(actionJson({ action: 'ScaleApplication', runSpecId: '/foo', kind: 'app' }), { action: 'ScaleApplication', app: '/foo' });
  t.strictSame(actionJson({ action: 'RestartPod', runSpecId: '/p', kind: 'pod' }), { action: 'RestartPod', pod: '/p' });
  t.strictSame(currentStepJson({ actions: [{ action: 'StopPod', runSpecId: '/p', kind: 'pod' }] }), { actions: [{ action: 'StopPod', pod: '/p' }] });
});

t.test('light plan of deployment_success / deployment_failed: {id, steps, version} only (facts 106, 107)', async (t) => {
  const { plan } = fixture();
  const light = lightPlanJson(plan);
  t.strictSame(light, {
    id: 'dep-1',
    steps: [
      { actions: [{ action: 'StopApplication', app: '/old' }] },
      { actions: [{ action: 'StartPod', pod: '/g/db-pod' }, { action: 'StartApplication', app: '/g/web' }] },
      { actions: [{ action: 'ScalePod', pod: '/g/db-pod' }, { action: 'ScaleApplication', app: '/g/web' }] },
    ],
    version: V2,
  });
  t.notOk('original' in light || 'target' in light, 'no roots in the final events');
  // The shapes plug straight into the event contracts of fact 107.
  const success: DeploymentSuccessEvent = { eventType: 'deployment_success', timestamp: V2, id: plan.id, plan: light };
  const failed: DeploymentFailedEvent = { eventType: 'deployment_failed', timestamp: V2, id: plan.id, plan: light, reason: 'canceled' };
  t.same(keys(success), ['eventType', 'id', 'plan', 'timestamp']);
  t.same(keys(failed), ['eventType', 'id', 'plan', 'reason', 'timestamp']);
});

t.test('deployment_info and step events: the full plan (the light plan and both roots) and a currentStep naming each action as action and type (spec 6)', async (t) => {
  const { original, target, plan } = fixture();
  const full = fullPlan(plan, original, target);
  const info: DeploymentInfoEvent = { eventType: 'deployment_info', timestamp: V2, plan: full, currentStep: eventStepJson(plan.steps[1]) };
  t.same(keys(info), ['currentStep', 'eventType', 'plan', 'timestamp']);
  t.same(keys(full), ['id', 'original', 'steps', 'target', 'version']);
  t.strictSame({ id: full.id, steps: full.steps, version: full.version }, lightPlanJson(plan), 'the light plan');
  t.equal(full.version, V2, 'the plan version is the target root version (fact 61)');
  t.equal(full.original, original, 'the roots themselves: the wire renders them (src/api/events/wire-event-json.ts)');
  t.equal(full.target, target);
  t.strictSame(info.currentStep, {
    actions: [{ action: 'StartPod', pod: '/g/db-pod', type: 'StartPod' }, { action: 'StartApplication', app: '/g/web', type: 'StartApplication' }],
  });
  t.throws(() => fullPlan(plan, target, target), { name: 'AssertionError' }, 'roots must be the planned ones');
  t.throws(() => fullPlan(plan, original, original), { name: 'AssertionError' });
});

t.test('GET /v2/deployments item (fact 59)', async (t) => {
  const before = makeApp({ id: '/foo', version: V1 });
  const after = makeApp({ id: '/foo', instances: 3, version: V2, versionInfo: { lastScalingAt: V2, lastConfigChangeAt: V1 } });
  const plan = computePlan(group('/', { apps: [before] }, V1), group('/', { apps: [after] }, V2), { id: 'd', version: V2, dependenciesOf: noDependencies });
  t.strictSame(deploymentStepInfoJson(plan, 1), {
    id: 'd',
    version: V2,
    affectedApps: ['/foo'],
    affectedPods: [],
    steps: [{ actions: [{ action: 'ScaleApplication', app: '/foo' }] }],
    currentActions: [{ action: 'ScaleApplication', app: '/foo', readinessCheckResults: [] }],
    currentStep: 1,
    totalSteps: 1,
  });
  const before0 = deploymentStepInfoJson(plan, 0);
  t.equal(before0.currentStep, 0, '0 before the first step starts');
  t.same(before0.currentActions, []);
});

t.test('deployment step info: pods, later steps, readiness results', async (t) => {
  const { plan } = fixture();
  const readiness = { name: 'readinessCheck', taskId: 't1', ready: false, lastResponse: null };
  const info = deploymentStepInfoJson(plan, 3, (id) => (id === '/g/web' ? [readiness] : []));
  t.same(info.affectedApps, ['/g/web', '/old']);
  t.same(info.affectedPods, ['/g/db-pod']);
  t.equal(info.totalSteps, 3);
  t.equal(info.currentStep, 3);
  t.strictSame(info.currentActions, [
    { action: 'ScalePod', pod: '/g/db-pod', readinessCheckResults: [] },
    { action: 'ScaleApplication', app: '/g/web', readinessCheckResults: [readiness] },
  ]);
  t.throws(() => deploymentStepInfoJson(plan, 4), { name: 'AssertionError' });
  t.throws(() => deploymentStepInfoJson(plan, -1), { name: 'AssertionError' });
  t.throws(() => deploymentStepInfoJson(plan, 1.5), { name: 'AssertionError' });
});

t.test('a zero-step plan', async (t) => {
  const root = group('/', { apps: [makeApp({ id: '/a', version: V1 })] }, V1);
  const moved = { ...root, version: V2 };
  const plan = computePlan(root, moved, { id: 'z', version: V2, dependenciesOf: noDependencies });
  t.strictSame(lightPlanJson(plan), { id: 'z', steps: [], version: V2 });
  t.strictSame(deploymentStepInfoJson(plan, 0), {
    id: 'z', version: V2, affectedApps: [], affectedPods: [], steps: [], currentActions: [], currentStep: 0, totalSteps: 0,
  });
});
