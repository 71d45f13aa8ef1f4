import type { DeploymentContext } from './deployment-context';
import { uuidFrom } from '../kernel/ids';
import { isoTime } from '../kernel/iso-time';
import type { Group } from '../groups/group';
import { converge } from '../instances/converge';
import { actionDone, actionStatus, mayHaveFinished, type ActionStatus } from './action-status';
import { applyRestart, applyScale, applyStart } from './apply-actions';
import { applyStop } from './apply-stop';
import type { Deployment } from '../model/deployment';
import type { DeploymentAction, DeploymentPlan, DeploymentStep } from '../model/deployment-plan';
import { eventStepJson, fullPlan, lightPlanJson } from './plan-json';
import type { FullPlan } from '../model/events';
import { findRunSpec } from '../groups/tree-query';
import { CYCLIC_DEPENDENCIES_MESSAGE } from '../groups/dependencies';
import { WHOLE_ROOT_GROUP_ID } from '../groups/changed-group-id';
import { versionAfter } from '../groups/version-after';
import { validateRole } from '../groups/role-rules';
import { sameConfig } from '../model/same-config';
import { dvdiVolumeViolations } from '../groups/dvdi-volume-rules';
import { singleInstanceViolations } from '../groups/single-instance';
import { floorLabelViolations } from '../health/unhealthy-kill-floor';
import { assignServicePorts } from '../groups/service-ports';
import { totalInstances } from '../groups/total-instances';
import { notValid, type ValidationDetail } from '../groups/validation-detail';
import { noteRoleChanges } from '../state/framework-roles';

/** Outcome of accepting a root change. */
export type DeployResult =
  | { readonly ok: true; readonly deploymentId: string; readonly version: string }
  | { readonly ok: false; readonly error: 'locked'; readonly message: string; readonly deployments: readonly string[] }
  | { readonly ok: false; readonly error: 'too-many-deployments' | 'unknown-deployment'; readonly message: string }
  | { readonly ok: false; readonly error: 'invalid'; readonly message: string; readonly details: readonly ValidationDetail[] };

/** Plans a change (original root → target root); injected so the manager stays small. */
export type Planner = (original: Group, target: Group, id: string) => DeploymentPlan;

/**
 * Runs deployments: every change of the root group becomes a plan whose steps run one after
 * another, the actions of a step in parallel. A run spec belongs to at most one running
 * deployment (a conflicting change is refused with the locking deployments unless forced, which
 * stops them); the number of running deployments is capped. Progress is checked after every input
 * for the run specs that changed. Events: group_change_success when a change is accepted,
 * deployment_info when a step starts, deployment_step_success when it ends (both with the full
 * plan), deployment_success at the end; deployment_step_failure and deployment_failed when
 * stopped. deployment_success and deployment_failed keep Marathon's light plan.
 */
export class DeploymentManager {
  readonly running = new Map<string, Deployment>();
  /** The full plan of a deployment, built once for all of its events. */
  private readonly plans = new WeakMap<Deployment, FullPlan>();
  /**
   * The running deployments with an action on each run spec (in any step), and the order each
   * was put into `running` in: {@link progress} looks at the deployments of the changed run specs
   * only, in `running`'s order, instead of at every running deployment after every input.
   */
  private readonly byRunSpec = new Map<string, Set<Deployment>>();
  private readonly runningOrder = new WeakMap<Deployment, number>();
  private runningSeq = 0;
  /** The action of each step that was not done when the step was last checked ({@link stepDone}). */
  private readonly heldBy = new WeakMap<DeploymentStep, number>();

  /** `planner` also plans dry runs (`?dryRun=true`), so they show the plan a change would get. */
  constructor(readonly planner: Planner) {}

  /**
   * `groupId`: the group the command addressed, named by group_change_success and
   * group_change_failed (fact 107; the rule: groups/changed-group-id.ts).
   */
  deploy(ctx: DeploymentContext, target: Group, force: boolean, groupId: string): DeployResult {
    const result = this.tryDeploy(ctx, target, force, groupId);
    if (!result.ok && result.error !== 'unknown-deployment') {
      ctx.bus.emit({ eventType: 'group_change_failed', timestamp: isoTime(ctx.clock.nowMs()), groupId, version: target.version, reason: result.message });
    }
    return result;
  }

