import type { Group } from '../groups/group';
import { findRunSpec } from '../groups/tree-query';
import { assert } from '../kernel/assert';
import type { RunSpec } from '../model/run-spec';
import { dependencyLayers } from './dependency-layers';
import type { DeploymentAction, DeploymentActionName, DeploymentPlan, DeploymentStep } from '../model/deployment-plan';
import { planChange } from './plan-change';
import { runSpecDiff } from './run-spec-diff';

/** Inputs of {@link computePlan} that are not the two roots. */
export interface ComputePlanOptions {
  /** The deployment id (drawn from the Random port by the caller). */
  readonly id: string;
  /** The plan version: the target root's version (Marathon stamps both with the same time). */
  readonly version: string;
  /**
   * Direct dependencies of a run spec in `root` (its own, plus those inherited from its groups),
   * as run spec ids: a dependency on a group stands for every run spec below that group. Ids that
   * are not run specs of `root` are ignored, as Marathon's dependency graph has no such vertex.
   */
  readonly dependenciesOf: (runSpecId: string, root: Group) => readonly string[];
}

/**
 * The plan that turns `original` into `target` (Marathon's `DeploymentPlan.apply`). Steps run one
 * after another; the actions of a step run in parallel:
 *
 * 1. `StopApplication`/`StopPod` for every run spec missing from the target — all in this one
 *    step, with no dependency order (Marathon does the same);
 * 2. `StartApplication`/`StartPod` for every run spec new in the target (started with 0
 *    instances: a no-op kept for compatibility);
 * 3. one step per dependency layer of the target (longest dependency path, dependencies first,
 *    see {@link dependencyLayers}) with `Scale…` (new run spec, scale-only change, or scaled to 0)
 *    or `Restart…` (any other change) — see {@link planChange}. Unchanged run specs get no action.
 *
 * Empty steps are dropped (an unchanged target gives a zero-step plan); actions inside a step are
 * sorted by run spec id. `affectedRunSpecIds` lists every run spec with an action, sorted.
 * Synchronous and deterministic: the same inputs always give the same plan. Only the run specs the
 * change touched are read ({@link runSpecDiff}): unchanged ones would get no action.
 */
export function computePlan(original: Group, target: Group, opts: ComputePlanOptions): DeploymentPlan {
  if (opts.version !== target.version) assert(false, `plan version ${opts.version} must be the target root's version ${target.version}`);
  const diff = runSpecDiff(original, target);
  const stops = diff.removed.map((spec) => actionFor(spec, 'Stop'));

  const starts: DeploymentAction[] = [];
  const changes = new Map<string, DeploymentAction>();
  for (const { before, after: spec } of diff.changed) {
    const change = planChange(before, spec);
    if (change === 'new') starts.push(actionFor(spec, 'Start'));
    if (change === 'new' || change === 'scale') changes.set(spec.id, actionFor(spec, 'Scale'));
    else if (change === 'restart') changes.set(spec.id, actionFor(spec, 'Restart'));
  }

  const dependenciesOf = (runSpecId: string): readonly string[] =>
    opts.dependenciesOf(runSpecId, target).filter((id) => findRunSpec(target, id) !== undefined);
  const layers = dependencyLayers([...changes.keys()], dependenciesOf).map((layer): DeploymentStep => ({
    actions: layer.map((id) => changes.get(id)).filter((a): a is DeploymentAction => a !== undefined),
  }));

  const steps = [{ actions: stops }, { actions: starts }, ...layers].filter((step) => step.actions.length > 0);
  const affected = new Set<string>();
  for (const step of steps) for (const action of step.actions) affected.add(action.runSpecId);
  return {
    id: opts.id,
    originalVersion: original.version,
    targetVersion: opts.version,
    steps,
    affectedRunSpecIds: [...affected].sort(),
  };
}

type Verb = 'Start' | 'Stop' | 'Scale' | 'Restart';

const ACTION_NAMES: Readonly<Record<RunSpec['kind'], Readonly<Record<Verb, DeploymentActionName>>>> = {
  app: { Start: 'StartApplication', Stop: 'StopApplication', Scale: 'ScaleApplication', Restart: 'RestartApplication' },
  pod: { Start: 'StartPod', Stop: 'StopPod', Scale: 'ScalePod', Restart: 'RestartPod' },
};

function actionFor(spec: RunSpec, verb: Verb): DeploymentAction {
  return { action: ACTION_NAMES[spec.kind][verb], runSpecId: spec.id, kind: spec.kind };
}
