import type { DockerSettings } from './docker';
import type { LinuxInfo } from './linux-info';
import type { PortMapping } from './ports';
import type { AppVolume } from './volumes';

/**
 * An app's `container` (Marathon's `appContainer.raml` `Container`).
 *
 * `type` is absent when the definition gave none: the drivers use the Mesos containerizer then,
 * and only `DOCKER` selects the Docker containerizer. `volumes` is absent when not given (echoed
 * so). `portMappings` are the app's ports under container or bridge networking (given, the
 * deprecated `docker.portMappings`, or one default mapping named `default`); under host
 * networking they are always empty and not echoed.
 */
export interface AppContainer {
  readonly type?: 'MESOS' | 'DOCKER';
  readonly docker?: DockerSettings;
  readonly linuxInfo?: LinuxInfo;
  readonly volumes?: readonly AppVolume[];
  readonly portMappings: readonly PortMapping[];
}
