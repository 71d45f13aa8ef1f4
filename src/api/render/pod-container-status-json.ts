import { isTerminalCondition, type Condition } from '../../scheduler/model/condition';
import type { Task } from '../../scheduler/model/instance';
import { fromMilli, type ScalarResources } from '../../scheduler/model/resources';
import type { PodContainer } from '../../scheduler/model/pod';
import { isoTime } from '../../scheduler/index';

/** `reason` of a container's `healthy` condition once the agent reported a result (fact 81). */
export const HEALTH_REPORTED = 'health-reported-by-mesos';
/** `reason` while the container has a check but no result yet (fact 81). */
export const HEALTH_UNREPORTED = 'health-unreported-by-mesos';

/** Task conditions in which a container holds its resources (fact 81: what `resources` sums). */
const HOLDS_RESOURCES = new Set<Condition>(['Staging', 'Starting', 'Running', 'Unreachable', 'Killing']);

/** Conditions before the task ever ran: no health is reported yet. */
const NOT_STARTED = new Set<Condition>(['Scheduled', 'Provisioned', 'Staging', 'Starting']);

/** One container (task) of a pod instance, as its status shows it. */
export interface ContainerView {
  readonly task: Task;
  /** The container's definition in the pod version the instance runs; undefined if unknown. */
  readonly container: PodContainer | undefined;
  /** The pod is resident: terminal containers keep their reservation (resources, no health). */
  readonly resident: boolean;
}

/**
 * The resources a container holds now, or undefined when it holds none: while it is staging,
 * starting, running, unreachable or being killed, or always for resident pods (fact 81).
 */
export function containerResourcesInUse(view: ContainerView): ScalarResources | undefined {
  if (view.container === undefined) return undefined;
  return HOLDS_RESOURCES.has(view.task.condition) || view.resident ? view.container.resources : undefined;
}

/**
 * The `containers[]` entry of a pod instance status (spec `::status`, fact 81): `name`, `status`
 * (the task's last state; `TASK_STAGING` before the first update), `statusSince` (started, else
 * launched), `containerId` (the task id), `endpoints` with their allocated host ports, a `healthy`
 * condition for containers with a health check once they ran, `resources` in use (`null` when
 * none), `lastUpdated`, `lastChanged` and, for an ended task with a message, `termination`.
 */
export function podContainerStatusJson(view: ContainerView): Record<string, unknown> {
  const { task } = view;
  const sinceMs = task.startedAtMs ?? task.launchedAtMs;
  const since = isoTime(sinceMs);
  const endpoints = endpointsJson(view);
  const healthy = healthCondition(view, endpoints, since);
  const resources = containerResourcesInUse(view);
  const json: Record<string, unknown> = {
    name: task.containerName ?? task.taskId,
    status: task.state ?? 'TASK_STAGING',
    statusSince: since,
    containerId: task.taskId,
    endpoints,
    conditions: healthy === undefined ? [] : [healthy],
    resources: resources === undefined ? null : resourcesJson(resources),
    lastUpdated: isoTime(task.lastStatusMs ?? sinceMs),
    lastChanged: since,
  };
  if (isTerminalCondition(task.condition) && task.message !== undefined && task.message !== '') {
    json.termination = { message: task.message };
  }
  return json;
}

/** Scalar resources on the wire (cpus, MiB, MiB, whole GPUs). */
export function resourcesJson(r: ScalarResources): Record<string, number> {
  return { cpus: fromMilli(r.cpusMilli), mem: fromMilli(r.memMilli), disk: fromMilli(r.diskMilli), gpus: r.gpus };
}

/** The endpoint the container's http/tcp health check targets, if any. */
function checkedEndpoint(container: PodContainer | undefined): string | undefined {
  const check = container?.healthCheck;
  return check?.protocol === 'COMMAND' ? undefined : check?.endpoint;
}

/**
 * Endpoints of an active task in declaration order: `allocatedHostPort` for endpoints that asked
 * for a host port (the task's host ports are in that order), `null` otherwise; the checked
 * endpoint also carries `healthy` once a result is known. Ended tasks have none.
 */
function endpointsJson(view: ContainerView): Record<string, unknown>[] {
  const { task, container } = view;
  if (container === undefined || isTerminalCondition(task.condition)) return [];
  const checked = checkedEndpoint(container);
  let portIndex = 0;
  return container.endpoints.map((e) => {
    const allocated = e.hostPort === undefined ? undefined : task.hostPorts[portIndex++];
    const json: Record<string, unknown> = { name: e.name, allocatedHostPort: allocated ?? null };
    if (e.name === checked && task.healthy !== undefined) json.healthy = task.healthy;
    return json;
  });
}

/**
 * The `healthy` condition (fact 81): only for containers with a health check, once the task got
 * past starting (and not for ended tasks of resident pods). Without a result yet it reads
 * `"false"` with the "unreported" reason.
 */
function healthCondition(
  view: ContainerView,
  endpoints: readonly Record<string, unknown>[],
  since: string,
): Record<string, unknown> | undefined {
  const { task, container } = view;
  const check = container?.healthCheck;
  if (check === undefined || NOT_STARTED.has(task.condition)) return undefined;
  if (view.resident && isTerminalCondition(task.condition)) return undefined;
  const healthy = check.protocol === 'COMMAND'
    ? task.healthy
    : endpoints.find((e) => e.name === checkedEndpoint(container))?.healthy as boolean | undefined;
  return {
    name: 'healthy',
    value: String(healthy ?? false),
    reason: healthy === undefined ? HEALTH_UNREPORTED : HEALTH_REPORTED,
    lastChanged: since,
    lastUpdated: since,
  };
}
