import { deleteRunSpecCommand } from './commands/delete-run-spec';
import { killForDelete } from './deployments/apply-stop';
import { deployResult } from './commands/deploy-result';
import { killAndScale, killInstances } from './commands/kill-instances';
import { putRunSpec } from './commands/put-run-spec';
import { scaleRunSpec } from './commands/scale-run-spec';
import { restartRunSpec } from './commands/restart-run-spec';
import { changeRoot, previewRootChange } from './commands/change-root';
import { setGroupEnforceRole } from './commands/set-group-enforce-role';
import type { CoreContext } from './core-context';
import type { CoreWiring } from './core-wiring';
import type { SchedulerPorts } from './ports/scheduler-ports';
import { DeploymentManager } from './deployments/deployment-manager';
import type { Deployment } from './model/deployment';
import type { DeploymentPlan } from './model/deployment-plan';
import type { ActionStatus } from './deployments/action-status';
import type { Group } from './groups/group';
import { converge } from './instances/converge';
import { continueDeferred } from './instances/instance-lifecycle';
import { flushInstances } from './instances/instance-tracker';
import { flushTaskFailures } from './instances/record-task-failure';
import { EffectApplier } from './instances/effect-applier';
import { InstanceEffects } from './instances/instance-effects';
import { findRunSpec } from './groups/tree-query';
import { EMPTY_ROOT_VERSION } from './groups/group-tree';
import { EventBus, type EventListener } from './events/event-bus';
import { HealthTracker, type CheckState } from './health/health-tracker';
import { onProbeResult, onProbeTimer } from './health/scheduler-health';
import { heldKillsStatus, type HeldKillsStatus } from './health/unhealthy-kill-status';
import { onStatus } from './instances/on-status';
import { onKillRetry } from './kill/kill-instance';
import { inBackoff, resetBackoff } from './instances/backoff';
import { OfferDemand } from './launch-queue/offer-demand';
import { OfferMatcher } from './matcher/match-offers';
import { OfferBatches } from './offers/offer-batches';
import { TaskReconciliation } from './reconcile/task-reconciliation';
import { buildFilterPipeline } from './matcher/pipeline';
import type { RejectionStats } from './state/rejection-stats';
import type { Command, CommandResult, RootChange, RootChangePreview, SchedulerInput, TimerKind } from './model/inputs';
import type { Instance } from './model/instance';
import type { RunSpec } from './model/run-spec';
import type { TaskFailure } from './model/task-failure';
import { defaultWiring } from './default-wiring';
import { DEFAULT_SCHEDULER_OPTIONS, type SchedulerOptions } from './scheduler-options';
import { SchedulerState } from './state/scheduler-state';
import { syncFrameworkRoles } from './state/framework-roles';
import { recoverState } from './recover-state';
import type { HistoryListener } from './groups/version-history';
import type { SetAsideRecord, Store } from './ports/store';
import { onExpungeTimer, onInactiveTimer } from './unreachable/unreachable';
import { onReadinessResult, onReadinessTimer, readinessResults } from './readiness/readiness-checks';
import type { ReadinessCheckResult } from './model/readiness-check';
import { WHOLE_ROOT_GROUP_ID } from './groups/changed-group-id';

/** A run spec waiting for offers, as `/v2/queue` shows it. */
export interface QueueEntry {
  readonly runSpec: RunSpec;
  /** Instances waiting for an offer, those still to be created included (`instancesPerInput`). */
  readonly scheduled: number;
  /** Launches wait until then (backoff), when in the future. */
  readonly backoffUntilMs?: number;
  readonly stats: RejectionStats;
}

/**
 * The scheduler core's facade: a synchronous, deterministic state machine. Every input (command,
 * offers, status update, timer, probe result) is handled to completion by {@link handle}; effects
 * leave through the ports (driver calls, store writes, timers, probes) and the event bus, all
 * through one {@link EffectApplier}: the instance tracker returns its effects as data
 * (instances/instance-effects.ts) and the applier carries them out in the order they were decided.
 */
export class Scheduler {
  private readonly ctx: CoreContext;
  private readonly bus = new EventBus();
  private readonly applier: EffectApplier;
  private readonly offers: OfferBatches;
  private readonly reconciliation = new TaskReconciliation();
  private readonly setAside: readonly SetAsideRecord[];

