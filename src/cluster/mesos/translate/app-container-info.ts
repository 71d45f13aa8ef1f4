import type { TaskLaunch } from '../../../scheduler/model/launch';
import type { AppSpec } from '../../../scheduler/model/run-spec';
import type { ContainerInfo, DockerInfo, DockerNetwork, Image, NetworkInfo, NetworkPortMapping, Parameter, Volume } from '../codec/mesos-model';
import { appNetworkMode, appNetworks, type AppNetworkMode } from './app-networks';
import { booleanOf, numberOf, objectOf, objectsOf, stringOf, type WireRecord } from './wire-read';

/** CNI network Mesos's containerizer uses for `container/bridge` networking. */
export const MESOS_BRIDGE_NETWORK = 'mesos-bridge';

const DOCKER_NETWORKS: Readonly<Record<AppNetworkMode, DockerNetwork>> = {
  host: 'HOST', 'container/bridge': 'BRIDGE', container: 'USER',
};

/**
 * An app task's `container` (mesos-v1-scheduler-api.md §5.2, §5.4), from the definition's
 * `container` and `networks`:
 *
 * - `type: DOCKER` → the Docker containerizer: `docker.image`, `network` (host → HOST,
 *   container/bridge → BRIDGE, container → USER with the network's name in `network_infos`),
 *   `port_mappings`, `privileged`, `parameters`, `force_pull_image`;
 * - `type: MESOS` (or no container) → the Mesos containerizer: `mesos.image` (a Docker image,
 *   `cached: false` when `forcePullImage`), networks as `network_infos` (`mesos-bridge` for
 *   container/bridge, the named networks for container) with the port mappings;
 * - host volumes (`containerPath`, `hostPath`, `mode`) in both; persistent, external and secret
 *   volumes are not translated (the core has no reservation / volume support yet).
 *
 * Port mappings get the task's host ports in order; a `containerPort` of 0 means "the same as the
 * host port". Undefined when the app needs no container at all: host networking, no image, no
 * volumes — the plain command executor.
 */
export function appContainerInfo(launch: TaskLaunch, spec: AppSpec): ContainerInfo | undefined {
  const container = objectOf(spec.definition.container);
  const mode = appNetworkMode(spec);
  const docker = objectOf(container?.docker);
  const image = stringOf(docker?.image);
  const volumes = hostVolumes(container);
  const mappings = mode === 'host' ? [] : portMappings(launch, container);
  if (container?.type === 'DOCKER' && image !== undefined) {
    return {
      type: 'DOCKER',
      docker: dockerInfo(image, docker ?? {}, mode, mappings),
      ...(mode === 'container' ? userNetworks(spec) : {}),
      ...(volumes.length > 0 ? { volumes } : {}),
    };
  }
  const networkInfos = mode === 'host' ? undefined : mesosNetworks(spec, mode, mappings);
  if (image === undefined && volumes.length === 0 && networkInfos === undefined) return undefined;
  return {
    type: 'MESOS',
    ...(image === undefined ? {} : { mesos: { image: mesosImage(image, docker) } }),
    ...(networkInfos === undefined ? {} : { networkInfos }),
    ...(volumes.length > 0 ? { volumes } : {}),
  };
}

/** Whether the app runs an image (then `args` are arguments to its entrypoint). */
export function appImage(spec: AppSpec): string | undefined {
  return stringOf(objectOf(objectOf(spec.definition.container)?.docker)?.image);
}

/** A Docker image for the Mesos containerizer; `forcePullImage` = never use the cache. */
function mesosImage(name: string, docker: WireRecord | undefined): Image {
  return { type: 'DOCKER', docker: { name }, ...(booleanOf(docker?.forcePullImage) === true ? { cached: false } : {}) };
}

function dockerInfo(image: string, docker: WireRecord, mode: AppNetworkMode, mappings: NetworkPortMapping[]): DockerInfo {
  const info: DockerInfo = { image, network: DOCKER_NETWORKS[mode] };
  if (mappings.length > 0) info.portMappings = mappings;
  if (booleanOf(docker.privileged) === true) info.privileged = true;
  if (booleanOf(docker.forcePullImage) === true) info.forcePullImage = true;
  const parameters = objectsOf(docker.parameters).flatMap((p): Parameter[] => {
    const key = stringOf(p.key);
    return key === undefined || typeof p.value !== 'string' ? [] : [{ key, value: p.value }];
  });
  if (parameters.length > 0) info.parameters = parameters;
  return info;
}

/** Docker USER networking names its network in `network_infos` (no port mappings there). */
function userNetworks(spec: AppSpec): { networkInfos?: NetworkInfo[] } {
  const named = appNetworks(spec).filter((n) => n.name !== undefined).map((n): NetworkInfo => ({ name: n.name }));
  return named.length > 0 ? { networkInfos: named } : {};
}

function mesosNetworks(spec: AppSpec, mode: AppNetworkMode, mappings: NetworkPortMapping[]): NetworkInfo[] {
  const withMappings = mappings.length > 0 ? { portMappings: mappings } : {};
  if (mode === 'container/bridge') return [{ name: MESOS_BRIDGE_NETWORK, ...withMappings }];
  return appNetworks(spec).filter((n) => n.mode === 'container').map((n, i): NetworkInfo => {
    const labels = Object.entries(n.labels).map(([key, value]) => ({ key, value }));
    return {
      ...(n.name === undefined ? {} : { name: n.name }),
      ...(labels.length > 0 ? { labels: { labels } } : {}),
      // One set of mappings: on the first network (Mesos maps ports once per container).
      ...(i === 0 ? withMappings : {}),
    };
  });
}

/** The mappings that have a host port, bound to the task's host ports in order. */
function portMappings(launch: TaskLaunch, container: WireRecord | undefined): NetworkPortMapping[] {
  let hostIndex = 0;
  return objectsOf(container?.portMappings).flatMap((m) => {
    if (numberOf(m.hostPort) === undefined) return [];
    const hostPort = launch.hostPorts[hostIndex++];
    if (hostPort === undefined) return [];
    const containerPort = numberOf(m.containerPort) ?? 0;
    const protocol = stringOf(m.protocol);
    return [{ hostPort, containerPort: containerPort > 0 ? containerPort : hostPort, ...(protocol === undefined ? {} : { protocol }) }];
  });
}

function hostVolumes(container: WireRecord | undefined): Volume[] {
  return objectsOf(container?.volumes).flatMap((v): Volume[] => {
    const containerPath = stringOf(v.containerPath);
    const hostPath = stringOf(v.hostPath);
    if (containerPath === undefined || hostPath === undefined || v.persistent !== undefined || v.external !== undefined) return [];
    return [{ containerPath, hostPath, mode: v.mode === 'RO' ? 'RO' : 'RW' }];
  });
}
