/** Tunables of the core, with Marathon 1.11's flag defaults where Marathon has the flag. */
export interface SchedulerOptions {
  /** `--mesos_role`: default role of run specs. */
  readonly defaultRole: string;
  /** `--enable_features task_killing`: expect TASK_KILLING during kill grace periods. */
  readonly taskKilling: boolean;
  /**
   * `--max_instances_per_offer` (Marathon default 5: mesosphere/marathon
   * core/matcher/manager/OfferMatcherManagerConfig.scala): at most this many instances placed on one offer.
   */
  readonly maxInstancesPerOffer: number;
  /**
   * `--decline_offer_duration` (Marathon default 120 s: core/launcher/OfferProcessorConfig.scala):
   * the refuse filter of a declined offer.
   */
  readonly declineRefuseMs: number;
  /**
   * `--accept_refuse_duration`: the refuse filter for the unused rest of an accepted offer.
   * Marathon has no flag and uses 0 (core/launcher/impl/TaskLauncherImpl.scala, `acceptOffer`), so
   * that the agent is offered again in the next allocation cycle; a filter here throttles
   * launching to `maxInstancesPerOffer` per agent per filter duration (issue 15 item 2).
   */
  readonly acceptRefuseMs: number;
  /** Re-send a kill when no terminal status arrived this long after the grace period (`--kill_retry_timeout`, 10 s). */
  readonly killRetryMs: number;
  /** `--reconciliation_interval` (600 s); 0 disables periodic reconciliation. */
  readonly reconciliationIntervalMs: number;
  /**
   * Marathon's `--scale_apps_interval` (300 s): how often every run spec no deployment holds is
   * brought to the count the root holds (DeploymentManager.scaleCheck); 0 disables the periodic
   * check (it still runs when a deployment stops early and after a restart).
   */
  readonly scaleAppsIntervalMs: number;
  /**
   * Marathon's `--task_lost_expunge_initial_delay` (300 s): after a start (a restart, a failover),
   * an unreachable instance whose expunge deadline passed while no scheduler ran is expunged no
   * sooner than this after the start, so that the reconciliation can first report its task
   * running again (its agent came back meanwhile): unreachable/unreachable.ts `onRecoveredUnreachable`.
   */
  readonly taskLostExpungeInitialDelayMs: number;
  /** `--gpu_scheduling_behavior restricted`: keep non-GPU work off GPU agents. */
  readonly gpuRestricted: boolean;
  /**
   * `--[disable_]maintenance_mode` (Marathon 1.11: on by default; MarathonConf.scala
   * `maintenanceMode`): an offer from an agent in its maintenance window, or whose window starts
   * within {@link drainingMs}, launches nothing (matcher/maintenance.ts).
   */
  readonly maintenanceMode: boolean;
  /** `--draining_seconds` (Marathon default 0), in ms: how long before its window an agent's offers stop being used. */
  readonly drainingMs: number;
  /** How many recent unused offers per run spec `/v2/queue?embed=lastUnusedOffers` can show. */
  readonly lastUnusedOffersMax: number;
  /** `--max_running_deployments` (Marathon default 100): beyond it changes are refused, even forced. */
  readonly maxRunningDeployments: number;
  /**
   * `--max_total_instances` (pacer's own; default {@link DEFAULT_MAX_TOTAL_INSTANCES}): the most
   * instances the root may ask for, every app's and pod's `instances` summed. A change that would
   * leave more than that, and more than before, is refused (`invalid` at `/`), even forced; one
   * that lowers the total always passes, so a store above a lowered bound still starts and
   * shrinks. Each app is bounded on its own (`MAX_INSTANCES`), but not their number: without it a
   * group of 1,000 apps of 100,000 instances each was accepted and created until the heap ran out.
   */
  readonly maxTotalInstances: number;
  /** `--new_group_enforce_role`: `top` gives new top-level groups `enforceRole: true`. */
  readonly newGroupEnforceRole: 'off' | 'top';
  /** `--local_port_min` / `--local_port_max` (10000 / 20000): where apps' dynamic service ports come from. */
  readonly localPortMin: number;
  readonly localPortMax: number;
  /**
   * `--unhealthy_kill_floor` (pacer's own): the share of an app's target instances that unhealthy
   * kills must leave running, for apps without the `PACER_UNHEALTHY_KILL_FLOOR` label; undefined =
   * each app's `upgradeStrategy.minimumHealthCapacity` (health/unhealthy-kill-floor.ts).
   */
  readonly unhealthyKillFloor: number | undefined;
  /**
   * Most new instances one input creates, most instances it kills for a delete, and most tasks it
   * asks the cluster to reconcile (reconcile/task-reconciliation.ts) (issue 11 item 4: a big
   * change must not block the loop). A scale-up or delete beyond it goes on in later
   * inputs, this many each (a `continueChanges` timer due at once), so API requests and cluster
   * updates are handled in between; queue counts and deployments count the instances still to
   * create (`RunSpecState.toCreate`); a deleted app is gone from the API at once.
   */
  readonly instancesPerInput: number;
  /**
   * Most instances one input places (issue 11 item 4): a batch of 1,000 offers that could take 100
   * each would otherwise place 100,000 in one input. Offers not reached when it is hit are kept
   * and matched by the next inputs (a `continueOffers` timer due at once; API requests and cluster
   * updates are handled in between), as long as their batch may place more
   * ({@link launchesPerOfferBatch}); offers/offer-batches.ts.
   */
  readonly launchesPerInput: number;
  /**
   * Most instances placed from one batch of offers, over all the inputs that match it (a count:
   * the deterministic stand-in for Marathon's matching deadline, `--offer_matching_timeout`).
   * Offers left when it is reached are declined with Mesos's default filter,
   * {@link RESEND_REFUSE_MS}, not `declineRefuseMs` (Marathon declines an offer its matching
   * deadline cut short the same way: OfferProcessorImpl, `resendThisOffer`), so they come back
   * soon. Equal to `launchesPerInput` (the default), a batch is matched in one input and never
   * kept; below it, it bounds each input instead.
   */
  readonly launchesPerOfferBatch: number;
}

/** Mesos's default refuse filter (mesos.proto `Filters.refuse_seconds`, 5 s): an offer declined to be sent again. */
export const RESEND_REFUSE_MS = 5000;

/**
 * The default bound on all the instances the root asks for: a million, ten times the largest app
 * (`MAX_INSTANCES`), the size bench:match places (its queue build keeps ~260 MB of heap for it).
 */
export const DEFAULT_MAX_TOTAL_INSTANCES = 1_000_000;
/** The largest `--max_total_instances` accepted. */
export const MAX_TOTAL_INSTANCES = 10_000_000;

export const DEFAULT_SCHEDULER_OPTIONS: SchedulerOptions = {
  defaultRole: '*',
  taskKilling: false,
  maxInstancesPerOffer: 5,
  declineRefuseMs: 120_000,
  acceptRefuseMs: 0,
  killRetryMs: 10_000,
  reconciliationIntervalMs: 600_000,
  scaleAppsIntervalMs: 300_000,
  taskLostExpungeInitialDelayMs: 300_000,
  gpuRestricted: true,
  maintenanceMode: true,
  drainingMs: 0,
  lastUnusedOffersMax: 50,
  maxRunningDeployments: 100,
  maxTotalInstances: DEFAULT_MAX_TOTAL_INSTANCES,
  newGroupEnforceRole: 'off',
  localPortMin: 10_000,
  localPortMax: 20_000,
  unhealthyKillFloor: undefined,
  instancesPerInput: 2000,
  launchesPerInput: 2000,
  launchesPerOfferBatch: 2000,
};
