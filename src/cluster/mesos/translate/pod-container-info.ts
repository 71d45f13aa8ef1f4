import type { TaskLaunch } from '../../../scheduler/model/launch';
import type { PodSpec } from '../../../scheduler/model/run-spec';
import type { ContainerInfo, Image, NetworkInfo, NetworkPortMapping, Volume } from '../codec/mesos-model';
import { booleanOf, objectOf, objectsOf, stringMapOf, stringOf, type WireRecord } from './wire-read';

/**
 * A pod image of kind APPC. `mesos-model.ts` has no `Image.appc` yet; until it does, the codec
 * may drop `appc` (see the report), but the TaskInfo says what the pod asked for.
 */
type AppcImage = Image & { readonly appc: { readonly name: string } };

/** The wire definition of one pod container (`definition.containers[i]`). */
export function podContainerWire(spec: PodSpec, containerName: string | undefined): WireRecord | undefined {
  return objectsOf(spec.definition.containers).find((c) => c.name === containerName);
}

/**
 * The `container` of one pod task (mesos-v1-scheduler-api.md §5.3, §5.4): always the Mesos
 * containerizer (spec section 1 rule 4), with the container's `image` (`DOCKER` or `APPC`,
 * `cached: false` when `forcePull`) and its `volumeMounts`:
 * an ephemeral pod volume (only a `name`) is the executor sandbox directory of that name shared
 * through `SANDBOX_PATH` / `PARENT` (§5.3); a `host` volume is an absolute `HOST_PATH`, or a
 * directory of the executor sandbox when relative (spec 2.1.1). Persistent volumes are not
 * translated (no reservation support yet). Undefined when the task needs neither.
 * Tasks of a group never carry `network_infos`: networks belong to the executor (§5.3).
 */
export function podTaskContainer(launch: TaskLaunch, spec: PodSpec): ContainerInfo | undefined {
  const wire = podContainerWire(spec, launch.containerName);
  const image = imageOf(objectOf(wire?.image));
  const volumes = volumesOf(spec, wire);
  if (image === undefined && volumes.length === 0) return undefined;
  return { type: 'MESOS', ...(image === undefined ? {} : { mesos: { image } }), ...(volumes.length > 0 ? { volumes } : {}) };
}

/**
 * The default executor's `container` (§5.3: type MESOS, no image): the pod's container networks
 * as `network_infos` — name, labels and, on the first network, the port mappings of every
 * endpoint that has a host port (host port → container port, one mapping per tcp/udp protocol).
 * Undefined under host networking, where the executor needs no container.
 */
export function podExecutorContainer(spec: PodSpec, tasks: readonly TaskLaunch[]): ContainerInfo | undefined {
  if (spec.networkMode !== 'container') return undefined;
  const mappings = podPortMappings(spec, tasks);
  const networks = objectsOf(spec.definition.networks).filter((n) => n.mode !== 'host');
  const networkInfos = networks.map((n, i): NetworkInfo => {
    const name = stringOf(n.name);
    const labels = Object.entries(stringMapOf(n.labels)).map(([key, value]) => ({ key, value }));
    return {
      ...(name === undefined ? {} : { name }),
      ...(labels.length > 0 ? { labels: { labels } } : {}),
      ...(i === 0 && mappings.length > 0 ? { portMappings: mappings } : {}),
    };
  });
  return { type: 'MESOS', ...(networkInfos.length > 0 ? { networkInfos } : {}) };
}

function podPortMappings(spec: PodSpec, tasks: readonly TaskLaunch[]): NetworkPortMapping[] {
  const out: NetworkPortMapping[] = [];
  for (const container of spec.containers) {
    const task = tasks.find((t) => t.containerName === container.name);
    let hostIndex = 0;
    for (const e of container.endpoints) {
      if (e.hostPort === undefined) continue;
      const hostPort = task?.hostPorts[hostIndex++];
      if (hostPort === undefined) continue;
      const containerPort = e.containerPort !== undefined && e.containerPort > 0 ? e.containerPort : hostPort;
      for (const protocol of transportProtocols(e.protocol)) out.push({ hostPort, containerPort, protocol });
    }
  }
  return out;
}

/** Endpoint protocols as transport protocols: `udp` stays, anything else (`tcp`, `http`) is tcp; no duplicates. */
function transportProtocols(protocols: readonly string[]): string[] {
  const out = new Set(protocols.map((p) => (p.toLowerCase() === 'udp' ? 'udp' : 'tcp')));
  return out.size > 0 ? [...out] : ['tcp'];
}

function imageOf(image: WireRecord | undefined): Image | AppcImage | undefined {
  const id = stringOf(image?.id);
  if (image === undefined || id === undefined) return undefined;
  const cached = booleanOf(image.forcePull) === true ? { cached: false } : {};
  if (image.kind === 'APPC') return { type: 'APPC', appc: { name: id }, ...cached };
  return { type: 'DOCKER', docker: { name: id }, ...cached };
}

function volumesOf(spec: PodSpec, container: WireRecord | undefined): Volume[] {
  const declared = objectsOf(spec.definition.volumes);
  return objectsOf(container?.volumeMounts).flatMap((mount): Volume[] => {
    const name = stringOf(mount.name);
    const containerPath = stringOf(mount.mountPath);
    const volume = declared.find((v) => v.name === name);
    if (name === undefined || containerPath === undefined || volume === undefined || volume.persistent !== undefined) return [];
    const mode = booleanOf(mount.readOnly) === true ? 'RO' : 'RW';
    const host = stringOf(volume.host);
    if (host !== undefined && host.startsWith('/')) return [{ containerPath, mode, source: { type: 'HOST_PATH', hostPath: { path: host } } }];
    return [{ containerPath, mode, source: { type: 'SANDBOX_PATH', sandboxPath: { type: 'PARENT', path: host ?? name } } }];
  });
}