  constructor(ports: SchedulerPorts, options: Partial<SchedulerOptions> = {}, wiring: CoreWiring = defaultWiring(options)) {
    const opts = { ...DEFAULT_SCHEDULER_OPTIONS, ...options };
    const bus = this.bus;
    const effects = new InstanceEffects(() => bus.hasListeners);
    this.applier = new EffectApplier(ports, bus, effects);
    const world = this.applier.ports;
    this.ctx = {
      ...world,
      options: opts,
      state: new SchedulerState(wiring.emptyRoot(EMPTY_ROOT_VERSION), opts.defaultRole),
      health: new HealthTracker(),
      effects,
      demand: new OfferDemand(world.driver, world.clock),
      deployments: new DeploymentManager(wiring.planner),
      groups: wiring.groups,
    };
    this.offers = new OfferBatches(new OfferMatcher(buildFilterPipeline(opts)));
    this.ctx.state.changeBudget = opts.instancesPerInput;
    this.setAside = recoverState(this.ctx, ports.store.load(), this.ctx.deployments);
    this.ctx.state.history.listener = historyToStore(world.store);
    this.afterInput();
    if (opts.reconciliationIntervalMs > 0) {
      world.timers.schedule(ports.clock.nowMs() + opts.reconciliationIntervalMs, { type: 'timer', timer: { kind: 'reconcile' } });
    }
    if (opts.scaleAppsIntervalMs > 0) {
      ports.timers.schedule(ports.clock.nowMs() + opts.scaleAppsIntervalMs, { type: 'timer', timer: { kind: 'scaleCheck' } });
    }
  }

  /** Handle one input to completion. Commands return their result; other inputs return undefined. */
  handle(input: SchedulerInput): CommandResult | undefined {
    this.ctx.state.changeBudget = this.ctx.options.instancesPerInput;
    const result = this.dispatch(input);
    this.afterInput();
    return result;
  }

  /**
   * Once per input, in this order: deployments and rolling restarts react to what changed; offer
   * demand follows (revive/suppress), and the framework's roles when the roles in use changed,
   * with its roles that nothing wants suppressed (once offers came, and after a change of the roles);
   * last, each run spec's new last task failure is written, once (instances/record-task-failure.ts),
   * then every instance the input changed, once (instances/instance-tracker.ts), and
   * every effect the tracker still holds is carried out.
   */
  private afterInput(): void {
    this.settle();
    const runSpecs = this.ctx.state.runSpecs;
    this.ctx.demand.sync(this.ctx.state.demandDirty, (rs) => runSpecs.get(rs.spec.id) === rs);
    syncFrameworkRoles(this.ctx);
    this.ctx.demand.suppressIdle(this.ctx.state.frameworkRoles);
    flushTaskFailures(this.ctx);
    flushInstances(this.ctx);
    this.applier.drain();
  }

  /** The options this core runs with (defaults filled): `/v2/info` reports them. */
  options(): Readonly<SchedulerOptions> {
    return this.ctx.options;
  }

  /** Subscribe to the event bus; returns the unsubscribe function. */
  subscribe(listener: EventListener): () => void {
    return this.bus.subscribe(listener);
  }

  /**
   * Stored records this core could not load when it started and set aside (issue 11), with why;
   * empty for a sound store. The runtime logs them; `GET /pacer/v1/set-aside` lists them.
   */
  setAsideRecords(): readonly SetAsideRecord[] {
    return this.setAside;
  }

  runSpec(runSpecId: string): RunSpec | undefined {
    return this.ctx.state.runSpecs.get(runSpecId)?.spec;
  }

  runSpecs(): RunSpec[] {
    return [...this.ctx.state.runSpecs.values()].map((rs) => rs.spec);
  }

  /** Instances of a run spec in creation order (live objects: do not mutate). */
  instances(runSpecId: string): readonly Instance[] {
    const rs = this.ctx.state.runSpecs.get(runSpecId);
    return rs === undefined ? [] : [...rs.instances.values()];
  }

  instance(instanceId: string): Instance | undefined {
    return this.ctx.state.instance(instanceId);
  }

