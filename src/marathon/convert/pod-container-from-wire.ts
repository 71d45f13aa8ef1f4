import type { Network } from '../../scheduler/model/networks';
import type { PodContainer, PodExec, PodImage } from '../../scheduler/model/pod';
import { PULL_CONFIG_SECRET_MESSAGE } from './app-container-from-wire';
import { artifactsFromWire } from './artifacts-from-wire';
import { resourceLimitsFromWire } from './app-from-wire';
import { mesosCommandFromWire, podCheckFromWire } from './checks-from-wire';
import type { ErrorSink } from './error-sink';
import { linuxInfoFromWire } from './linux-info-from-wire';
import { type ConvertedEndpoint, podEndpointsFromWire } from './pod-endpoints-from-wire';
import { podHealthCheckFromWire } from './pod-health-check-from-wire';
import { podNameFromWire } from './pod-name';
import { DEFAULT_RESOURCES, exactScalarsOf, milliOf, wireResourcesFrom } from './resources-from-wire';
import { labelsFromWire, stringMapFromWire } from './string-map-from-wire';
import { volumeMountsFromWire } from './volumes-from-wire';
import { WireObject } from './wire-object';

/** What a container sees of its pod. */
export interface PodScope {
  readonly volumeNames: ReadonlySet<string>;
  readonly networkMode: 'host' | 'container';
  /** The pod's `secrets` names: what a container's environment and image `pullConfig` may reference. */
  readonly secretNames: ReadonlySet<string>;
  /** A stored record: read without the rules added since it was accepted (`ConvertContext.storedRecord`). */
  readonly storedRecord: boolean;
  /** The pod's networks, which endpoints name. */
  readonly networks: readonly Network[];
}

/** A converted pod container, with its endpoints' pointers (for pod-wide checks). */
export interface ConvertedPodContainer {
  readonly spec: PodContainer;
  readonly endpoints: readonly ConvertedEndpoint[];
}

const IMAGE_KINDS = ['DOCKER', 'APPC'] as const;

/**
 * Converts one entry of `pod.containers` (spec 2.2). `resources` is required; its fields default to
 * cpus 1, mem 128, disk 0, gpus 0. Environment names must be capitalized. `volumeMounts` must name
 * volumes declared by the pod; `image.forcePull` defaults to false.
 */
export function podContainerFromWire(
  item: unknown,
  path: string,
  sink: ErrorSink,
  scope: PodScope,
): ConvertedPodContainer | undefined {
  const c = WireObject.of(item, path, sink);
  if (c === undefined) return undefined;
  const name = podNameFromWire(c, 'name');
  if (!c.has('resources')) c.fail('resources', 'error.path.missing');
  const wireResources = wireResourcesFrom(c.child('resources'), DEFAULT_RESOURCES);
  const exactResources = exactScalarsOf(wireResources);
  const exec = execOf(c);
  const endpoints = podEndpointsFromWire(c, scope.networkMode, scope.storedRecord ? undefined : scope.networks);
  const healthCheck = podHealthCheckFromWire(c, endpoints.map((e) => e.endpoint), !scope.storedRecord);
  const env = stringMapFromWire(c, 'environment', { secretRefs: true, capitalizedNames: true, declaredSecrets: scope.secretNames });
  const labels = labelsFromWire(c);
  const killGraceSeconds = c.child('lifecycle')?.optionalNumber('killGracePeriodSeconds', { min: 0 });
  const volumeMounts = volumeMountsFromWire(c, scope.volumeNames);
  const image = imageOf(c, scope);
  const user = c.optionalString('user');
  const artifacts = artifactsFromWire(c, 'artifacts');
  const check = podCheckFromWire(c);
  const resourceLimits = resourceLimitsFromWire(c, scope.storedRecord ? undefined : wireResources);
  const linuxInfo = linuxInfoFromWire(c);
  const tty = c.optionalBoolean('tty');
  if (name === undefined) return undefined;
  const spec: PodContainer = {
    name,
    resources: milliOf(wireResources),
    ...(exactResources === undefined ? {} : { exactResources }),
    ...(resourceLimits === undefined ? {} : { resourceLimits }),
    endpoints: endpoints.map((e) => e.endpoint),
    ...(image === undefined ? {} : { image }),
    ...(exec === undefined ? {} : { exec }),
    env: env.values,
    envSecrets: env.secrets,
    ...(user === undefined ? {} : { user }),
    ...(healthCheck === undefined ? {} : { healthCheck }),
    ...(check === undefined ? {} : { check }),
    volumeMounts,
    artifacts,
    labels,
    ...(killGraceSeconds === undefined ? {} : { killGracePeriodMs: Math.round(killGraceSeconds * 1000) }),
    ...(tty === undefined ? {} : { tty }),
    ...(linuxInfo === undefined ? {} : { linuxInfo }),
  };
  return { spec, endpoints };
}

function execOf(c: WireObject): PodExec | undefined {
  const exec = c.child('exec');
  if (exec === undefined) return undefined;
  const command = mesosCommandFromWire(exec, 'command');
  const overrideEntrypoint = exec.optionalBoolean('overrideEntrypoint');
  if (command === undefined) return undefined;
  return { command, ...(overrideEntrypoint === undefined ? {} : { overrideEntrypoint }) };
}

function imageOf(c: WireObject, scope: PodScope): PodImage | undefined {
  const image = c.child('image');
  if (image === undefined) return undefined;
  const kind = image.requiredString('kind');
  const knownKind = IMAGE_KINDS.find((k) => k === kind);
  if (kind !== undefined && knownKind === undefined) image.fail('kind', 'kind must be DOCKER or APPC');
  const id = image.requiredString('id');
  const forcePull = image.boolean('forcePull', false);
  const pullSecret = image.child('pullConfig')?.requiredString('secret');
  // Marathon's `PodsValidation.imageValidator` (a DOCKER image's only rule besides the feature).
  if (!scope.storedRecord && knownKind === 'DOCKER' && pullSecret !== undefined && !scope.secretNames.has(pullSecret)) {
    image.fail('pullConfig', PULL_CONFIG_SECRET_MESSAGE);
  }
  const labels = labelsFromWire(image);
  if (knownKind === undefined || id === undefined) return undefined;
  return { kind: knownKind, id, forcePull, ...(pullSecret === undefined ? {} : { pullConfig: { secret: pullSecret } }), labels };
}
