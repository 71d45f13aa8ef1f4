/** One `docker run` parameter (`--key=value`), passed to the Docker containerizer as given. */
export interface DockerParameter {
  readonly key: string;
  readonly value: string;
}

/**
 * An app's `container.docker` (Marathon's `appContainer.raml` `DockerContainer`): the image, and
 * settings of the Docker containerizer. The deprecated `network` and `portMappings` are read into
 * the app's networks and port mappings by the converter and are not kept here. Optional flags are
 * absent when not given (false).
 */
export interface DockerSettings {
  readonly image: string;
  /** Pull the image even when the agent has it. */
  readonly forcePullImage?: boolean;
  /** Docker containerizer only: run privileged. */
  readonly privileged?: boolean;
  /** Docker containerizer only: extra `docker run` parameters. */
  readonly parameters?: readonly DockerParameter[];
  /** Deprecated registry credentials (Mesos containerizer only). */
  readonly credential?: { readonly principal: string; readonly secret?: string };
  /** A secret holding Docker's `config.json` for the pull (Mesos containerizer only). */
  readonly pullConfig?: { readonly secret: string };
}
