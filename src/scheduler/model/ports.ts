/**
 * A port of an app on host networking (`portDefinitions[]`, Marathon's `network.raml`
 * `PortDefinition`): every definition is one host port of each task.
 */
export interface PortDefinition {
  /**
   * With `requirePorts`, the host port every task needs; otherwise the app's service port (0: one
   * is assigned from `--local_port_min`..`--local_port_max` when the app is deployed).
   */
  readonly port: number;
  /** `tcp`, `udp` or `udp,tcp` (default `tcp`). */
  readonly protocol: string;
  /** Name of the service on this port (`PORT_<NAME>`, discovery); unique among the definitions. */
  readonly name?: string;
  /** Metadata for load balancers and discovery (e.g. `VIP_0`); `{}` when none. */
  readonly labels: Readonly<Record<string, string>>;
}

/**
 * A port of an app on container or bridge networking (`container.portMappings[]`, Marathon's
 * `appContainer.raml` `ContainerPortMapping`).
 */
export interface PortMapping {
  /** The port the process listens on in the container; 0: the same as the host port. */
  readonly containerPort: number;
  /**
   * The host port a task needs for this mapping (0: any free port); absent: the mapping has no
   * host port (container networking without one; bridge networking always has one, default 0).
   */
  readonly hostPort?: number;
  /** The app's service port for this mapping (0: assigned when deployed). */
  readonly servicePort: number;
  /** `tcp`, `udp` or `udp,tcp` (default `tcp`). */
  readonly protocol: string;
  readonly name?: string;
  /** Metadata; absent when the definition gave none (kept apart from an empty map, as echoed). */
  readonly labels?: Readonly<Record<string, string>>;
  /** The container networks this mapping belongs to (empty: all of the app's). */
  readonly networkNames: readonly string[];
}
