import type { PodContainer, PodSpec } from '../../scheduler/model/pod';
import type { PodVolume } from '../../scheduler/model/volumes';
import { secretNamesOf, secretsFromWire } from './app-from-wire';
import type { ConvertContext } from './convert-context';
import type { ConvertResult } from './convert-result';
import { ErrorSink } from './error-sink';
import { podFeatureRules } from './feature-rules';
import { childPointer } from './json-pointer';
import { linuxInfoFromWire } from './linux-info-from-wire';
import { pathIdFromWire } from './path-id';
import { type ConvertedPodContainer, podContainerFromWire, type PodScope } from './pod-container-from-wire';
import { podNetworksFromWire } from './pod-networks-from-wire';
import { podSchedulingFromWire } from './pod-scheduling-from-wire';
import { exactScalarsOf, milliOf, wireResourcesFrom, type WireResources } from './resources-from-wire';
import { resolveRoles } from './role-rules';
import { labelsFromWire, stringMapFromWire } from './string-map-from-wire';
import { podVolumesFromWire } from './volumes-from-wire';
import { WireObject } from './wire-object';

/** Executor overhead per pod instance when `executorResources` is not given (spec 2.1.4). */
export const EXECUTOR_RESOURCES_DEFAULT: WireResources = { cpus: 0.1, mem: 32, disk: 10, gpus: 0 };

/**
 * Converts a Marathon pod definition (the body of `POST /v2/pods`, Marathon's `Pod`) into the
 * core's run spec model ({@link PodSpec}, spec 2.1–2.3, 2.6, 2.7 with the conflicts resolved in
 * spec/README.md). All semantic problems are collected with their JSON pointers.
 */
export function podFromWire(json: unknown, ctx: ConvertContext): ConvertResult<PodSpec> {
  const sink = new ErrorSink();
  const pod = WireObject.of(json, '', sink);
  if (pod === undefined) return { ok: false, errors: sink.details() };
  const spec = readPod(pod, ctx);
  if (sink.failed || spec === undefined) return { ok: false, errors: sink.details() };
  return { ok: true, spec };
}