  private tryDeploy(ctx: DeploymentContext, requested: Group, force: boolean, groupId: string): DeployResult {
    const refused = this.refusedRoot(ctx, requested);
    if (refused !== undefined) return refused;
    const original = ctx.state.root;
    const ports = withServicePorts(ctx, original, requested);
    if (!ports.ok) return ports;
    const target = ports.root;
    const plan = this.planner(original, target, uuidFrom(ctx.random));
    const roleDetail = roleProblems(ctx, original, target, plan.affectedRunSpecIds, force);
    if (roleDetail !== undefined) return notValid(roleDetail);
    const specDetails = plan.affectedRunSpecIds.flatMap((id) => runSpecViolations(target, id));
    if (specDetails.length > 0) return notValid(...specDetails);
    const conflicts = this.holdingAny(plan.affectedRunSpecIds);
    if (conflicts.length > 0 && !force) {
      const ids = conflicts.map((d) => d.plan.id);
      const message = lockedMessage(ids);
      // Marathon fails the refused plan itself too (fact 7: its scheduler publishes
      // deployment_failed for a plan the deployment manager gave up for conflicts); the plan
      // never runs, so no step event goes with it. deploy() adds group_change_failed after it.
      ctx.bus.emit({ eventType: 'deployment_failed', timestamp: isoTime(ctx.clock.nowMs()), id: plan.id, plan: lightPlanJson(plan), reason: message });
      return { ok: false, error: 'locked', message, deployments: ids };
    }
    if (this.running.size - conflicts.length >= ctx.options.maxRunningDeployments) {
      return { ok: false, error: 'too-many-deployments', message: `Max number of running deployments is sealed: ${ctx.options.maxRunningDeployments}` };
    }
    for (const d of conflicts) this.stop(ctx, d, 'The deployment has been canceled by a forced change');
    ctx.state.root = target;
    ctx.store.saveRoot(target);
    noteRoleChanges(ctx, plan, original, target);
    for (const id of plan.affectedRunSpecIds) {
      const spec = findRunSpec(target, id);
      if (spec !== undefined) ctx.state.history.record(spec);
    }
    ctx.state.history.recordRoot(target);
    ctx.bus.emit({ eventType: 'group_change_success', timestamp: isoTime(ctx.clock.nowMs()), groupId, version: target.version });
    const d: Deployment = { plan, original, target, stepIndex: -1, startedAtMs: ctx.clock.nowMs() };
    this.startRunning(ctx, d);
    this.advance(ctx, d);
    return { ok: true, deploymentId: plan.id, version: target.version };
  }

  /**
   * The root a change to `target` would give (its service ports assigned) and the plan it would
   * get, without deploying it (`?dryRun=true`), with the id `dry-run`; or why the root is refused,
   * as a deployment of it would be.
   */
  preview(ctx: DeploymentContext, target: Group): { readonly ok: true; readonly root: Group; readonly plan: DeploymentPlan } | Extract<DeployResult, { ok: false }> {
    const refused = this.refusedRoot(ctx, target);
    if (refused !== undefined) return refused;
    // The ports the change would assign: an app that names port 0 again keeps its port, so the
    // dry run, like the change, neither restarts it nor refuses what the change takes.
    const ports = withServicePorts(ctx, ctx.state.root, target);
    return ports.ok ? { ok: true, root: ports.root, plan: this.planner(ctx.state.root, ports.root, 'dry-run') } : ports;
  }

  /**
   * Why `target` cannot be a root at all, checked before planning (the planner orders by
   * dependencies): more instances than `--max_total_instances` ({@link tooManyInstances}), or a
   * dependency cycle, `invalid` at `/` with Marathon's message (fact 74, `RootGroup`'s
   * `Dependency graph has cyclic dependencies.`). The one check of each of every root change — a
   * command's, a rollback's, a dry run's.
   */
  private refusedRoot(ctx: DeploymentContext, target: Group): Extract<DeployResult, { ok: false }> | undefined {
    const tooMany = tooManyInstances(ctx, target);
    if (tooMany !== undefined) return notValid({ path: '/', errors: [tooMany] });
    if (ctx.groups.dependencyCycle(target) === undefined) return undefined;
    return notValid({ path: '/', errors: [CYCLIC_DEPENDENCIES_MESSAGE] });
  }

