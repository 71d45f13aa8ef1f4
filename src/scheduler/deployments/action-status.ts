import { isTerminalCondition } from '../model/condition';
import type { NoMatchReason } from '../model/no-match-reason';
import type { RunSpecState } from '../state/run-spec-state';
import type { SchedulerState } from '../state/scheduler-state';
import { isActive } from '../instances/instance-tracker';
import { isHealthy, restartDone } from '../instances/converge-restart';
import { isReady } from '../readiness/readiness-checks';
import type { DeploymentAction } from '../model/deployment-plan';

/**
 * Where one action stands, and — when it is not done — what it waits for: instances not yet
 * placed (with the reasons offers were refused), instances not yet running or healthy, old
 * instances still to be replaced. This is the answer to "why is my deployment stuck".
 */
export interface ActionStatus {
  readonly action: DeploymentAction;
  readonly done: boolean;
  readonly waitingFor: {
    /** Instances waiting for an offer (those still to be created included). */
    readonly unplaced: number;
    /** Offer rejections recorded for this run spec, by reason. */
    readonly rejections: Partial<Record<NoMatchReason, number>>;
    /** Placed instances of the target version that are not running and healthy yet. */
    readonly notHealthy: number;
    /** Running, healthy instances of the target version whose readiness check has not passed yet. */
    readonly notReady: number;
    /** Instances of older versions (or beyond the target count) still to go. */
    readonly toReplace: number;
  };
}

/**
 * Whether `action` is done, as {@link actionStatus} says, but without reading every instance while
 * that cannot be: a scale or restart is done only when its target count of instances run (healthy
 * implies Running), so with fewer Running it is not. Deployments check their actions after every
 * input that touched their run specs; during a scale-up of 100,000 instances, reading them all
 * each time made the scale-up quadratic.
 */
export function actionDone(state: SchedulerState, action: DeploymentAction): boolean {
  const rs = state.runSpecs.get(action.runSpecId);
  if (rs !== undefined && action.action !== 'StartApplication' && action.action !== 'StartPod' && rs.runningCount < rs.spec.instances) return false;
  if (rs === undefined) return isStop(action);
  // Only whether it is done: no waitingFor (nor the rejection counts it folds and copies) built.
  const t = tally(rs);
  return isDone(action, rs, t.healthyNew, t.existing);
}

/**
 * Whether a change of this run spec can have made an action of a deployment's current step done:
 * false while the run spec exists with fewer Running instances than its target, because then no
 * action on it is done but a start ({@link actionDone}), and a start is done from its beginning
 * (the deployment checks its step right after beginning it). During a scale-up every input changes
 * the run specs it places instances of; this keeps the deployments from checking their plans after
 * each of those inputs when none of them can have finished.
 */
export function mayHaveFinished(state: SchedulerState, runSpecId: string): boolean {
  const rs = state.runSpecs.get(runSpecId);
  return rs === undefined || rs.runningCount >= rs.spec.instances;
}

/** The status of `action` in the current state. */
export function actionStatus(state: SchedulerState, action: DeploymentAction): ActionStatus {
  const rs = state.runSpecs.get(action.runSpecId);
  if (rs === undefined) return { action, done: isStop(action), waitingFor: NOTHING };
  const { notHealthy, notReady, toReplace, healthyNew, existing } = tally(rs);
  const waitingFor = { unplaced: rs.scheduled.length + rs.toCreate, rejections: rs.rejections.byReason(), notHealthy, notReady, toReplace };
  return { action, done: isDone(action, rs, healthyNew, existing), waitingFor };
}

/** A run spec's instances counted for its actions' status. */
interface Tally {
  /** Active instances of the current config generation, placed, not running and healthy yet. */
  notHealthy: number;
  /** Active instances of the current generation, running and healthy, not ready yet. */
  notReady: number;
  /** Instances not terminal that are not active ones of the current generation. */
  toReplace: number;
  /** Active instances of the current generation that are running, healthy and ready. */
  healthyNew: number;
  /** Instances not terminal. */
  existing: number;
}

/**
 * Counts the run spec's instances into one shared {@link Tally} (the core is synchronous: each
 * caller reads it before the next count; no object per count, and deployments count after
 * every input that changed their run specs).
 */
function tally(rs: RunSpecState): Tally {
  // The current config generation (a scale-only version keeps lastConfigChangeAt).
  const generation = rs.spec.versionInfo.lastConfigChangeAt;
  let notHealthy = 0;
  let notReady = 0;
  let toReplace = 0;
  let healthyNew = 0;
  let existing = 0;
  for (const inst of rs.instances.values()) {
    if (!isTerminalCondition(inst.condition)) existing++;
    if (isActive(inst) && inst.configVersion === generation) {
      if (!isHealthy(rs, inst)) {
        if (inst.condition !== 'Scheduled') notHealthy++;
      } else if (isReady(rs, inst)) healthyNew++;
      else notReady++;
    } else if (!isTerminalCondition(inst.condition)) toReplace++;
  }
  const t = TALLY;
  t.notHealthy = notHealthy;
  t.notReady = notReady;
  t.toReplace = toReplace;
  t.healthyNew = healthyNew;
  t.existing = existing;
  return t;
}

const TALLY: Tally = { notHealthy: 0, notReady: 0, toReplace: 0, healthyNew: 0, existing: 0 };

function isDone(action: DeploymentAction, rs: RunSpecState, healthyNew: number, existing: number): boolean {
  switch (action.action) {
    case 'StartApplication':
    case 'StartPod':
      return true;
    case 'StopApplication':
    case 'StopPod':
      return false;
    case 'RestartApplication':
    case 'RestartPod':
      return rs.restart === undefined ? healthyNew === rs.spec.instances && existing === rs.spec.instances : restartDone(rs);
    case 'ScaleApplication':
    case 'ScalePod':
      return healthyNew === rs.spec.instances && existing === rs.spec.instances;
  }
}

function isStop(action: DeploymentAction): boolean {
  return action.action === 'StopApplication' || action.action === 'StopPod';
}

const NOTHING = { unplaced: 0, rejections: {}, notHealthy: 0, notReady: 0, toReplace: 0 };