  /**
   * A token of the run spec's instances as they are now: a new object after every input in which
   * any of them was created, removed or changed condition, goal, health or a task's check result (the run specs the
   * tracker names in the state's `changed` set, which is what every such change already does), so
   * a reader that kept something computed from the instances together with this token knows it
   * is still right while the token is the same object — without reading the instances (the API's
   * lists: `GET /v2/tasks` of 100,000 tasks and the counts of `GET /v2/apps` are O(apps) while
   * nothing changed, issue 13). Undefined for a run spec none of whose instances changed since
   * this core started (it has none). Fields the lists do not show (kill reason, unreachable
   * time, check results within a health state) change it only when they come with one of those.
   */
  instancesToken(runSpecId: string): object | undefined {
    return this.instanceTokens.get(runSpecId);
  }

  /** Run specs with instances waiting for offers. */
  queue(): QueueEntry[] {
    const nowMs = this.ctx.clock.nowMs();
    const out: QueueEntry[] = [];
    for (const rs of this.ctx.state.runSpecs.values()) {
      const waiting = rs.scheduled.length + rs.toCreate;
      if (waiting === 0) continue;
      const backoffUntilMs = inBackoff(rs, nowMs) ? rs.backoff?.deadlineMs : undefined;
      out.push({ runSpec: rs.spec, scheduled: waiting, backoffUntilMs, stats: rs.rejections });
    }
    return out;
  }

  /** Offer-processing statistics of a run spec (also after its queue emptied). */
  rejections(runSpecId: string): RejectionStats | undefined {
    return this.ctx.state.runSpecs.get(runSpecId)?.rejections;
  }

  /** The current launch delay deadline of a run spec, if it is in backoff. */
  backoffUntilMs(runSpecId: string): number | undefined {
    const rs = this.ctx.state.runSpecs.get(runSpecId);
    return rs !== undefined && inBackoff(rs, this.ctx.clock.nowMs()) ? rs.backoff?.deadlineMs : undefined;
  }

  /** The root group as of the last accepted change (deployments may still be converging to it). */
  root(): Group {
    return this.ctx.state.root;
  }

  /** Stored versions of a run spec, newest first (`/v2/apps/{id}/versions`, `/v2/pods/{id}::versions`). */
  versions(runSpecId: string): string[] {
    return this.ctx.state.history.list(runSpecId);
  }

  /**
   * Stored versions of the root group, newest first (`/v2/groups/{id}/versions`); durable through
   * the Store port, so they survive a restart. Bounded like every history (`--zk_max_versions`).
   */
  rootVersions(): string[] {
    return this.ctx.state.history.rootVersions();
  }

  /** The root group as it was at `version` (canonical ISO text), for group version views and reverts. */
  rootVersion(version: string): Group | undefined {
    return this.ctx.state.history.getRoot(version);
  }

  /** One stored version of a run spec. */
  runSpecVersion(runSpecId: string, version: string): RunSpec | undefined {
    return this.ctx.state.history.get(runSpecId, version);
  }

  /**
   * The pod definition queries should report: while a deployment is still replacing a pod's
   * instances, the previous definition (spec section 1, rule 13: the new version is reported only
   * once the redeployment is complete); otherwise the current one. Apps report the new one at once.
   */
  podForQuery(podId: string): RunSpec | undefined {
    for (const deployment of this.ctx.deployments.running.values()) {
      if (!deployment.plan.affectedRunSpecIds.includes(podId)) continue;
      const before = findRunSpec(deployment.original, podId);
      if (before !== undefined && before.kind === 'pod') return before;
    }
    const spec = findRunSpec(this.ctx.state.root, podId);
    return spec?.kind === 'pod' ? spec : undefined;
  }

  /**
   * The health check results of an instance (`healthCheckResults` of the task JSON, fact 40), one
   * state per check (`checksOf`: an app's `healthChecks`, a pod's container checks), for
   * scheduler-run and agent-run checks alike; a state without a result yet has `alive`
   * undefined. Undefined when the instance is not running (yet), has no checks, or is gone. Live
   * objects: do not mutate.
   */
  healthChecks(instanceId: string): readonly Readonly<CheckState>[] | undefined {
    return this.ctx.health.checks.get(instanceId);
  }