  /**
   * After a restart: a deployment read back from the store runs on from its current step. The
   * step's actions begin again; they are idempotent (start keeps an existing run spec, scale and
   * restart converge to the target, stop kills what is left), so nothing already done is redone.
   * Then the step is checked at once, as a new deployment's first step is: a step that was done
   * before the restart (a stop whose run spec's delete was durable while the deployment's end was
   * not: a kill -9 inside the status update) would otherwise wait for a change to a run spec that
   * no longer exists, and hold the deployment forever.
   */
  resume(ctx: DeploymentContext, d: Deployment): void {
    this.startRunning(ctx, d);
    for (const a of d.plan.steps[d.stepIndex]?.actions ?? []) this.begin(ctx, d, a);
    this.advance(ctx, d);
  }

  /** Ids of the running deployments that hold this run spec. */
  holding(runSpecId: string): string[] {
    return [...this.running.values()].filter((d) => d.plan.affectedRunSpecIds.includes(runSpecId)).map((d) => d.plan.id);
  }

  /**
   * The running deployments with an action on any of `runSpecIds`, in `running`'s order: found
   * through the index rather than by reading every running deployment's plan (with 1,000
   * deployments running, each new app paid for all of them).
   */
  private holdingAny(runSpecIds: readonly string[]): Deployment[] {
    const seen = new Set<Deployment>();
    for (const id of runSpecIds) for (const d of this.byRunSpec.get(id) ?? []) seen.add(d);
    return this.inRunningOrder([...seen]);
  }

  private inRunningOrder(ds: Deployment[]): Deployment[] {
    return ds.length < 2 ? ds : ds.sort((a, b) => (this.runningOrder.get(a) ?? 0) - (this.runningOrder.get(b) ?? 0));
  }

  /** Checks the running deployments whose current actions touch a changed run spec. */
  progress(ctx: DeploymentContext, changedRunSpecs: ReadonlySet<string>): void {
    if (this.running.size === 0) return;
    // Only the changed run specs whose change can have finished an action (not one of a scale-up
    // still short of its Running target): none, the common case during a big scale-up, is free.
    const changed = new Set<string>();
    for (const id of changedRunSpecs) if (mayHaveFinished(ctx.state, id)) changed.add(id);
    if (changed.size === 0) return;
    const candidates: Deployment[] = [];
    if (changed.size >= this.running.size) {
      candidates.push(...this.running.values());
    } else {
      const seen = new Set<Deployment>();
      for (const id of changed) for (const d of this.byRunSpec.get(id) ?? []) seen.add(d);
      candidates.push(...seen);
      candidates.sort((a, b) => (this.runningOrder.get(a) ?? 0) - (this.runningOrder.get(b) ?? 0));
    }
    for (const d of candidates) {
      const step = d.plan.steps[d.stepIndex];
      if (step !== undefined && step.actions.some((a) => changed.has(a.runSpecId))) this.advance(ctx, d);
    }
  }

  /**
   * Puts `d` among the running deployments. Its two roots are held in the version history while
   * it runs: its stored record refers to their apps' and pods' versions (store format 6), so a
   * restart in the middle of a long deployment finds them however many changes came since.
   */
  private startRunning(ctx: DeploymentContext, d: Deployment): void {
    ctx.state.history.holdRoot(d.original);
    ctx.state.history.holdRoot(d.target);
    this.running.set(d.plan.id, d);
    this.runningOrder.set(d, this.runningSeq++);
    for (const step of d.plan.steps) {
      for (const a of step.actions) {
        let ds = this.byRunSpec.get(a.runSpecId);
        if (ds === undefined) this.byRunSpec.set(a.runSpecId, (ds = new Set()));
        ds.add(d);
      }
    }
  }

