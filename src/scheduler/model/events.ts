import type { HealthCheckSpec } from './health-check';
import type { Group } from '../groups/group';
import type { Condition } from './condition';
import type { TaskState } from './task-state';
import type { IpAddress } from './ip-address';

/**
 * Events on the bus, with Marathon's wire names exactly (spec section 6,
 * marathon-api-facts.md fact 107). Every event has `eventType` and `timestamp`
 * (ISO 8601 UTC with milliseconds, from the Clock).
 */
export type MarathonEvent =
  | StatusUpdateEvent
  | InstanceChangedEvent
  | InstanceHealthChangedEvent
  | HealthStatusChangedEvent
  | FailedHealthCheckEvent
  | AddHealthCheckEvent
  | RemoveHealthCheckEvent
  | UnhealthyTaskKillEvent
  | UnhealthyInstanceKillEvent
  | UnhealthyKillDeferredEvent
  | UnhealthyKillDeferralEndedEvent
  | UnknownInstanceTerminatedEvent
  | AppTerminatedEvent
  | DeploymentInfoEvent
  | DeploymentStepEvent
  | DeploymentSuccessEvent
  | DeploymentFailedEvent
  | GroupChangeSuccessEvent
  | GroupChangeFailedEvent;

export type EventType = MarathonEvent['eventType'];

interface Base {
  readonly timestamp: string;
}

export interface StatusUpdateEvent extends Base {
  readonly eventType: 'status_update_event';
  readonly slaveId: string;
  readonly taskId: string;
  readonly taskStatus: TaskState;
  readonly message: string;
  readonly appId: string;
  readonly host: string;
  readonly ipAddresses: readonly IpAddress[];
  readonly ports: readonly number[];
  readonly version: string;
}

export interface InstanceChangedEvent extends Base {
  readonly eventType: 'instance_changed_event';
  readonly instanceId: string;
  readonly condition: Condition;
  readonly runSpecId: string;
  readonly agentId: string | null;
  readonly host: string | null;
  readonly runSpecVersion: string;
}

export interface InstanceHealthChangedEvent extends Base {
  readonly eventType: 'instance_health_changed_event';
  readonly instanceId: string;
  readonly runSpecId: string;
  readonly runSpecVersion: string;
  readonly healthy: boolean | null;
}

export interface HealthStatusChangedEvent extends Base {
  readonly eventType: 'health_status_changed_event';
  readonly appId: string;
  readonly instanceId: string;
  readonly version: string;
  readonly alive: boolean;
}

export interface FailedHealthCheckEvent extends Base {
  readonly eventType: 'failed_health_check_event';
  readonly appId: string;
  readonly taskId: string;
  /** Rendered as Marathon's health check JSON by the API. */
  readonly healthCheck: HealthCheckSpec;
}

export interface AddHealthCheckEvent extends Base {
  readonly eventType: 'add_health_check_event';
  readonly appId: string;
  readonly version: string;
  /** Rendered as Marathon's health check JSON by the API. */
  readonly healthCheck: HealthCheckSpec;
}

export interface RemoveHealthCheckEvent extends Base {
  readonly eventType: 'remove_health_check_event';
  readonly appId: string;
  /** Rendered as Marathon's health check JSON by the API. */
  readonly healthCheck: HealthCheckSpec;
}

export interface UnhealthyTaskKillEvent extends Base {
  readonly eventType: 'unhealthy_task_kill_event';
  readonly appId: string;
  readonly taskId: string;
  readonly version: string;
  readonly reason: string;
  readonly host: string;
  readonly slaveId: string;
}

export interface UnhealthyInstanceKillEvent extends Base {
  readonly eventType: 'unhealthy_instance_kill_event';
  readonly appId: string;
  readonly taskId: string;
  readonly instanceId: string;
  readonly version: string;
  readonly reason: string;
  readonly host: string;
  readonly slaveId: string;
}