  /**
   * The newest task failure of a run spec's instances (`lastTaskFailure` of `/v2/apps`): a task
   * that ended TASK_FAILED, TASK_ERROR, TASK_LOST, TASK_DROPPED, TASK_GONE(_BY_OPERATOR) or
   * TASK_UNKNOWN, or was killed for failing health checks. Undefined when none, or once the run
   * spec is gone. Kept in memory only (not stored): after a restart it starts empty.
   */
  lastTaskFailure(runSpecId: string): TaskFailure | undefined {
    return this.ctx.state.runSpecs.get(runSpecId)?.lastTaskFailure;
  }

  /**
   * Kill-storm protection as an operator reads it: every app whose unhealthy-kill floor holds
   * kills back now, with its floor, how many instances count towards it and the held kills in the
   * order they will go (issue 18; health/unhealthy-kill.ts). Empty while no kill is held.
   */
  heldUnhealthyKills(): HeldKillsStatus[] {
    return heldKillsStatus(this.ctx);
  }

  /** Readiness check results of an app's instances (`readinessCheckResults`); empty without a check. */
  readiness(runSpecId: string): ReadinessCheckResult[] {
    return readinessResults(this.ctx, runSpecId);
  }

  /**
   * The plans of the running deployments, without working out what their actions wait for (which
   * looks at every instance of every current action): for rendering apps' `deployments`, counts,
   * and existence checks.
   */
  runningPlans(): DeploymentPlan[] {
    return [...this.ctx.deployments.running.values()].map((d) => d.plan);
  }

  /**
   * What `change` would do if submitted now, without doing it: the root it gives and the plan from
   * the current root (`?dryRun=true`; authorization compares the two roots). Changes nothing.
   */
  previewChange(change: RootChange): RootChangePreview {
    return previewRootChange(this.ctx, change);
  }

  /** Running deployments and, per action of the current step, what it waits for. */
  deployments(): { deployment: Deployment; actions: ActionStatus[] }[] {
    return this.ctx.deployments.status(this.ctx);
  }

  /**
   * After an input: rolling replacements react to what changed (a new instance became healthy, an
   * old one died), then running deployments check the actions on changed run specs. Bounded: a
   * round can only change run specs again through kills and launches, which settle in later inputs.
   */
  private settle(): void {
    const state = this.ctx.state;
    for (let round = 0; round < 3 && state.changed.size > 0; round++) {
      // Swap the two sets instead of copying: this runs after every status update.
      const now = state.takeChanged(this.settling);
      this.settling = now;
      for (const id of now) {
        const rs = state.runSpecs.get(id);
        if (rs?.restart !== undefined) converge(this.ctx, rs);
      }
      this.ctx.deployments.progress(this.ctx, now);
      this.renewTokens(now);
      now.clear();
    }
    this.renewTokens(state.changed);
    state.clearChanged();
  }

  /** The other half of the changed-run-specs double buffer (see settle). */
  private settling = new Set<string>();

  /** {@link instancesToken} per run spec (a run spec gone drops its token). */
  private readonly instanceTokens = new Map<string, object>();

  private renewTokens(ids: ReadonlySet<string>): void {
    for (const id of ids) {
      if (this.ctx.state.runSpecs.has(id)) this.instanceTokens.set(id, {});
      else this.instanceTokens.delete(id);
    }
  }

  private dispatch(input: SchedulerInput): CommandResult | undefined {
    switch (input.type) {
      case 'offers':
        this.ctx.demand.noteOffers();
        this.offers.onOffers(this.ctx, input.offers);
        return undefined;
      case 'status':
        // The status handlers return their effects; they are carried out here, in order.
        this.applier.applyAll(onStatus(this.ctx, input.status));
        return undefined;
      case 'timer':
        this.onTimer(input.timer);
        return undefined;
      case 'probeResult':
        if (!onReadinessResult(this.ctx, input.observation)) onProbeResult(this.ctx, input.observation);
        return undefined;
      case 'subscribed':
        this.offers.dropAll();
        this.ctx.state.frameworkId = input.frameworkId;
        this.ctx.store.saveFrameworkId(input.frameworkId);
        this.reconcileAll();
        return undefined;
      case 'rescind':
        this.offers.rescind(input.offerId);
        return undefined;
      case 'agentLost':
        // A lost agent's tasks are reported lost by their own status updates; its kept offers are void.
        this.offers.agentLost(input.agentId);
        return undefined;
      case 'disconnected':
        this.offers.dropAll();
        return undefined;
      default:
        return this.command(input);
    }
  }

