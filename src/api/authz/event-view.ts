import { podTargetOf } from '../v2/pods/pod-target';
import type { WireEvent } from '../events/wire-event';
import type { Access } from './policy';
import { actionRunSpec, viewableActions, viewableSteps } from './wire-filters';

/**
 * What one `/v2/events` subscriber receives of an event: the event itself, a trimmed copy, or
 * nothing (undefined).
 */
export type EventView = (event: WireEvent) => WireEvent | undefined;

type Json = Record<string, unknown>;

const DEPLOYMENT_EVENTS: ReadonlySet<string> = new Set(['deployment_info', 'deployment_step_success', 'deployment_step_failure', 'deployment_success', 'deployment_failed']);

/**
 * The event filter of a subscriber under `--authorization_file` (pacer's own: Marathon's
 * `HttpEventStreamServlet.scala` only asks ViewResource on the whole stream). An event about a run
 * spec (`appId`, `runSpecId`, an `api_post_event`'s app, a pod event's `uri`) is delivered when
 * the subscriber may view that run spec; a group change when it sees the group (or something in
 * it); every other event (stream attach/detach, which name other clients' addresses, and events
 * with no run spec) needs ViewResource. Deployment events are delivered when the plan touches a
 * run spec it may view, and trimmed: the steps and `currentStep` keep only those run specs'
 * actions and the plan is the light `{id, steps, version}` (the `original`/`target` roots hold
 * the whole tree); a subscriber that may view everything gets every event as it is.
 */
export function eventViewOf(access: Access): EventView {
  if (access.seesEverything() && access.may('ViewResource')) return (event) => event;
  return (event) => {
    const e = event as Json & WireEvent;
    if (DEPLOYMENT_EVENTS.has(e.eventType)) return access.seesEverything() ? event : trimmedDeployment(access, e);
    if (e.eventType === 'group_change_success' || e.eventType === 'group_change_failed') {
      return typeof e.groupId === 'string' && access.seesGroup(e.groupId) ? event : undefined;
    }
    const runSpec = runSpecOf(e);
    if (runSpec !== undefined) return access.may('ViewRunSpec', runSpec) ? event : undefined;
    return access.may('ViewResource') ? event : undefined;
  };
}

function runSpecOf(e: Json): string | undefined {
  if (typeof e.appId === 'string') return e.appId;
  if (typeof e.runSpecId === 'string') return e.runSpecId;
  const app = e.appDefinition;
  if (typeof app === 'object' && app !== null && typeof (app as Json).id === 'string') return (app as Json).id as string;
  if (typeof e.uri === 'string' && e.uri.startsWith('/v2/pods/')) {
    const rest = decodedPath(e.uri.slice('/v2/pods/'.length));
    const target = rest === undefined ? undefined : podTargetOf(rest);
    if (target !== undefined && 'id' in target) return target.id;
  }
  return undefined;
}

/**
 * A pod event's `uri` is the path as the client sent it (Marathon's `getRequestURI`: escapes kept),
 * while the pod routes read their id decoded (`/v2/pods/%2Fteam-b%2Fdb` is `/team-b/db`): decoded
 * here too, or the event would be judged by an id no policy names. Undefined (no run spec: the
 * event needs ViewResource) for escapes that do not decode, which the router refuses before any
 * event anyway.
 */
function decodedPath(rest: string): string | undefined {
  try {
    return decodeURIComponent(rest);
  } catch {
    return undefined;
  }
}

function trimmedDeployment(access: Access, e: Json & WireEvent): WireEvent | undefined {
  const plan = e.plan as Json | undefined;
  const steps = Array.isArray(plan?.steps) ? plan.steps as unknown[] : [];
  const touched = steps.flatMap((s) => (Array.isArray((s as Json | null)?.actions) ? (s as Json).actions as unknown[] : [])).map(actionRunSpec);
  if (!touched.some((id) => id !== undefined && access.may('ViewRunSpec', id))) return undefined;
  const out: Json & WireEvent = { ...e, plan: { id: plan?.id, steps: viewableSteps(access, steps), version: plan?.version } };
  const current = e.currentStep as Json | undefined;
  if (current !== undefined) out.currentStep = { ...current, actions: viewableActions(access, current.actions) };
  return out;
}
