import type { Access } from './policy';

/**
 * A list answer trimmed to what one principal may view, read in Marathon's wire shapes (which
 * pacer keeps exactly; AppsResource, PodsResource, GroupsResource/GroupInfoService, TasksResource,
 * DeploymentsResource, QueueResource filter the same lists with `isAuthorized(ViewRunSpec, …)` /
 * `ViewGroup`). Values that are not the expected shape pass unchanged (single resources are
 * checked before their handler runs).
 */
export type WireFilter = (access: Access, payload: unknown) => unknown;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function idOf(value: unknown): string | undefined {
  return isObject(value) && typeof value.id === 'string' ? value.id : undefined;
}

/** Items of a list of run specs (objects with `id`) that may be viewed; other items stay. */
function viewableRunSpecs(access: Access, list: readonly unknown[]): unknown[] {
  return list.filter((item) => {
    const id = idOf(item);
    return id === undefined || access.may('ViewRunSpec', id);
  });
}

/** `{apps: [...]}` (`GET /v2/apps`), `{"*": [...]}` (`/v2/apps/<group>/*`) and `{tasks: [...]}` (task lists, by `appId`). */
export const appsOrTasks: WireFilter = (access, payload) => {
  if (!isObject(payload)) return payload;
  if (Array.isArray(payload.apps)) return { ...payload, apps: viewableRunSpecs(access, payload.apps) };
  if (Array.isArray(payload['*'])) return { ...payload, '*': viewableRunSpecs(access, payload['*']) };
  if (Array.isArray(payload.tasks)) {
    return { ...payload, tasks: payload.tasks.filter((t) => !isObject(t) || typeof t.appId !== 'string' || access.may('ViewRunSpec', t.appId)) };
  }
  return payload;
};

/** A bare array of pods or pod statuses (`GET /v2/pods`, `/v2/pods/::status`). */
export const runSpecArray: WireFilter = (access, payload) => (Array.isArray(payload) ? viewableRunSpecs(access, payload) : payload);

/**
 * A GroupInfo tree (`GET /v2/groups[/…]`, also a bare array of apps for `…/apps`): apps and pods
 * it may not view are left out, and subgroups in which it may view nothing.
 */
export const groupTree: WireFilter = (access, payload) => {
  if (Array.isArray(payload)) return viewableRunSpecs(access, payload);
  if (!isObject(payload)) return payload;
  const out: Json = { ...payload };
  if (Array.isArray(payload.apps)) out.apps = viewableRunSpecs(access, payload.apps);
  if (Array.isArray(payload.pods)) out.pods = viewableRunSpecs(access, payload.pods);
  if (Array.isArray(payload.groups)) {
    out.groups = payload.groups
      .filter((g) => idOf(g) === undefined || access.seesGroup(idOf(g) as string))
      .map((g) => groupTree(access, g));
  }
  return out;
};

/** `{queue: [{app: {id}} | {pod: {id}}, …]}`. */
export const queue: WireFilter = (access, payload) => {
  if (!isObject(payload) || !Array.isArray(payload.queue)) return payload;
  return {
    ...payload,
    queue: payload.queue.filter((entry) => {
      const id = isObject(entry) ? idOf(entry.app) ?? idOf(entry.pod) : undefined;
      return id === undefined || access.may('ViewRunSpec', id);
    }),
  };
};

/** The run spec an action of a deployment step names (`app` or `pod`, Marathon's keys). */
export function actionRunSpec(action: unknown): string | undefined {
  if (!isObject(action)) return undefined;
  const id = action.app ?? action.pod;
  return typeof id === 'string' ? id : undefined;
}

/** Actions (of a step or `currentActions`) trimmed to the run specs it may view. */
export function viewableActions(access: Access, actions: unknown): unknown {
  if (!Array.isArray(actions)) return actions;
  return actions.filter((a) => {
    const id = actionRunSpec(a);
    return id === undefined || access.may('ViewRunSpec', id);
  });
}

/** Steps `[{actions: [...]}, …]` with their actions trimmed (steps stay, so step numbers hold). */
export function viewableSteps(access: Access, steps: unknown): unknown {
  if (!Array.isArray(steps)) return steps;
  return steps.map((step) => (isObject(step) ? { ...step, actions: viewableActions(access, step.actions) } : step));
}

/**
 * `GET /v2/deployments`: a deployment is listed when it affects a run spec the principal may view
 * (DeploymentsResource), and trimmed to those: `affectedApps`, `affectedPods`, the steps' actions
 * and `currentActions` name no run spec it may not view.
 */
export const deployments: WireFilter = (access, payload) => {
  if (!Array.isArray(payload)) return payload;
  const out: unknown[] = [];
  for (const d of payload) {
    if (!isObject(d)) continue;
    const apps = Array.isArray(d.affectedApps) ? d.affectedApps.filter((id) => typeof id === 'string' && access.may('ViewRunSpec', id)) : [];
    const pods = Array.isArray(d.affectedPods) ? d.affectedPods.filter((id) => typeof id === 'string' && access.may('ViewRunSpec', id)) : [];
    if (apps.length + pods.length === 0) continue;
    out.push({ ...d, affectedApps: apps, affectedPods: pods, steps: viewableSteps(access, d.steps), currentActions: viewableActions(access, d.currentActions) });
  }
  return out;
};
