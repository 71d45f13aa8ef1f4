import { EXECUTOR_RESOURCES_DEFAULT } from '../../marathon/convert/pod-from-wire';
import { milliOf } from '../../marathon/convert/resources-from-wire';
import { isTerminalCondition, isUnreachableCondition } from '../../scheduler/model/condition';
import type { Instance } from '../../scheduler/model/instance';
import { addResources } from '../../scheduler/model/resources';
import type { PodSpec } from '../../scheduler/model/pod';
import { isoTime } from '../../scheduler/index';
import { localVolumesJson } from './local-volumes-json';
import { type ContainerView, containerResourcesInUse, podContainerStatusJson, resourcesJson } from './pod-container-status-json';

/** Status of one pod instance (fact 81). */
export type PodInstanceState = 'PENDING' | 'STAGING' | 'STABLE' | 'DEGRADED' | 'TERMINAL';

/** `message` of an unreachable instance (fact 81). */
export const INSTANCE_UNREACHABLE_MESSAGE = 'pod instance has become unreachable';
/** `message` of a running instance with a container whose health check fails. */
export const INSTANCE_UNHEALTHY_MESSAGE = 'at least one container is unhealthy';

/**
 * An instance shows in `::status` once it was placed: a freshly scheduled instance (no agent yet)
 * is left out (fact 81).
 */
export function isVisibleInStatus(inst: Instance): boolean {
  return !(inst.condition === 'Scheduled' && inst.agent === undefined);
}

/**
 * The `instances[]` entry of a pod status (spec `::status`, fact 81). `spec` is the pod version
 * the instance runs (its containers give endpoints and resources). `resources` sums the default
 * executor's overhead and the resources the containers hold (fact 81: the default executor
 * resources, not the pod's `executorResources`). `networks` holds the addresses its
 * tasks reported ({@link networksJson}); `localVolumes` the persistent volumes of its reservation
 * ({@link localVolumesJson}).
 */
export function podInstanceStatusJson(podId: string, inst: Instance, spec: PodSpec | undefined): Record<string, unknown> {
  const views: ContainerView[] = inst.tasks.map((task) => ({
    task,
    container: spec?.containers.find((c) => c.name === task.containerName),
    resident: spec?.resident ?? false,
  }));
  const containers = views.map(podContainerStatusJson);
  const { status, message } = instanceState(inst, containers);
  const since = isoTime(inst.conditionSinceMs);
  const json: Record<string, unknown> = { id: inst.instanceId, status, statusSince: since };
  if (message !== undefined) json.message = message;
  json.agentHostname = inst.agent?.hostname ?? null;
  json.agentId = inst.agent?.agentId ?? null;
  if (inst.agent?.region !== undefined) json.agentRegion = inst.agent.region;
  if (inst.agent?.zone !== undefined) json.agentZone = inst.agent.zone;
  return {
    ...json,
    resources: resourcesJson(instanceResources(views)),
    networks: networksJson(inst),
    containers,
    specReference: `/v2/pods${podId}::versions/${inst.runSpecVersion}`,
    localVolumes: localVolumesJson(inst),
    lastUpdated: since,
    lastChanged: since,
    role: inst.role,
  };
}

/**
 * `networks` of a pod instance: one entry with every distinct address its tasks reported when they
 * first ran, in task order, or none. Marathon groups the addresses by the name of the Mesos network
 * they are on; pacer keeps the addresses without it, so the entry has no `name`, as Marathon's
 * entry for addresses on an unnamed network (the host's) has none.
 */
function networksJson(inst: Instance): Record<string, unknown>[] {
  const addresses: string[] = [];
  for (const task of inst.tasks) {
    for (const ip of task.ipAddresses ?? []) if (!addresses.includes(ip.ipAddress)) addresses.push(ip.ipAddress);
  }
  return addresses.length === 0 ? [] : [{ addresses }];
}

function instanceResources(views: readonly ContainerView[]): ReturnType<typeof milliOf> {
  let sum = milliOf(EXECUTOR_RESOURCES_DEFAULT);
  for (const view of views) {
    const held = containerResourcesInUse(view);
    if (held !== undefined) sum = addResources(sum, held);
  }
  return sum;
}

/**
 * The instance state from its condition (fact 81): waiting for or just given an offer → PENDING;
 * staging or starting → STAGING; ended or being killed → TERMINAL; unreachable → DEGRADED;
 * running → STABLE unless a container reports itself unhealthy (then DEGRADED).
 */
export function instanceState(
  inst: Instance,
  containers: readonly Record<string, unknown>[],
): { status: PodInstanceState; message?: string } {
  const c = inst.condition;
  if (c === 'Scheduled' || c === 'Provisioned') return { status: 'PENDING' };
  if (c === 'Staging' || c === 'Starting') return { status: 'STAGING' };
  if (c === 'Killing' || isTerminalCondition(c)) return { status: 'TERMINAL' };
  if (isUnreachableCondition(c)) return { status: 'DEGRADED', message: INSTANCE_UNREACHABLE_MESSAGE };
  return containers.some(hasFailingHealth) ? { status: 'DEGRADED', message: INSTANCE_UNHEALTHY_MESSAGE } : { status: 'STABLE' };
}

function hasFailingHealth(container: Record<string, unknown>): boolean {
  const conditions = container.conditions as readonly Record<string, unknown>[];
  return conditions.some((cond) => cond.name === 'healthy' && cond.value === 'false');
}