  private stopRunning(ctx: DeploymentContext, d: Deployment): void {
    if (this.running.get(d.plan.id) === d) {
      ctx.state.history.releaseRoot(d.original);
      ctx.state.history.releaseRoot(d.target);
    }
    this.running.delete(d.plan.id);
    for (const step of d.plan.steps) {
      for (const a of step.actions) {
        const ds = this.byRunSpec.get(a.runSpecId);
        if (ds === undefined) continue;
        ds.delete(d);
        if (ds.size === 0) this.byRunSpec.delete(a.runSpecId);
      }
    }
  }

  /**
   * DELETE /v2/deployments/{id}: with `force`, just stop it (nothing is rolled back); without,
   * stop it and start a new deployment back to the original definitions of what it affected.
   */
  cancel(ctx: DeploymentContext, deploymentId: string, force: boolean): DeployResult {
    const d = this.running.get(deploymentId);
    if (d === undefined) return { ok: false, error: 'unknown-deployment', message: `DeploymentPlan ${deploymentId} does not exist` };
    this.stop(ctx, d, 'The deployment has been canceled');
    if (force) return { ok: true, deploymentId, version: ctx.state.root.version };
    return this.deploy(ctx, revertedRoot(ctx, d), true, WHOLE_ROOT_GROUP_ID);
  }

  /** Why each action of each running deployment's current step waits. */
  status(ctx: DeploymentContext): { deployment: Deployment; actions: ActionStatus[] }[] {
    return [...this.running.values()].map((deployment) => ({
      deployment,
      actions: (deployment.plan.steps[deployment.stepIndex]?.actions ?? []).map((a) => actionStatus(ctx.state, a)),
    }));
  }

  /** Finishes steps whose actions are all done and starts the next ones. */
  private advance(ctx: DeploymentContext, d: Deployment): void {
    for (;;) {
      const step = d.plan.steps[d.stepIndex];
      if (step !== undefined) {
        if (!this.stepDone(ctx, step)) return;
        for (const a of step.actions) this.finishAction(ctx, a);
        this.emitStep(ctx, d, 'deployment_step_success');
      }
      d.stepIndex++;
      const next = d.plan.steps[d.stepIndex];
      if (next === undefined) {
        // The record first: it refers to what the release may evict (a crash between the two writes
        // must not leave a record whose root or run spec versions are gone).
        ctx.store.deleteDeployment(d.plan.id);
        this.stopRunning(ctx, d);
        ctx.bus.emit({ eventType: 'deployment_success', timestamp: isoTime(ctx.clock.nowMs()), id: d.plan.id, plan: lightPlanJson(d.plan) });
        return;
      }
      this.emitStep(ctx, d, 'deployment_info');
      ctx.store.saveDeployment(d);
      for (const a of next.actions) this.begin(ctx, d, a);
    }
  }

  /**
   * Whether every action of the step is done: the answer asking them in order gives (actionDone
   * only reads the state), but the action that held the step at its last check is asked first.
   * It usually still holds it: a step waits for its slowest action, and it is checked after every
   * input that changed one of its run specs. Asked in order, every done action before it read all
   * of its run spec's instances each time (bench:sim's day, whose one deployment of 100 apps
   * waits all day for its flaky apps: 6 % of the day's CPU, 2026-11-29).
   */
  private stepDone(ctx: DeploymentContext, step: DeploymentStep): boolean {
    const actions = step.actions;
    const held = this.heldBy.get(step);
    if (held !== undefined && !actionDone(ctx.state, actions[held] as DeploymentAction)) return false;
    for (let i = 0; i < actions.length; i++) {
      if (i === held) continue;
      if (!actionDone(ctx.state, actions[i] as DeploymentAction)) {
        this.heldBy.set(step, i);
        return false;
      }
    }
    return true;
  }

