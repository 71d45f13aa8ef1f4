import type { PodContainer } from '../../scheduler/model/run-spec';
import type { ErrorSink } from './error-sink';
import { childPointer } from './json-pointer';
import { type ConvertedEndpoint, podEndpointsFromWire } from './pod-endpoints-from-wire';
import { podHealthCheckFromWire } from './pod-health-check-from-wire';
import { podNameFromWire } from './pod-name';
import { DEFAULT_RESOURCES, resourcesFromWire } from './resources-from-wire';
import { stringMapFromWire } from './string-map-from-wire';
import { WireObject } from './wire-object';

/** What a container sees of its pod. */
export interface PodScope {
  /** Pod-level environment, inherited by every container (containers may override). */
  readonly env: Readonly<Record<string, string>>;
  readonly volumeNames: ReadonlySet<string>;
  readonly networkMode: 'host' | 'container';
}

/** A converted pod container. */
export interface ConvertedPodContainer {
  readonly spec: PodContainer;
  readonly endpoints: readonly ConvertedEndpoint[];
  readonly wire: Readonly<Record<string, unknown>>;
}

/**
 * Converts one entry of `pod.containers` (spec 2.2). `resources` is required; its fields default to
 * cpus 1, mem 128, disk 0, gpus 0. Environment names must be capitalized. `volumeMounts` must name
 * volumes declared by the pod. Unset `exec`, `image`, `user`, `healthCheck`, `lifecycle` echo as
 * `null`; empty collections as `[]`/`{}`; `image.forcePull` defaults to false.
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
  const resourcesObj = c.child('resources');
  const resources = resourcesFromWire(resourcesObj, DEFAULT_RESOURCES);
  const exec = c.child('exec');
  const command = exec?.child('command')?.optionalString('shell');
  const endpoints = podEndpointsFromWire(c, scope.networkMode);
  const healthCheck = podHealthCheckFromWire(c, endpoints.map((e) => e.endpoint));
  const env = stringMapFromWire(c, 'environment', { secretRefs: true, capitalizedNames: true });
  const labels = stringMapFromWire(c, 'labels');
  const lifecycle = c.child('lifecycle');
  const killGraceSeconds = lifecycle?.optionalNumber('killGracePeriodSeconds', { min: 0 });
  const volumeMounts = volumeMountsOf(c, scope.volumeNames);
  if (name === undefined) return undefined;
  const spec: PodContainer = {
    name,
    resources: resources.resources,
    endpoints: endpoints.map((e) => e.endpoint),
    ...(healthCheck.spec !== undefined ? { healthCheck: healthCheck.spec } : {}),
    ...(command !== undefined ? { command } : {}),
    env: { ...scope.env, ...env.values },
    ...(killGraceSeconds !== undefined ? { killGracePeriodMs: Math.round(killGraceSeconds * 1000) } : {}),
  };
  const wire = c.withExtras({
    name,
    exec: exec?.raw ?? null,
    resources: resourcesObj?.withExtras(resources.wire) ?? resources.wire,
    endpoints: endpoints.map((e) => e.wire),
    image: imageOf(c),
    environment: env.wire,
    user: c.optionalString('user') ?? null,
    healthCheck: healthCheck.wire,
    volumeMounts,
    artifacts: c.array('artifacts') ?? [],
    labels: labels.wire,
    lifecycle: lifecycle?.withExtras({ killGracePeriodSeconds: killGraceSeconds }) ?? null,
  }, [], true);
  return { spec, endpoints, wire };
}

function imageOf(c: WireObject): Readonly<Record<string, unknown>> | null {
  const image = c.child('image');
  if (image === undefined) return null;
  const kind = image.optionalString('kind');
  if (kind !== undefined && kind !== 'DOCKER' && kind !== 'APPC') image.fail('kind', 'kind must be DOCKER or APPC');
  return image.withExtras({ kind, id: image.optionalString('id'), forcePull: image.boolean('forcePull', false) });
}

function volumeMountsOf(c: WireObject, volumeNames: ReadonlySet<string>): Readonly<Record<string, unknown>>[] {
  const list = c.array('volumeMounts') ?? [];
  const out: Readonly<Record<string, unknown>>[] = [];
  list.forEach((item, i) => {
    const mount = WireObject.of(item, childPointer(c.pathOf('volumeMounts'), i), c.sink);
    if (mount === undefined) return;
    const name = mount.optionalString('name');
    if (!mount.has('name')) mount.fail('name', 'error.path.missing');
    else if (name !== undefined && !volumeNames.has(name)) {
      mount.fail('name', `volume mount "${name}" does not name a volume declared by the pod`);
    }
    if (!mount.has('mountPath')) mount.fail('mountPath', 'error.path.missing');
    out.push(mount.withExtras({ name, mountPath: mount.optionalString('mountPath') }));
  });
  return out;
}
