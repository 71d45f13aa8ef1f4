import type { AppContainer } from '../../scheduler/model/app-container';
import type { DockerParameter, DockerSettings } from '../../scheduler/model/docker';
import type { PortMapping } from '../../scheduler/model/ports';
import { childPointer } from './json-pointer';
import { linuxInfoFromWire } from './linux-info-from-wire';
import { appVolumesFromWire } from './volumes-from-wire';
import { WireObject } from './wire-object';

const TYPES = ['MESOS', 'DOCKER'] as const;

/** What an app's container rules need besides the container. */
export interface AppContainerScope {
  /** The port mappings the ports converter normalized. */
  readonly portMappings: readonly PortMapping[];
  /** Container or bridge networking: the app needs a container even when it gives none. */
  readonly needsOne: boolean;
  /** The names of the app's `secrets`, which a `docker.pullConfig` and a secret volume must name. */
  readonly secretNames: ReadonlySet<string>;
  /** A stored record: read without the rules added since it was accepted (`ConvertContext.storedRecord`). */
  readonly storedRecord: boolean;
}

/** Marathon's message for a `docker.pullConfig` naming no secret of the app or pod. */
export const PULL_CONFIG_SECRET_MESSAGE = 'pullConfig.secret must refer to an existing secret';

/** Marathon's message for a `docker.pullConfig` of a `DOCKER` container. */
export const PULL_CONFIG_DOCKER_MESSAGE = 'pullConfig is not supported with Docker containerizer';

/**
 * An app's `container` (Marathon's `Container`): `type` (`MESOS` or `DOCKER`; see below when not given), `docker`
 * (the image and the Docker settings; its deprecated `network` and `portMappings` are read by the
 * networks and ports converters), `volumes`, `linuxInfo`, and the app's `portMappings` (already
 * normalized by the ports converter). Without a given container, container and bridge networking
 * still need one to hold their port mappings: `{type: MESOS}`. A `docker.pullConfig` follows
 * Marathon's rules (`AppValidation.dockerDockerContainerValidator`, `mesosDockerContainerValidator`):
 * only a `MESOS` container has one (the Docker containerizer pulls with `credential`), and its
 * `secret` names one of the app's secrets; not checked in a stored record (`storedRecord`), which
 * is read as it was accepted, without these or the volume rules added since (`appVolumesFromWire`).
 */
export function appContainerFromWire(container: WireObject | undefined, scope: AppContainerScope): AppContainer | undefined {
  const { portMappings } = scope;
  if (container === undefined) return scope.needsOne ? { type: 'MESOS', portMappings } : undefined;
  const type = container.optionalString('type');
  const knownType = TYPES.find((t) => t === type);
  if (type !== undefined && knownType === undefined) container.fail('type', `type must be one of ${TYPES.join(', ')}`);
  // No type: Marathon's RAML default, DOCKER, when the container has `docker` settings; one
  // without them cannot be a Docker container and is a Mesos one (Marathon would refuse it).
  const given = container.has('docker');
  const effectiveType = knownType ?? (given ? 'DOCKER' : 'MESOS');
  const docker = dockerOf(container);
  // Marathon's `dockerDockerContainerValidator`: `container.docker is definedAnd(…)` (a Docker container without an image runs nothing).
  if (!scope.storedRecord && effectiveType === 'DOCKER' && !given) container.fail('docker', 'not defined');
  if (!scope.storedRecord && docker?.pullConfig !== undefined) pullConfigRules(container, effectiveType, docker.pullConfig.secret, scope.secretNames);
  const volumes = appVolumesFromWire(container, { containerType: effectiveType, secretNames: scope.secretNames, storedRecord: scope.storedRecord });
  const linuxInfo = linuxInfoFromWire(container);
  return {
    type: effectiveType,
    ...(docker === undefined ? {} : { docker }),
    ...(linuxInfo === undefined ? {} : { linuxInfo }),
    ...(volumes === undefined ? {} : { volumes }),
    portMappings,
  };
}

/** Marathon's `pullConfig` rules, at `/container/docker/pullConfig`. */
function pullConfigRules(container: WireObject, type: 'MESOS' | 'DOCKER', secret: string, secretNames: ReadonlySet<string>): void {
  const at = childPointer(container.pathOf('docker'), 'pullConfig');
  if (type === 'DOCKER') container.sink.add(at, PULL_CONFIG_DOCKER_MESSAGE);
  else if (!secretNames.has(secret)) container.sink.add(at, PULL_CONFIG_SECRET_MESSAGE);
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