  private begin(ctx: DeploymentContext, d: Deployment, a: DeploymentAction): void {
    const spec = findRunSpec(d.target, a.runSpecId);
    switch (a.action) {
      case 'StartApplication':
      case 'StartPod':
        if (spec !== undefined) applyStart(ctx, spec);
        return;
      case 'ScaleApplication':
      case 'ScalePod':
        if (spec !== undefined) applyScale(ctx, spec);
        return;
      case 'RestartApplication':
      case 'RestartPod':
        if (spec !== undefined) applyRestart(ctx, spec);
        return;
      case 'StopApplication':
      case 'StopPod':
        applyStop(ctx, a.runSpecId);
    }
  }

  private finishAction(ctx: DeploymentContext, a: DeploymentAction): void {
    const rs = ctx.state.runSpecs.get(a.runSpecId);
    if (rs !== undefined && rs.restart !== undefined) rs.restart = undefined;
  }

  private stop(ctx: DeploymentContext, d: Deployment, reason: string): void {
    ctx.store.deleteDeployment(d.plan.id);
    this.stopRunning(ctx, d);
    this.emitStep(ctx, d, 'deployment_step_failure');
    ctx.bus.emit({ eventType: 'deployment_failed', timestamp: isoTime(ctx.clock.nowMs()), id: d.plan.id, plan: lightPlanJson(d.plan), reason });
    for (const a of d.plan.steps[d.stepIndex]?.actions ?? []) {
      const rs = ctx.state.runSpecs.get(a.runSpecId);
      if (rs?.restart === undefined) continue;
      rs.restart = undefined;
      converge(ctx, rs);
    }
    this.scaleCheck(ctx, d.plan.affectedRunSpecIds);
  }

  /**
   * Marathon's scale check (`--scale_apps_interval`): a run spec of `runSpecIds` that no running
   * deployment holds, whose config matches the root's but whose count does not, is scaled to the
   * root's count. It runs where the run spec and the root can part without a deployment to join
   * them again — when a deployment stops early (forced over, canceled with force: a later step
   * never ran), over its plan's run specs; after a restart, over every recovered run spec (a store
   * written before this check, or a deployment whose end was durable while its scale was not) —
   * and, as in Marathon, periodically over every run spec (`scaleAppsIntervalMs`, a `scaleCheck`
   * timer), in case anything else ever parts them. Nothing happens when the counts agree; a held
   * run spec is its deployment's (found through the index, so a check of every run spec costs one
   * lookup each).
   */
  scaleCheck(ctx: DeploymentContext, runSpecIds: Iterable<string>): void {
    for (const id of [...runSpecIds]) {
      if (this.byRunSpec.has(id)) continue;
      const rs = ctx.state.runSpecs.get(id);
      const spec = findRunSpec(ctx.state.root, id);
      if (rs === undefined || spec === undefined || rs.deleting || rs.spec.instances === spec.instances) continue;
      if (rs.spec.versionInfo.lastConfigChangeAt === spec.versionInfo.lastConfigChangeAt) applyScale(ctx, spec);
    }
  }

  /**
   * `deployment_info` when a step starts, `deployment_step_success|failure` when it ends: the full
   * plan with both roots (spec section 6; rendered by the wire, not here) and the step. Built
   * only when someone listens.
   */
  private emitStep(ctx: DeploymentContext, d: Deployment, eventType: 'deployment_info' | 'deployment_step_success' | 'deployment_step_failure'): void {
    const step = d.plan.steps[d.stepIndex];
    if (step === undefined || !ctx.bus.hasListeners) return;
    ctx.bus.emit({ eventType, timestamp: isoTime(ctx.clock.nowMs()), plan: this.fullPlan(d), currentStep: eventStepJson(step) });
  }

  private fullPlan(d: Deployment): FullPlan {
    let plan = this.plans.get(d);
    if (plan === undefined) {
      plan = fullPlan(d.plan, d.original, d.target);
      this.plans.set(d, plan);
    }
    return plan;
  }
}

/**
 * The role rules of spec 2.7 and section 7 (facts 109–114), checked here once for every root
 * change (one app, a bulk app update, a group change, a revert, a rollback): each affected run
 * spec that is new or whose definition changed is checked by `validateRole` against the new tree
 * (the enforcement of its top-level group as the change leaves it) and the run spec it replaces —
 * a role outside the allowed set, a resident `*`, a resident role change without `force`. A scale
 * or a restart keeps the role and is not checked again. All errors in one `/role` detail, as
 * Marathon reports them; undefined when every role is fine.
 */