  private command(cmd: Command): CommandResult {
    switch (cmd.type) {
      case 'putRunSpec':
        return putRunSpec(this.ctx, cmd.spec, cmd.force === true);
      case 'deleteRunSpec':
        // Marathon's app DELETE defaults to force=true (it cancels the app's running deployment).
        return deleteRunSpecCommand(this.ctx, cmd.runSpecId, cmd.force !== false);
      case 'scale':
        return scaleRunSpec(this.ctx, cmd.runSpecId, cmd.instances, cmd.force === true);
      case 'restart':
        return restartRunSpec(this.ctx, cmd.runSpecId, cmd.force === true);
      case 'changeRoot':
        return changeRoot(this.ctx, cmd.change, cmd.force === true);
      case 'setEnforceRole':
        return setGroupEnforceRole(this.ctx, cmd.groupId, cmd.enforceRole);
      case 'deploy':
        return deployResult(this.ctx.deployments.deploy(this.ctx, cmd.root, cmd.force === true, WHOLE_ROOT_GROUP_ID));
      case 'cancelDeployment':
        return deployResult(this.ctx.deployments.cancel(this.ctx, cmd.deploymentId, cmd.force === true));
      case 'killInstances':
        return killInstances(this.ctx, cmd);
      case 'killAndScale':
        return killAndScale(this.ctx, cmd);
      case 'resetDelay': {
        const rs = this.ctx.state.runSpecs.get(cmd.runSpecId);
        if (rs === undefined) return { ok: false, error: 'unknown-run-spec', message: `App '${cmd.runSpecId}' does not exist` };
        resetBackoff(this.ctx, rs);
        return { ok: true };
      }
    }
  }

  private onTimer(timer: TimerKind): void {
    switch (timer.kind) {
      case 'backoffExpired': {
        const rs = this.ctx.state.runSpecs.get(timer.runSpecId);
        if (rs !== undefined) this.ctx.state.demandDirty.add(rs);
        return;
      }
      case 'unreachableInactive':
        return onInactiveTimer(this.ctx, timer.instanceId, timer.incarnation);
      case 'unreachableExpunge':
        return onExpungeTimer(this.ctx, timer.instanceId, timer.incarnation);
      case 'healthProbe':
        return onProbeTimer(this.ctx, timer.instanceId, timer.incarnation, timer.checkIndex);
      case 'killRetry':
        return onKillRetry(this.ctx, timer.instanceId, timer.incarnation);
      case 'readinessProbe':
        return onReadinessTimer(this.ctx, timer.instanceId, timer.incarnation);
      case 'continueChanges':
        return continueDeferred(this.ctx, (rs) => {
          if (rs.toKill.length > 0) killForDelete(this.ctx, rs);
          else if (rs.toCreate > 0) converge(this.ctx, rs);
        });
      case 'continueOffers':
        return this.offers.onContinue(this.ctx);
      case 'continueReconcile':
        return this.reconciliation.onContinue(this.ctx);
      case 'reconcile':
        this.reconcileAll();
        this.ctx.timers.schedule(this.ctx.clock.nowMs() + this.ctx.options.reconciliationIntervalMs, { type: 'timer', timer });
        return;
      case 'scaleCheck':
        this.ctx.deployments.scaleCheck(this.ctx, this.ctx.state.runSpecs.keys());
        this.ctx.timers.schedule(this.ctx.clock.nowMs() + this.ctx.options.scaleAppsIntervalMs, { type: 'timer', timer });
        return;
    }
  }

  /** Reconciliation of every known task, in bounded shares (reconcile/task-reconciliation.ts). */
  private reconcileAll(): void {
    this.reconciliation.start(this.ctx);
  }
}

/** Version history made durable: every stored and evicted version goes to the store. */
function historyToStore(store: Store): HistoryListener {
  return {
    savedRunSpecVersion: (spec) => store.saveRunSpecVersion(spec),
    evictedRunSpecVersion: (id, version) => store.deleteRunSpecVersion(id, version),
    savedRootVersion: (root) => store.saveRootVersion(root),
    evictedRootVersion: (version) => store.deleteRootVersion(version),
  };
}
