import type { Group } from '../groups/group';
import type { DeploymentPlan } from './deployment-plan';

/** A running deployment: its plan, the roots it goes between, and how far it got. */
export interface Deployment {
  readonly plan: DeploymentPlan;
  readonly original: Group;
  readonly target: Group;
  /** Index of the step being executed. */
  stepIndex: number;
  readonly startedAtMs: number;
}
