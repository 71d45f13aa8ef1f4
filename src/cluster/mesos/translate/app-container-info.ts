import type { LaunchNetworking, LaunchVolume, TaskLaunch } from '../../../scheduler/model/launch';
import type { NetworkMode } from '../../../scheduler/model/networks';
import type { ContainerInfo, DockerInfo, DockerNetwork, Image, NetworkInfo, NetworkPortMapping, Volume } from '../codec/mesos-model';

/** CNI network Mesos's containerizer uses for `container/bridge` networking. */
export const MESOS_BRIDGE_NETWORK = 'mesos-bridge';

const DOCKER_NETWORKS: Readonly<Record<NetworkMode, DockerNetwork>> = {
  host: 'HOST', 'container/bridge': 'BRIDGE', container: 'USER',
};

const HOST_NETWORKING: LaunchNetworking = { mode: 'host', networks: [], portMappings: [] };

/**
 * An app task's `container` (mesos-v1-scheduler-api.md §5.2, §5.4), from the launch:
 *
 * - the Docker containerizer (`launch.docker`: an app container of `type: DOCKER`): `docker.image`,
 *   `network` (host → HOST, container/bridge → BRIDGE, container → USER with the network's name in
 *   `network_infos`), `port_mappings`, `privileged`, `parameters`, `force_pull_image`;
 * - otherwise the Mesos containerizer: `mesos.image` (a Docker image, `cached: false` when it is
 *   to be pulled), networks as `network_infos` (`mesos-bridge` for container/bridge, the named
 *   networks for container) with the port mappings;
 * - host volumes (`containerPath`, `hostPath`, `mode`) in both.
 *
 * The port mappings are the launch's, bound to the task's host ports. Undefined when the app needs
 * no container at all: host networking, no image, no volumes — the plain command executor.
 */
export function appContainerInfo(launch: TaskLaunch): ContainerInfo | undefined {
  const networking = launch.networking ?? HOST_NETWORKING;
  const mappings: NetworkPortMapping[] = networking.portMappings.map((m) => ({ ...m }));
  const volumes = launch.volumes.flatMap(appVolume);
  const image = launch.image;
  if (launch.docker !== undefined && image !== undefined) {
    return {
      type: 'DOCKER',
      docker: dockerInfo(launch, image.id, networking.mode, mappings),
      ...(networking.mode === 'container' ? userNetworks(networking) : {}),
      ...(volumes.length > 0 ? { volumes } : {}),
    };
  }
  const networkInfos = networking.mode === 'host' ? undefined : mesosNetworks(networking, mappings);
  if (image === undefined && volumes.length === 0 && networkInfos === undefined) return undefined;
  return {
    type: 'MESOS',
    ...(image === undefined ? {} : { mesos: { image: mesosImage(image.id, image.forcePull) } }),
    ...(networkInfos === undefined ? {} : { networkInfos }),
    ...(volumes.length > 0 ? { volumes } : {}),
  };
}

/** A Docker image for the Mesos containerizer; `forcePull` = never use the cache. */
function mesosImage(name: string, forcePull: boolean): Image {
  return { type: 'DOCKER', docker: { name }, ...(forcePull ? { cached: false } : {}) };
}

function dockerInfo(launch: TaskLaunch, image: string, mode: NetworkMode, mappings: NetworkPortMapping[]): DockerInfo {
  const info: DockerInfo = { image, network: DOCKER_NETWORKS[mode] };
  if (mappings.length > 0) info.portMappings = mappings;
  if (launch.docker?.privileged === true) info.privileged = true;
  if (launch.image?.forcePull === true) info.forcePullImage = true;
  const parameters = (launch.docker?.parameters ?? []).filter((p) => p.key !== '').map((p) => ({ key: p.key, value: p.value }));
  if (parameters.length > 0) info.parameters = parameters;
  return info;
}

/** Docker USER networking names its network in `network_infos` (no port mappings there). */
function userNetworks(networking: LaunchNetworking): { networkInfos?: NetworkInfo[] } {
  const named = networking.networks.flatMap((n): NetworkInfo[] => (n.name === undefined ? [] : [{ name: n.name }]));
  return named.length > 0 ? { networkInfos: named } : {};
}

function mesosNetworks(networking: LaunchNetworking, mappings: NetworkPortMapping[]): NetworkInfo[] {
  const withMappings = mappings.length > 0 ? { portMappings: mappings } : {};
  if (networking.mode === 'container/bridge') return [{ name: MESOS_BRIDGE_NETWORK, ...withMappings }];
  return networking.networks.map((n, i): NetworkInfo => {
    const labels = Object.entries(n.labels).map(([key, value]) => ({ key, value }));
    return {
      ...(n.name === undefined ? {} : { name: n.name }),
      ...(labels.length > 0 ? { labels: { labels } } : {}),
      // One set of mappings: on the first network (Mesos maps ports once per container).
      ...(i === 0 ? withMappings : {}),
    };
  });
}

/** An app's host volume in the old-style `Volume` form (`container_path`, `host_path`, `mode`). */
function appVolume(v: LaunchVolume): Volume[] {
  return v.kind === 'host' ? [{ containerPath: v.containerPath, hostPath: v.hostPath, mode: v.mode }] : [];
}
