/** Marathon's deployment action names (apps; pods use the …Pod forms). */
export type DeploymentActionName =
  | 'StartApplication' | 'StopApplication' | 'ScaleApplication' | 'RestartApplication'
  | 'StartPod' | 'StopPod' | 'ScalePod' | 'RestartPod';

/** One action of a step: what happens to one run spec. */
export interface DeploymentAction {
  readonly action: DeploymentActionName;
  readonly runSpecId: string;
  readonly kind: 'app' | 'pod';
}

/** Actions of one step run in parallel; steps run one after another. */
export interface DeploymentStep {
  readonly actions: readonly DeploymentAction[];
}

/**
 * A plan from the original root group to the target (Marathon's DeploymentPlan): an id, both
 * roots' versions, and ordered steps. `affectedRunSpecIds` are the run specs it changes (for
 * locking).
 */
export interface DeploymentPlan {
  readonly id: string;
  readonly originalVersion: string;
  readonly targetVersion: string;
  readonly steps: readonly DeploymentStep[];
  readonly affectedRunSpecIds: readonly string[];
}