function readPod(pod: WireObject, ctx: ConvertContext): PodSpec | undefined {
  // Read in the order problems have always been reported in.
  const id = pathIdFromWire(pod);
  const storedRecord = ctx.storedRecord === true;
  const volumes = podVolumesFromWire(pod, secretNamesOf(pod), storedRecord);
  const networks = podNetworksFromWire(pod, ctx);
  const secrets = secretsFromWire(pod);
  const secretNames: ReadonlySet<string> = new Set(Object.keys(secrets));
  const env = stringMapFromWire(pod, 'environment', { secretRefs: true, capitalizedNames: true, declaredSecrets: secretNames });
  const scope: PodScope = { volumeNames: volumes.names, networkMode: networks.mode, secretNames, storedRecord, networks: networks.networks };
  const scheduling = podSchedulingFromWire(pod, volumes.resident);
  const placement = pod.child('scheduling')?.child('placement');
  const labels = labelsFromWire(pod);
  const containers = containersOf(pod, scope);
  const scaling = scalingOf(pod);
  const wireExecutorResources = wireResourcesFrom(pod.child('executorResources'), EXECUTOR_RESOURCES_DEFAULT);
  const exactExecutorResources = exactScalarsOf(wireExecutorResources);
  const roles = resolveRoles({
    roleHolder: pod, acceptedHolder: placement, id, resident: volumes.resident, noun: 'pod', emptyAcceptedIsDefault: true,
  }, ctx);
  const user = pod.optionalString('user');
  if (!storedRecord) podRules(pod, containers.map((c) => c.spec), volumes.volumes, user);
  const linuxInfo = linuxInfoFromWire(pod);
  const legacySharedCgroups = pod.optionalBoolean('legacySharedCgroups');
  const spec: PodSpec = {
    kind: 'pod',
    id: id ?? '/',
    version: ctx.versionIso,
    versionInfo: { lastScalingAt: ctx.versionIso, lastConfigChangeAt: ctx.versionIso },
    instances: scaling.instances,
    role: roles.role,
    acceptedResourceRoles: roles.acceptedResourceRoles,
    constraints: scheduling.constraints,
    backoff: scheduling.backoff,
    upgrade: scheduling.upgrade,
    unreachable: scheduling.unreachable,
    killSelection: scheduling.killSelection,
    labels,
    resident: volumes.resident,
    containers: containers.map((c) => c.spec),
    executorResources: milliOf(wireExecutorResources),
    ...(exactExecutorResources === undefined ? {} : { exactExecutorResources }),
    networks: networks.networks,
    networkMode: networks.mode,
    volumes: volumes.volumes,
    ...(user === undefined ? {} : { user }),
    env: env.values,
    envSecrets: env.secrets,
    secrets,
    ...(scaling.maxInstances === undefined ? {} : { maxInstances: scaling.maxInstances }),
    ...(linuxInfo === undefined ? {} : { linuxInfo }),
    ...(legacySharedCgroups === undefined ? {} : { legacySharedCgroups }),
  };
  podFeatureRules(pod, { secretCount: Object.keys(secrets).length, envSecretCount: Object.keys(env.secrets).length }, ctx);
  return id === undefined ? undefined : spec;
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

/** Marathon's pod-wide messages (`PodsValidationMessages`). */
export const CONTAINER_PORTS_UNIQUE_MESSAGE = 'container ports must be unique across all containers';
export const HOST_PORTS_UNIQUE_MESSAGE = 'host ports must be unique across all containers';
export const UNREFERENCED_VOLUME_MESSAGE = 'volume must be referenced by at least one container';

/**
 * Marathon's pod-wide rules pacer added after accepting pods without them (so for a pod a client
 * sends, not a stored record), at Marathon's paths: non-zero container ports and host ports unique
 * across all containers (`/`; two endpoints asking for one host port could never be placed), every
 * volume mounted by some container (`/volumes/i`), `user` not empty.
 */
function podRules(pod: WireObject, containers: readonly PodContainer[], volumes: readonly PodVolume[], user: string | undefined): void {
  const endpoints = containers.flatMap((c) => c.endpoints);
  const containerPorts = endpoints.flatMap((e) => (e.containerPort === undefined || e.containerPort === 0 ? [] : [e.containerPort]));
  if (new Set(containerPorts).size !== containerPorts.length) pod.sink.add('', CONTAINER_PORTS_UNIQUE_MESSAGE);
  const hostPorts = endpoints.flatMap((e) => (e.hostPort === undefined || e.hostPort === 0 ? [] : [e.hostPort]));
  if (new Set(hostPorts).size !== hostPorts.length) pod.sink.add('', HOST_PORTS_UNIQUE_MESSAGE);
  const mounted = new Set(containers.flatMap((c) => c.volumeMounts.map((m) => m.name)));
  const raw = pod.array('volumes') ?? [];
  for (const v of volumes) {
    const i = raw.findIndex((r) => typeof r === 'object' && r !== null && (r as { name?: unknown }).name === v.name);
    if (!mounted.has(v.name)) pod.sink.add(childPointer(pod.pathOf('volumes'), i), UNREFERENCED_VOLUME_MESSAGE);
  }
  if (user === '') pod.fail('user', 'must not be empty');
}

function scalingOf(pod: WireObject): { instances: number; maxInstances?: number } {
  const scaling = pod.child('scaling');
  const kind = scaling?.string('kind', 'fixed') ?? 'fixed';
  if (kind.toLowerCase() !== 'fixed') scaling?.fail('kind', 'only fixed scaling is supported');
  const instances = scaling?.number('instances', 1, { min: 0, integer: true }) ?? 1;
  const maxInstances = scaling?.optionalNumber('maxInstances', { min: 0, integer: true });
  if (maxInstances !== undefined && maxInstances < instances) {
    scaling?.fail('maxInstances', 'maxInstances must be greater than or equal to instances');
  }
  return { instances, ...(maxInstances === undefined ? {} : { maxInstances }) };
}