function roleProblems(ctx: DeploymentContext, original: Group, target: Group, ids: readonly string[], force: boolean): ValidationDetail | undefined {
  const errors: string[] = [];
  for (const id of ids) {
    const after = findRunSpec(target, id);
    if (after === undefined) continue;
    const before = findRunSpec(original, id);
    if (before !== undefined && sameConfig(before, after)) continue;
    const detail = validateRole(target, after, ctx.options.defaultRole, before, { force });
    if (detail !== undefined) errors.push(...detail.errors);
  }
  return errors.length === 0 ? undefined : { path: '/role', errors: [...new Set(errors)] };
}

/**
 * `requested` with the root group's service port rule applied (Marathon's
 * AssignDynamicServiceLogic, groups/service-ports.ts): every root change passes here, and so does a
 * dry run of one, so the rule is applied in this one place. An exhausted range refuses the root.
 */
function withServicePorts(ctx: DeploymentContext, original: Group, requested: Group): { readonly ok: true; readonly root: Group } | Extract<DeployResult, { ok: false }> {
  const ports = assignServicePorts({ min: ctx.options.localPortMin, max: ctx.options.localPortMax }, original, requested);
  if (!ports.ok) return notValid({ path: '/', errors: [ports.message] });
  return ports;
}

/**
 * The current root with every run spec the deployment affected put back as it was in the
 * deployment's original root (removed when it did not exist there), as a new root version
 * ({@link versionAfter}, the rule of every root change).
 */
function revertedRoot(ctx: DeploymentContext, d: Deployment): Group {
  const version = versionAfter(ctx.clock.nowMs(), ctx.state.root.version);
  let root = ctx.state.root;
  for (const id of d.plan.affectedRunSpecIds) {
    const before = findRunSpec(d.original, id);
    const change = before === undefined ? ctx.groups.withoutRunSpec(root, id, version) : ctx.groups.withRunSpec(root, before, version);
    if (change.ok) root = change.root;
  }
  return root;
}

/**
 * Rules every run spec a root change touches must keep, whichever command made the change
 * (create, update, scale, group write): Marathon validates the whole new root the same way
 * (`GroupManagerImpl.updateRoot` → `RootGroup.validRootGroup`). Today: the single-instance rules,
 * an app's DVDI volume rules (groups/dvdi-volume-rules.ts) and pacer's `PACER_UNHEALTHY_KILL_FLOOR`
 * label (a share from 0 to 1).
 */
function runSpecViolations(target: Group, runSpecId: string): ValidationDetail[] {
  const spec = findRunSpec(target, runSpecId);
  return spec === undefined ? [] : [...singleInstanceViolations(spec), ...dvdiVolumeViolations(target, spec), ...floorLabelViolations(spec)];
}

/**
 * The core's reason for a change refused because running deployments hold its run specs (fact 7;
 * the API answers 409 with Marathon's own text, src/api/errors.ts), naming them: the one text of
 * the refusal, its `deployment_failed` and its `group_change_failed`.
 */
export function lockedMessage(deploymentIds: readonly string[]): string {
  return `App is locked by one or more deployments. Override with the option '?force=true'. Locking deployments: ${deploymentIds.join(', ')}`;
}

/**
 * The bound on all instances of the root (`SchedulerOptions.maxTotalInstances`): why `target` asks
 * for too many, or undefined. Only a change that grows the total past the bound is refused: one
 * that lowers it (a delete, a scale-down) passes even above it, so a root stored before the bound
 * was lowered still shrinks.
 */
function tooManyInstances(ctx: DeploymentContext, target: Group): string | undefined {
  const max = ctx.options.maxTotalInstances;
  const total = totalInstances(target);
  if (total <= max || total <= totalInstances(ctx.state.root)) return undefined;
  return `the root group would ask for ${total} instances in all, more than ${max} (--max_total_instances)`;
}
