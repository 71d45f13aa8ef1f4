import type { ApiDeps } from '../api-deps';
import { readinessResultJson } from './readiness-result-json';
import { deploymentStepInfoJson, type ActionStatus, type ActionInfoJson, type DeploymentStepInfoJson } from '../../scheduler/index';
import type { Deployment } from '../../scheduler/model/deployment';

/** Options of {@link deploymentsJson}. */
export interface DeploymentsJsonOptions {
  /** `embed=waitingFor`: add pacer's "why it waits" to every current action (off by default). */
  readonly waitingFor?: boolean;
}

/** A current action with pacer's `waitingFor` (only with `embed=waitingFor`). */
export type ActionWithWaitingJson = ActionInfoJson & { readonly waitingFor: Readonly<Record<string, unknown>> };

/**
 * The body of `GET /v2/deployments`: one Marathon DeploymentStepInfo per running deployment, in the
 * order they started (fact 59): `{id, version, affectedApps, affectedPods, steps, currentActions,
 * currentStep, totalSteps}` and nothing else by default. Each current action's
 * `readinessCheckResults` are the core's readiness results of its run spec (`[]` without a
 * readiness check, and always for pods).
 *
 * With `waitingFor`, each current action also carries `waitingFor`: what the core's ActionStatus
 * says it still waits for (`unplaced` instances, offer `rejections` by reason, `notHealthy` and
 * `notReady` instances of the new version, old instances `toReplace`; every field the core
 * reports, under its name), or `{}` when the action is done and only its step's other actions
 * are pending. This answers "why is my deployment stuck" (the top user complaint of
 * marathon-reference.md) without changing Marathon's default shape.
 */
export function deploymentsJson(deps: ApiDeps, options: DeploymentsJsonOptions = {}): DeploymentStepInfoJson[] {
  const readinessOf = (runSpecId: string): readonly unknown[] => deps.scheduler.readiness(runSpecId).map(readinessResultJson);
  return deps.scheduler.deployments().map(({ deployment, actions }) => deploymentJson(deployment, actions, readinessOf, options));
}

/** One deployment as `GET /v2/deployments` lists it; `readinessOf` gives a run spec's readiness results. */
export function deploymentJson(
  deployment: Deployment, actions: readonly ActionStatus[], readinessOf: (runSpecId: string) => readonly unknown[], options: DeploymentsJsonOptions = {},
): DeploymentStepInfoJson {
  // currentStep is 1-based (fact 59); a running deployment is always inside its plan.
  const currentStep = Math.min(Math.max(deployment.stepIndex + 1, 0), deployment.plan.steps.length);
  const info = deploymentStepInfoJson(deployment.plan, currentStep, readinessOf);
  if (options.waitingFor !== true) return info;
  const byRunSpec = new Map(actions.map((s) => [s.action.runSpecId, s] as const));
  const currentActions = info.currentActions.map((a): ActionWithWaitingJson => {
    const status = byRunSpec.get('app' in a ? a.app : a.pod);
    return { ...a, waitingFor: status === undefined || status.done ? {} : { ...status.waitingFor } };
  });
  return { ...info, currentActions };
}
