import type { FullPlan } from '../../scheduler/model/events';
import type { HealthCheckSpec } from '../../scheduler/model/health-check';
import { healthCheckJson } from '../../marathon/render/health-check-json';
import { groupDefinitionJson } from '../render/group-info-json';
import type { WireEvent } from './wire-event';

/**
 * How a subscriber wants deployment plans: `full` (the default; spec section 6: `original` and
 * `target` roots in `deployment_info` and the step events) or `light` (`/v2/events?plan-format=light`,
 * Marathon ≥ 1.6 and what load balancers ask for: `{id, steps, version}` only, whatever the
 * cluster size; Marathon 1.7's `HttpEventStreamServlet.scala` and `LightDeploymentPlanWrites`).
 */
export type PlanFormat = 'full' | 'light';

/** The events whose plan carries the two roots (the core's {@link FullPlan}). */
const PLAN_EVENT_TYPES: ReadonlySet<string> = new Set(['deployment_info', 'deployment_step_success', 'deployment_step_failure']);

type PlanEvent = WireEvent & { readonly plan: FullPlan };

type HealthCheckEvent = WireEvent & { readonly healthCheck: HealthCheckSpec };

/** The events that carry a health check of the model. */
const HEALTH_CHECK_EVENT_TYPES: ReadonlySet<string> = new Set(['failed_health_check_event', 'add_health_check_event', 'remove_health_check_event']);

function hasHealthCheck(event: WireEvent): event is HealthCheckEvent {
  return HEALTH_CHECK_EVENT_TYPES.has(event.eventType) && 'healthCheck' in event;
}

/** Whether the event's wire JSON depends on the plan format. */
export function hasPlanRoots(event: WireEvent): event is PlanEvent {
  return PLAN_EVENT_TYPES.has(event.eventType) && 'plan' in event;
}

/**
 * An event as `/v2/events` (and `--cluster sim`'s stdout and trace) writes it. Every event but
 * the three plan events and the three health check events is written as it is; a health check
 * event's `healthCheck` (the core's model) as Marathon's health check JSON. A plan event's roots are rendered by the groups
 * endpoint's own writer ({@link groupDefinitionJson}: `GET /v2/groups`'s default view, `enforceRole`
 * only on top-level groups, apps by Marathon's app writer, pods as definitions) in the `full`
 * format, and left out in the `light` one; both keep Marathon's key order `{id, original, target,
 * steps, version}`.
 */
export function wireEventJson(event: WireEvent, format: PlanFormat): WireEvent {
  if (hasHealthCheck(event)) {
    const rendered: WireEvent & { readonly healthCheck: unknown } = { ...event, healthCheck: healthCheckJson(event.healthCheck) };
    return rendered;
  }
  if (!hasPlanRoots(event)) return event;
  const { id, original, target, steps, version } = event.plan;
  const plan = format === 'light'
    ? { id, steps, version }
    : { id, original: groupDefinitionJson(original), target: groupDefinitionJson(target), steps, version };
  const rendered: WireEvent & { readonly plan: unknown } = { ...event, plan };
  return rendered;
}
