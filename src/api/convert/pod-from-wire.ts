import { podPersistentVolumes } from './persistent-volumes-from-wire';
import type { PodSpec } from '../../scheduler/model/run-spec';
import type { ConvertContext } from './convert-context';
import type { ConvertResult } from './convert-result';
import { ErrorSink } from './error-sink';
import { childPointer } from './json-pointer';
import { pathIdFromWire } from './path-id';
import { type ConvertedPodContainer, podContainerFromWire, type PodScope } from './pod-container-from-wire';
import { type ConvertedPodNetworks, podNetworksFromWire } from './pod-networks-from-wire';
import { type ConvertedPodScheduling, podSchedulingFromWire } from './pod-scheduling-from-wire';
import { type ConvertedPodVolumes, podVolumesFromWire } from './pod-volumes-from-wire';
import { type ConvertedResources, resourcesFromWire, type WireResources } from './resources-from-wire';
import { type ResolvedRoles, resolveRoles } from './role-rules';
import { type ConvertedStringMap, stringMapFromWire } from './string-map-from-wire';
import { WireObject } from './wire-object';

/** Executor overhead per pod instance when `executorResources` is not given (spec 2.1.4). */
export const EXECUTOR_RESOURCES_DEFAULT: WireResources = { cpus: 0.1, mem: 32, disk: 10, gpus: 0 };

interface Scaling {
  readonly instances: number;
  readonly wire: Readonly<Record<string, unknown>>;
}

interface PodParts {
  readonly id: string | undefined;
  readonly volumes: ConvertedPodVolumes;
  readonly networks: ConvertedPodNetworks;
  readonly env: ConvertedStringMap;
  readonly labels: ConvertedStringMap;
  readonly containers: readonly ConvertedPodContainer[];
  readonly scaling: Scaling;
  readonly scheduling: ConvertedPodScheduling;
  readonly executor: ConvertedResources;
  readonly roles: ResolvedRoles;
}

/**
 * Converts a Marathon pod definition (the body of `POST /v2/pods`) into the core's normalized
 * {@link PodSpec} (spec 2.1–2.3, 2.6, 2.7 with the conflicts resolved in spec/README.md). The
 * `definition` echoes the pod with every default filled, empty collections as `[]`/`{}` and
 * unset optional scalars as `null`. All semantic problems are collected with their JSON pointers.
 */
export function podFromWire(json: unknown, ctx: ConvertContext): ConvertResult<PodSpec> {
  const sink = new ErrorSink();
  const pod = WireObject.of(json, '', sink);
  if (pod === undefined) return { ok: false, errors: sink.details() };
  const parts = readPod(pod, ctx);
  if (sink.failed || parts.id === undefined) return { ok: false, errors: sink.details() };
  return { ok: true, spec: buildSpec(pod, { ...parts, id: parts.id }, ctx) };
}

function readPod(pod: WireObject, ctx: ConvertContext): PodParts {
  const id = pathIdFromWire(pod);
  const volumes = podVolumesFromWire(pod);
  const networks = podNetworksFromWire(pod, ctx);
  const env = stringMapFromWire(pod, 'environment', { secretRefs: true, capitalizedNames: true });
  const scope: PodScope = { env: env.values, volumeNames: volumes.names, networkMode: networks.mode };
  const scheduling = podSchedulingFromWire(pod, volumes.resident);
  const placement = pod.child('scheduling')?.child('placement');
  return {
    id, volumes, networks, env, scheduling,
    labels: stringMapFromWire(pod, 'labels'),
    containers: containersOf(pod, scope),
    scaling: scalingOf(pod),
    executor: resourcesFromWire(pod.child('executorResources'), EXECUTOR_RESOURCES_DEFAULT),
    roles: resolveRoles({
      roleHolder: pod, acceptedHolder: placement, id, resident: volumes.resident, noun: 'pod', emptyAcceptedIsDefault: true,
    }, ctx),
  };
}

