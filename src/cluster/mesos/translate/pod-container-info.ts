import type { LaunchImage, LaunchNetworking, LaunchVolume, TaskLaunch } from '../../../scheduler/model/launch';
import type { ContainerInfo, Image, NetworkInfo, Volume } from '../codec/mesos-model';

/**
 * A pod image of kind APPC. `mesos-model.ts` has no `Image.appc` yet; until it does, the codec
 * may drop `appc` (see the report), but the TaskInfo says what the pod asked for.
 */
type AppcImage = Image & { readonly appc: { readonly name: string } };

/**
 * The `container` of one pod task (mesos-v1-scheduler-api.md §5.3, §5.4): always the Mesos
 * containerizer (spec section 1 rule 4), with the container's `image` (`DOCKER` or `APPC`,
 * `cached: false` when `forcePull`) and its volume mounts as the launcher resolved them: an
 * ephemeral pod volume (or a relative host one) is the executor sandbox directory of that name
 * shared through `SANDBOX_PATH` / `PARENT` (§5.3); an absolute host volume is a `HOST_PATH`.
 * Undefined when the task needs neither. Tasks of a group never carry `network_infos`: networks
 * belong to the executor (§5.3).
 */
export function podTaskContainer(launch: TaskLaunch): ContainerInfo | undefined {
  const image = launch.image === undefined ? undefined : imageOf(launch.image);
  const volumes = launch.volumes.map(podVolume);
  if (image === undefined && volumes.length === 0) return undefined;
  return { type: 'MESOS', ...(image === undefined ? {} : { mesos: { image } }), ...(volumes.length > 0 ? { volumes } : {}) };
}

/**
 * The default executor's `container` (§5.3: type MESOS, no image): the pod's container networks
 * as `network_infos` — name, labels and, on the first network, the port mappings of every
 * endpoint that has a host port (host port → container port, one mapping per tcp/udp protocol).
 * Undefined under host networking, where the executor needs no container.
 */
export function podExecutorContainer(networking: LaunchNetworking): ContainerInfo | undefined {
  if (networking.mode !== 'container') return undefined;
  const mappings = networking.portMappings.map((m) => ({ ...m }));
  const networkInfos = networking.networks.map((n, i): NetworkInfo => {
    const labels = Object.entries(n.labels).map(([key, value]) => ({ key, value }));
    return {
      ...(n.name === undefined || n.name === '' ? {} : { name: n.name }),
      ...(labels.length > 0 ? { labels: { labels } } : {}),
      ...(i === 0 && mappings.length > 0 ? { portMappings: mappings } : {}),
    };
  });
  return { type: 'MESOS', ...(networkInfos.length > 0 ? { networkInfos } : {}) };
}

function imageOf(image: LaunchImage): Image | AppcImage | undefined {
  if (image.id === '') return undefined;
  const cached = image.forcePull ? { cached: false } : {};
  if (image.kind === 'APPC') return { type: 'APPC', appc: { name: image.id }, ...cached };
  return { type: 'DOCKER', docker: { name: image.id }, ...cached };
}

function podVolume(v: LaunchVolume): Volume {
  if (v.kind === 'host') return { containerPath: v.containerPath, mode: v.mode, source: { type: 'HOST_PATH', hostPath: { path: v.hostPath } } };
  return { containerPath: v.containerPath, mode: v.mode, source: { type: 'SANDBOX_PATH', sandboxPath: { type: 'PARENT', path: v.path } } };
}
