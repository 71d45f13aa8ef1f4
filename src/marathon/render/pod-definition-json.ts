import type { PodContainer, PodEndpoint, PodExec, PodImage, PodSpec } from '../../scheduler/model/pod';
import { linuxInfoJson } from './app-container-json';
import { secretsJson } from './app-definition-json';
import { checkJson, mesosCommandJson } from './checks-json';
import { envJson } from './env-json';
import { artifactJson } from './fetch-json';
import { healthCheckJson } from './health-check-json';
import { isEmptyMap, seconds } from './json-helpers';
import { podNetworkJson } from './networks-json';
import { podConstraintJson, unreachableJson, upgradeJson } from './policies-json';
import { executorResourcesJson, resourcesJson } from './scalars-json';
import { podVolumeJson, volumeMountJson } from './volumes-json';

/** Options of {@link podDefinitionJson}. */
export interface PodDefinitionJsonOptions {
  /** Write `versionInfo` (default true; the queue's `pod` has none). */
  readonly versionInfo?: boolean;
}

/**
 * A pod as the API shows it (`POST`/`PUT`/`GET /v2/pods…`, `::versions/{v}`, the `spec` of a pod
 * status, group views, the queue) and as the store keeps it, from the model, by the spec's rule
 * (spec 2.1): every default, empty collections written as `[]`/`{}` and unset optional scalars as
 * `null`; `version` and `versionInfo` of this version last.
 */
export function podDefinitionJson(pod: PodSpec, options: PodDefinitionJsonOptions = {}): Record<string, unknown> {
  const json: Record<string, unknown> = {
    id: pod.id,
    version: pod.version,
    labels: { ...pod.labels },
    environment: envJson(pod.env, pod.envSecrets),
    user: pod.user ?? null,
    containers: pod.containers.map(podContainerJson),
    secrets: secretsJson(pod.secrets),
    volumes: pod.volumes.map(podVolumeJson),
    networks: pod.networks.map(podNetworkJson),
    scaling: { kind: 'fixed', instances: pod.instances, maxInstances: pod.maxInstances ?? null },
    scheduling: {
      backoff: { backoff: seconds(pod.backoff.initialMs), backoffFactor: pod.backoff.factor, maxLaunchDelay: seconds(pod.backoff.maxMs) },
      upgrade: upgradeJson(pod.upgrade),
      placement: { constraints: pod.constraints.map(podConstraintJson), acceptedResourceRoles: [...pod.acceptedResourceRoles] },
      killSelection: pod.killSelection,
      unreachableStrategy: unreachableJson(pod.unreachable),
    },
    executorResources: executorResourcesJson(pod.executorResources, pod.exactExecutorResources),
    role: pod.role,
  };
  if (pod.linuxInfo !== undefined) json.linuxInfo = linuxInfoJson(pod.linuxInfo);
  if (pod.legacySharedCgroups !== undefined) json.legacySharedCgroups = pod.legacySharedCgroups;
  if (options.versionInfo !== false) json.versionInfo = { ...pod.versionInfo };
  return json;
}

function podContainerJson(c: PodContainer): Record<string, unknown> {
  const json: Record<string, unknown> = {
    name: c.name,
    exec: c.exec === undefined ? null : execJson(c.exec),
    resources: resourcesJson(c.resources, c.exactResources),
    endpoints: c.endpoints.map(endpointJson),
    image: c.image === undefined ? null : imageJson(c.image),
    environment: envJson(c.env, c.envSecrets),
    user: c.user ?? null,
    healthCheck: c.healthCheck === undefined ? null : healthCheckJson(c.healthCheck),
    volumeMounts: c.volumeMounts.map(volumeMountJson),
    artifacts: c.artifacts.map(artifactJson),
    labels: { ...c.labels },
    lifecycle: c.killGracePeriodMs === undefined ? null : { killGracePeriodSeconds: seconds(c.killGracePeriodMs) },
  };
  if (c.resourceLimits !== undefined) json.resourceLimits = { ...c.resourceLimits };
  if (c.linuxInfo !== undefined) json.linuxInfo = linuxInfoJson(c.linuxInfo);
  if (c.check !== undefined) json.check = checkJson(c.check);
  if (c.tty !== undefined) json.tty = c.tty;
  return json;
}

function execJson(exec: PodExec): Record<string, unknown> {
  const json: Record<string, unknown> = { command: mesosCommandJson(exec.command) };
  if (exec.overrideEntrypoint !== undefined) json.overrideEntrypoint = exec.overrideEntrypoint;
  return json;
}

function endpointJson(e: PodEndpoint): Record<string, unknown> {
  const json: Record<string, unknown> = {
    name: e.name, containerPort: e.containerPort ?? null, hostPort: e.hostPort ?? null, protocol: [...e.protocol], labels: { ...e.labels },
  };
  if (e.networkNames.length > 0) json.networkNames = [...e.networkNames];
  return json;
}

function imageJson(image: PodImage): Record<string, unknown> {
  const json: Record<string, unknown> = { kind: image.kind, id: image.id, forcePull: image.forcePull };
  if (image.pullConfig !== undefined) json.pullConfig = { ...image.pullConfig };
  if (!isEmptyMap(image.labels)) json.labels = { ...image.labels };
  return json;
}
