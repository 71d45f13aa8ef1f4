import type { Network, NetworkMode } from '../../scheduler/model/networks';
import type { ConvertContext } from './convert-context';
import { childPointer } from './json-pointer';
import { labelsFromWire } from './string-map-from-wire';
import { WireObject } from './wire-object';

/** How an app's tasks are networked. */
export type AppNetworkMode = NetworkMode;

const MODES: readonly AppNetworkMode[] = ['host', 'container', 'container/bridge'];

/** Translation of the deprecated `container.docker.network`. */
const DOCKER_NETWORKS: Readonly<Record<string, AppNetworkMode>> = {
  HOST: 'host', BRIDGE: 'container/bridge', USER: 'container',
};

/** Message for `container` networks without a name when no default network name is configured. */
export const NETWORK_NAME_MESSAGE =
  'networks of mode container must have a name when no default network name is configured';

/** Message when host or bridge networking is combined with other networks. */
export const NETWORK_MIX_MESSAGE =
  'host and container/bridge networking must be the only network: give one host network, one bridge network, or one or more container networks';

/** An app's networks: the effective mode and the normalized list. */
export interface ConvertedNetworks {
  readonly mode: AppNetworkMode;
  readonly networks: readonly Network[];
}

/**
 * Reads `app.networks` (absent or empty → `[{"mode":"host"}]`). A network object without `mode`
 * is a `container` network (Marathon's RAML default); a `container` network without `name` takes
 * `ctx.defaultNetworkName` or is an error. The deprecated `container.docker.network`
 * (`HOST`/`BRIDGE`/`USER`) is translated when `networks` is not given. `ipAddress` is rejected.
 */
export function appNetworksFromWire(app: WireObject, container: WireObject | undefined, ctx: ConvertContext): ConvertedNetworks {
  if (app.has('ipAddress')) app.fail('ipAddress', 'ipAddress is not supported; declare networks instead');
  const list = app.array('networks') ?? [];
  const legacy = legacyDockerNetwork(container, list.length > 0);
  if (list.length === 0) {
    const mode = legacy ?? 'host';
    return { mode, networks: [mode === 'container' ? containerNetwork(undefined, ctx, app) : { mode, labels: {} }] };
  }
  const base = app.pathOf('networks');
  const parsed = list.map((item, i) => networkFromWire(item, childPointer(base, i), app, ctx));
  const modes = parsed.map((p) => p.mode);
  const exclusive = modes.some((m) => m !== 'container');
  if (exclusive && modes.length > 1) app.fail('networks', NETWORK_MIX_MESSAGE);
  const mode = modes.includes('host') ? 'host' : modes.includes('container/bridge') ? 'container/bridge' : 'container';
  return { mode, networks: parsed.map((p) => p.network) };
}

function legacyDockerNetwork(container: WireObject | undefined, canonicalGiven: boolean): AppNetworkMode | undefined {
  const docker = container?.child('docker');
  const given = docker?.optionalString('network');
  if (docker === undefined || given === undefined) return undefined;
  if (canonicalGiven) {
    docker.fail('network', 'cannot mix deprecated and canonical network APIs');
    return undefined;
  }
  const mode = DOCKER_NETWORKS[given.toUpperCase()];
  if (mode === undefined) docker.fail('network', `unsupported docker network type ${given}`);
  return mode;
}

function networkFromWire(
  item: unknown,
  path: string,
  app: WireObject,
  ctx: ConvertContext,
): { mode: AppNetworkMode; network: Network } {
  const network = WireObject.of(item, path, app.sink);
  if (network === undefined) return { mode: 'host', network: { mode: 'host', labels: {} } };
  const given = network.string('mode', 'container');
  const mode = MODES.find((m) => m === given);
  if (mode === undefined) {
    network.fail('mode', `mode must be one of ${MODES.join(', ')}`);
    return { mode: 'host', network: { mode: 'host', labels: {} } };
  }
  if (mode !== 'container') {
    const name = network.optionalString('name');
    return { mode, network: { mode, ...(name === undefined ? {} : { name }), labels: labelsFromWire(network) } };
  }
  return { mode, network: containerNetwork(network, ctx, network) };
}

function containerNetwork(
  network: WireObject | undefined,
  ctx: ConvertContext,
  reportOn: WireObject,
): Network {
  const name = network?.optionalString('name') ?? ctx.defaultNetworkName;
  if (name === undefined) {
    if (network === undefined) reportOn.fail('networks', NETWORK_NAME_MESSAGE);
    else network.fail('name', NETWORK_NAME_MESSAGE);
  }
  return { mode: 'container', ...(name === undefined ? {} : { name }), labels: labelsFromWire(network) };
}
