import type { Group } from '../groups/group';
import { assert } from '../kernel/assert';
import type { CurrentStepJson, FullPlan, LightPlanJson } from '../model/events';
import type { DeploymentAction, DeploymentActionName, DeploymentPlan, DeploymentStep } from '../model/deployment-plan';

/** One action on the wire: the run spec id under `app` or `pod` (never both). */
export type ActionJson =
  | { readonly action: DeploymentActionName; readonly app: string }
  | { readonly action: DeploymentActionName; readonly pod: string };

/** A step on the wire (also the `currentStep` of deployment events). */
export interface StepJson extends CurrentStepJson {
  readonly actions: readonly ActionJson[];
}

/** A current action in `/v2/deployments`, with the readiness results of its run spec. */
export type ActionInfoJson = ActionJson & { readonly readinessCheckResults: readonly unknown[] };

/** One item of `GET /v2/deployments` (Marathon's DeploymentStepInfo; fact 59). */
export interface DeploymentStepInfoJson {
  readonly id: string;
  readonly version: string;
  readonly affectedApps: readonly string[];
  readonly affectedPods: readonly string[];
  readonly steps: readonly StepJson[];
  readonly currentActions: readonly ActionInfoJson[];
  readonly currentStep: number;
  readonly totalSteps: number;
}

/** `{action, app}` for apps, `{action, pod}` for pods. */
export function actionJson(action: DeploymentAction): ActionJson {
  return action.kind === 'app'
    ? { action: action.action, app: action.runSpecId }
    : { action: action.action, pod: action.runSpecId };
}

/** `{actions: [{action, app|pod}]}`: a step, and the `currentStep` of deployment events. */
export function currentStepJson(step: DeploymentStep): StepJson {
  return { actions: step.actions.map(actionJson) };
}

/**
 * The `currentStep` of deployment events: each action as {@link actionJson} writes it plus `type`
 * (the same action name): Marathon 1.11 writes `action`, spec section 6 names it `type`, so both
 * kinds of consumer find it.
 */
export function eventStepJson(step: DeploymentStep): CurrentStepJson {
  return { actions: step.actions.map((a) => ({ ...actionJson(a), type: a.action })) };
}

/**
 * The full plan of `deployment_info` and the step events: the light plan and the roots the plan
 * was computed from (checked by version), which the wire renders (see {@link FullPlan}).
 */
export function fullPlan(plan: DeploymentPlan, original: Group, target: Group): FullPlan {
  if (original.version !== plan.originalVersion) assert(false, `plan ${plan.id}: original root ${original.version} is not ${plan.originalVersion}`);
  if (target.version !== plan.targetVersion) assert(false, `plan ${plan.id}: target root ${target.version} is not ${plan.targetVersion}`);
  return { ...lightPlanJson(plan), original, target };
}

/** The "light" plan `{id, steps, version}` of `deployment_success` / `deployment_failed` (fact 106). */
export function lightPlanJson(plan: DeploymentPlan): LightPlanJson & { readonly steps: readonly StepJson[] } {
  return { id: plan.id, steps: plan.steps.map(currentStepJson), version: plan.targetVersion };
}

/**
 * One `GET /v2/deployments` item (fact 59): `{id, version, affectedApps, affectedPods, steps,
 * currentActions: [{action, app|pod, readinessCheckResults}], currentStep, totalSteps}`.
 * `currentStep` is 1-based, 0 before the first step has started (then `currentActions` is empty).
 * `readinessOf(runSpecId)` gives the readiness check results of a current action's run spec
 * (none by default). Affected ids are sorted.
 */
export function deploymentStepInfoJson(
  plan: DeploymentPlan,
  currentStep: number,
  readinessOf: (runSpecId: string) => readonly unknown[] = () => [],
): DeploymentStepInfoJson {
  if (!(Number.isInteger(currentStep) && currentStep >= 0 && currentStep <= plan.steps.length)) {
    assert(false, `plan ${plan.id}: current step ${currentStep} is outside 0..${plan.steps.length}`);
  }
  const affectedApps = new Set<string>();
  const affectedPods = new Set<string>();
  for (const step of plan.steps) {
    for (const action of step.actions) (action.kind === 'app' ? affectedApps : affectedPods).add(action.runSpecId);
  }
  const current = currentStep === 0 ? [] : plan.steps[currentStep - 1].actions;
  return {
    id: plan.id,
    version: plan.targetVersion,
    affectedApps: [...affectedApps].sort(),
    affectedPods: [...affectedPods].sort(),
    steps: plan.steps.map(currentStepJson),
    currentActions: current.map((action) => ({ ...actionJson(action), readinessCheckResults: readinessOf(action.runSpecId) })),
    currentStep,
    totalSteps: plan.steps.length,
  };
}
