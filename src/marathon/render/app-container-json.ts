import type { AppContainer } from '../../scheduler/model/app-container';
import type { DockerSettings } from '../../scheduler/model/docker';
import type { LinuxInfo } from '../../scheduler/model/linux-info';
import type { NetworkMode } from '../../scheduler/model/networks';
import { portMappingJson } from './ports-json';
import { appVolumeJson } from './volumes-json';

/**
 * An app's `container`: its port mappings (under container or bridge networking only), `docker`
 * (without the deprecated `network` and `portMappings`, which the converter moved), `type`,
 * `volumes` and `linuxInfo` when given.
 */
export function appContainerJson(container: AppContainer, mode: NetworkMode): Record<string, unknown> {
  const json: Record<string, unknown> = {};
  if (mode !== 'host') json.portMappings = container.portMappings.map(portMappingJson);
  if (container.docker !== undefined) json.docker = dockerJson(container.docker);
  if (container.type !== undefined) json.type = container.type;
  if (container.volumes !== undefined) json.volumes = container.volumes.map(appVolumeJson);
  if (container.linuxInfo !== undefined) json.linuxInfo = linuxInfoJson(container.linuxInfo);
  return json;
}

function dockerJson(d: DockerSettings): Record<string, unknown> {
  const json: Record<string, unknown> = { image: d.image };
  if (d.forcePullImage !== undefined) json.forcePullImage = d.forcePullImage;
  if (d.privileged !== undefined) json.privileged = d.privileged;
  if (d.parameters !== undefined) json.parameters = d.parameters.map((p) => ({ key: p.key, value: p.value }));
  if (d.credential !== undefined) json.credential = { ...d.credential };
  if (d.pullConfig !== undefined) json.pullConfig = { ...d.pullConfig };
  return json;
}

/** `linuxInfo` of an app container, a pod or a pod container, as given. */
export function linuxInfoJson(info: LinuxInfo): Record<string, unknown> {
  const json: Record<string, unknown> = {};
  if (info.seccomp !== undefined) json.seccomp = { ...info.seccomp };
  if (info.ipcInfo !== undefined) json.ipcInfo = { ...info.ipcInfo };
  return json;
}
