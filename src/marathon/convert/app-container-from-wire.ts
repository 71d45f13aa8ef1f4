import type { AppContainer } from '../../scheduler/model/app-container';
import type { DockerParameter, DockerSettings } from '../../scheduler/model/docker';
import type { PortMapping } from '../../scheduler/model/ports';
import { childPointer } from './json-pointer';
import { linuxInfoFromWire } from './linux-info-from-wire';
import { appVolumesFromWire } from './volumes-from-wire';
import { WireObject } from './wire-object';

const TYPES = ['MESOS', 'DOCKER'] as const;

/**
 * An app's `container` (Marathon's `Container`): `type` (`MESOS` or `DOCKER`; see below when not given), `docker`
 * (the image and the Docker settings; its deprecated `network` and `portMappings` are read by the
 * networks and ports converters), `volumes`, `linuxInfo`, and the app's `portMappings` (already
 * normalized by the ports converter). Without a given container, container and bridge networking
 * still need one to hold their port mappings: `{type: MESOS}`. `storedRecord`: a stored definition,
 * read without the persistent volume rules added since (`appVolumesFromWire`).
 */
export function appContainerFromWire(
  container: WireObject | undefined, portMappings: readonly PortMapping[], needsOne: boolean, storedRecord = false,
): AppContainer | undefined {
  if (container === undefined) return needsOne ? { type: 'MESOS', portMappings } : undefined;
  const type = container.optionalString('type');
  const knownType = TYPES.find((t) => t === type);
  if (type !== undefined && knownType === undefined) container.fail('type', `type must be one of ${TYPES.join(', ')}`);
  const docker = dockerOf(container);
  const volumes = appVolumesFromWire(container, storedRecord);
  const linuxInfo = linuxInfoFromWire(container);
  // No type: Marathon's RAML default, DOCKER, when the container has `docker` settings; one
  // without them cannot be a Docker container and is a Mesos one (Marathon would refuse it).
  const given = container.has('docker');
  return {
    type: knownType ?? (given ? 'DOCKER' : 'MESOS'),
    ...(docker === undefined ? {} : { docker }),
    ...(linuxInfo === undefined ? {} : { linuxInfo }),
    ...(volumes === undefined ? {} : { volumes }),
    portMappings,
  };
}

function dockerOf(container: WireObject): DockerSettings | undefined {
  const docker = container.child('docker');
  if (docker === undefined) return undefined;
  const image = docker.requiredString('image');
  const forcePullImage = docker.optionalBoolean('forcePullImage');
  const privileged = docker.optionalBoolean('privileged');
  const parameters = parametersOf(docker);
  const credential = docker.child('credential');
  const principal = credential?.requiredString('principal');
  const secret = credential?.optionalString('secret');
  const pullSecret = docker.child('pullConfig')?.requiredString('secret');
  if (image === undefined) return undefined;
  return {
    image,
    // Not given: false, Marathon's defaults, which its writer always gives (raml/ContainerConversion.scala).
    forcePullImage: forcePullImage ?? false,
    privileged: privileged ?? false,
    ...(parameters === undefined ? {} : { parameters }),
    ...(principal === undefined ? {} : { credential: { principal, ...(secret === undefined ? {} : { secret }) } }),
    ...(pullSecret === undefined ? {} : { pullConfig: { secret: pullSecret } }),
  };
}

function parametersOf(docker: WireObject): DockerParameter[] | undefined {
  const list = docker.array('parameters');
  if (list === undefined) return undefined;
  return list.flatMap((item, i) => {
    const p = WireObject.of(item, childPointer(docker.pathOf('parameters'), i), docker.sink);
    const key = p?.requiredString('key');
    const value = p?.requiredString('value');
    return key === undefined || value === undefined ? [] : [{ key, value }];
  });
}
