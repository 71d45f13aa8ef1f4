/**
 * How tasks are networked (Marathon's `network.raml` `NetworkMode`): `host` shares the agent's
 * network namespace; `container` joins named networks (CNI) with an address of its own;
 * `container/bridge` is the bridge network of the containerizer (apps only).
 */
export type NetworkMode = 'host' | 'container' | 'container/bridge';

/**
 * One network of an app (`networks[]`) or a pod (`networks[]`), normalized: a network without
 * `mode` is a `container` network, and a `container` network has the name it was given or the
 * scheduler's default network name.
 */
export interface Network {
  readonly mode: NetworkMode;
  /** The named network to join (`container` networks); absent for `host` and usually bridge. */
  readonly name?: string;
  /** Labels of the network's NetworkInfo (ignored for host networking); `{}` when none. */
  readonly labels: Readonly<Record<string, string>>;
}

/**
 * The effective networking of a list of networks (never empty once normalized): host and bridge
 * are exclusive, so any host network means host networking, any bridge network bridge, and
 * otherwise the task is on one or more container networks.
 */
export function networkModeOf(networks: readonly Network[]): NetworkMode {
  if (networks.length === 0 || networks.some((n) => n.mode === 'host')) return 'host';
  return networks.some((n) => n.mode === 'container/bridge') ? 'container/bridge' : 'container';
}