function containersOf(pod: WireObject, scope: PodScope): ConvertedPodContainer[] {
  if (!pod.has('containers')) pod.fail('containers', 'error.path.missing');
  const list = pod.array('containers') ?? [];
  if (pod.has('containers') && list.length === 0) pod.fail('containers', 'error.minLength');
  const out: ConvertedPodContainer[] = [];
  list.forEach((item, i) => {
    const converted = podContainerFromWire(item, childPointer(pod.pathOf('containers'), i), pod.sink, scope);
    if (converted !== undefined) out.push(converted);
  });
  const names = out.map((c) => c.spec.name);
  if (new Set(names).size !== names.length) pod.fail('containers', 'container names must be unique');
  checkEndpointNames(pod, out);
  return out;
}

function checkEndpointNames(pod: WireObject, containers: readonly ConvertedPodContainer[]): void {
  const seen = new Set<string>();
  for (const e of containers.flatMap((c) => c.endpoints)) {
    if (seen.has(e.endpoint.name)) pod.sink.add(e.namePath, 'endpoint names must be unique across all containers of a pod');
    seen.add(e.endpoint.name);
  }
}

function scalingOf(pod: WireObject): Scaling {
  const scaling = pod.child('scaling');
  const kind = scaling?.string('kind', 'fixed') ?? 'fixed';
  if (kind.toLowerCase() !== 'fixed') scaling?.fail('kind', 'only fixed scaling is supported');
  const instances = scaling?.number('instances', 1, { min: 0, integer: true }) ?? 1;
  const maxInstances = scaling?.optionalNumber('maxInstances', { min: 0, integer: true });
  if (maxInstances !== undefined && maxInstances < instances) {
    scaling?.fail('maxInstances', 'maxInstances must be greater than or equal to instances');
  }
  const canonical = { kind: 'fixed', instances, maxInstances: maxInstances ?? null };
  return { instances, wire: scaling?.withExtras(canonical, [], true) ?? canonical };
}

function buildSpec(pod: WireObject, p: PodParts & { id: string }, ctx: ConvertContext): PodSpec {
  return {
    kind: 'pod',
    id: p.id,
    version: ctx.versionIso,
    versionInfo: { lastScalingAt: ctx.versionIso, lastConfigChangeAt: ctx.versionIso },
    instances: p.scaling.instances,
    role: p.roles.role,
    acceptedResourceRoles: p.roles.acceptedResourceRoles,
    constraints: p.scheduling.constraints.constraints,
    backoff: p.scheduling.backoff,
    upgrade: p.scheduling.upgrade.policy,
    unreachable: p.scheduling.unreachable.policy,
    killSelection: p.scheduling.killSelection,
    labels: p.labels.values,
    resident: p.volumes.resident,
    ...(p.volumes.resident ? { persistentVolumes: podPersistentVolumes(p.volumes.wire) } : {}),
    definition: definitionOf(pod, p, ctx),
    containers: p.containers.map((c) => c.spec),
    executorResources: p.executor.resources,
    networkMode: p.networks.mode,
  };
}

/** The pod as echoed: defaults filled, empty collections `[]`/`{}`, unset optional scalars `null`. */
function definitionOf(pod: WireObject, p: PodParts & { id: string }, ctx: ConvertContext): Readonly<Record<string, unknown>> {
  const { cpus, mem, disk } = p.executor.wire;
  const executorObj = pod.child('executorResources');
  return pod.withExtras({
    id: p.id,
    version: ctx.versionIso,
    labels: p.labels.wire,
    environment: p.env.wire,
    user: pod.optionalString('user') ?? null,
    containers: p.containers.map((c) => c.wire),
    secrets: pod.child('secrets')?.raw ?? {},
    volumes: p.volumes.wire,
    networks: p.networks.wire,
    scaling: p.scaling.wire,
    scheduling: p.scheduling.wire(p.roles.acceptedResourceRoles),
    executorResources: executorObj?.withExtras({ cpus, mem, disk }) ?? { cpus, mem, disk },
    role: p.roles.role,
  }, ['versionInfo'], true);
}