/**
 * pacer's own event (Marathon has none like it; `pacer_` names are delivered only to subscribers
 * that ask for them by `event_type`, see `src/api/events/subscriber.ts`): an unhealthy kill was
 * held back because it would leave the app below its floor (health/unhealthy-kill.ts). `floor` is
 * how many instances must keep counting, `counted` how many count now, `instances` the target.
 */
export interface UnhealthyKillDeferredEvent extends Base {
  readonly eventType: 'pacer_unhealthy_kill_deferred_event';
  readonly appId: string;
  readonly taskId: string;
  readonly instanceId: string;
  readonly version: string;
  readonly reason: string;
  readonly host: string;
  readonly slaveId: string;
  readonly instances: number;
  readonly floor: number;
  readonly counted: number;
}

/** How a held-back unhealthy kill ended: done once the floor allowed it, dropped as the instance passed its checks again, or moot as it stopped for another reason. */
export type DeferralOutcome = 'killed' | 'recovered' | 'gone';

/** pacer's own event: an unhealthy kill held back by the floor is no longer held back (see {@link DeferralOutcome}). */
export interface UnhealthyKillDeferralEndedEvent extends Base {
  readonly eventType: 'pacer_unhealthy_kill_deferral_ended_event';
  readonly appId: string;
  readonly taskId: string;
  readonly instanceId: string;
  readonly outcome: DeferralOutcome;
}

/** Event types that are pacer's own (not Marathon's): their names start with `pacer_`. */
export function isPacerEventType(eventType: string): boolean {
  return eventType.startsWith('pacer_');
}

export interface UnknownInstanceTerminatedEvent extends Base {
  readonly eventType: 'unknown_instance_terminated_event';
  readonly instanceId: string;
  readonly runSpecId: string;
  readonly condition: Condition;
}

export interface AppTerminatedEvent extends Base {
  readonly eventType: 'app_terminated_event';
  readonly appId: string;
}

/**
 * The "light" plan `{id, steps, version}` of `deployment_success` / `deployment_failed`
 * (Marathon 1.11, fact 106; spec section 6 lists only `id` for those two).
 */
export interface LightPlanJson {
  readonly id: string;
  readonly steps: readonly { readonly actions: readonly Readonly<Record<string, string>>[] }[];
  readonly version: string;
}

/**
 * The plan of `deployment_info` and the step events as the core emits it: the light plan and the
 * two roots it goes between, as the core's (immutable) groups. Spec section 6 shapes `plan` with
 * both roots (it wins over fact 106's light plan); the wire renders them exactly as `GET
 * /v2/groups` renders a group, and `/v2/events?plan-format=light` leaves them out
 * (`src/api/events/wire-event-json.ts`). The core renders nothing.
 */
export interface FullPlan extends LightPlanJson {
  readonly original: Group;
  readonly target: Group;
}

/**
 * `currentStep` of deployment events: `{actions: [{action, app|pod, type}]}`. Each action names
 * itself twice: `action` as Marathon 1.11 writes it, `type` as spec section 6 shapes it.
 */
export interface CurrentStepJson {
  readonly actions: readonly Readonly<Record<string, string>>[];
}

export interface DeploymentInfoEvent extends Base {
  readonly eventType: 'deployment_info';
  readonly plan: FullPlan;
  readonly currentStep: CurrentStepJson;
}

export interface DeploymentStepEvent extends Base {
  readonly eventType: 'deployment_step_success' | 'deployment_step_failure';
  readonly plan: FullPlan;
  readonly currentStep: CurrentStepJson;
}

export interface DeploymentSuccessEvent extends Base {
  readonly eventType: 'deployment_success';
  readonly id: string;
  readonly plan: LightPlanJson;
}

export interface DeploymentFailedEvent extends Base {
  readonly eventType: 'deployment_failed';
  readonly id: string;
  readonly plan: LightPlanJson;
  readonly reason?: string;
}

export interface GroupChangeSuccessEvent extends Base {
  readonly eventType: 'group_change_success';
  readonly groupId: string;
  readonly version: string;
}

export interface GroupChangeFailedEvent extends Base {
  readonly eventType: 'group_change_failed';
  readonly groupId: string;
  readonly version: string;
  readonly reason: string;
}
