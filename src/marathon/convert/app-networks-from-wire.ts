import type { Network, NetworkMode } from '../../scheduler/model/networks';
import type { ConvertContext } from './convert-context';
import { childPointer } from './json-pointer';
import { labelsFromWire } from './string-map-from-wire';
import { isRecord, WireObject } from './wire-object';

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

/** Message when the deprecated `ipAddress` or `container.docker.network` is given with `networks`. */
export const NETWORK_API_MIX_MESSAGE = 'cannot mix deprecated and canonical network APIs';

/**
 * The network name that asks for bridge networking in a deprecated `ipAddress` (Marathon's
 * `--mesos_bridge_name` default, which pacer does not make configurable; the Mesos driver names
 * bridge networks so too: src/cluster/mesos/translate/app-container-info.ts).
 */
const MESOS_BRIDGE_NAME = 'mesos-bridge';

/** An app's networks: the effective mode and the normalized list. */
export interface ConvertedNetworks {
  readonly mode: AppNetworkMode;
  readonly networks: readonly Network[];
  /**
   * The deprecated `ipAddress.discovery.ports` as port mappings (wire objects, `containerPort`
   * from each port's `number`), with the pointer of the list: the ports converter takes them as
   * the container's mappings ({@link appNetworksFromWire}). Undefined when none were given.
   */
  readonly discoveryMappings?: { readonly list: readonly unknown[]; readonly path: string };
}

/**
 * Reads `app.networks` (absent or empty → `[{"mode":"host"}]`). A network object without `mode`
 * is a `container` network (Marathon's RAML default); a `container` network without `name` takes
 * `ctx.defaultNetworkName` or is an error. The deprecated `container.docker.network`
 * (`HOST`/`BRIDGE`/`USER`) is translated when `networks` is not given, and so is the deprecated
 * `ipAddress` (IP per task, {@link ipAddressNetworks}).
 */
export function appNetworksFromWire(app: WireObject, container: WireObject | undefined, ctx: ConvertContext): ConvertedNetworks {
  const list = app.array('networks') ?? [];
  const ipAddress = app.child('ipAddress');
  if (ipAddress !== undefined) return ipAddressNetworks(app, ipAddress, container, list.length > 0, ctx);
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
  if (ctx.storedRecord !== true) networkListRules(app, list, container);
  const mode = modes.includes('host') ? 'host' : modes.includes('container/bridge') ? 'container/bridge' : 'container';
  return { mode, networks: parsed.map((p) => p.network) };
}

/**
 * The networks of the deprecated `ipAddress` (`{networkName, labels, discovery: {ports}, groups}`),
 * as Marathon 1.11 translates it (api/v2/AppNormalization.scala, `NetworkTranslation`; fact 116):
 * with `container.docker.network` `HOST` one host network, `USER` a container network named
 * `networkName`, `BRIDGE` a bridge network; without it a bridge network when `networkName` is
 * `mesos-bridge`, else a container network named `networkName` (or the default network name).
 * The network takes `ipAddress.labels`; `groups` has no successor and is dropped, as there.
 * With `networks` given as well it is refused. Its `discovery.ports` become the container's port
 * mappings (`migrateIpDiscovery`): only for a Mesos container (a container given without `type`
 * is Docker's, Marathon's default) and never beside `container.portMappings`. No container at all
 * means an empty Mesos container, which the container converter makes for any non-host network.
 */
function ipAddressNetworks(
  app: WireObject, ipAddress: WireObject, container: WireObject | undefined, canonicalGiven: boolean, ctx: ConvertContext,
): ConvertedNetworks {
  const host: ConvertedNetworks = { mode: 'host', networks: [{ mode: 'host', labels: {} }] };
  if (canonicalGiven) {
    app.fail('ipAddress', NETWORK_API_MIX_MESSAGE);
    return host;
  }
  const labels = labelsFromWire(ipAddress);
  const networkName = ipAddress.optionalString('networkName');
  const docker = container?.child('docker');
  const dockerNetwork = docker?.optionalString('network');
  let mode: AppNetworkMode;
  if (dockerNetwork !== undefined) {
    const given = DOCKER_NETWORKS[dockerNetwork.toUpperCase()];
    if (given === undefined) {
      docker?.fail('network', `unsupported docker network type ${dockerNetwork}`);
      return host;
    }
    mode = given;
  } else mode = networkName === MESOS_BRIDGE_NAME ? 'container/bridge' : 'container';
  const discoveryMappings = discoveryMappingsOf(ipAddress, container);
  if (mode === 'host') return host;
  if (mode === 'container/bridge') return { mode, networks: [{ mode, labels }], ...optionalMappings(discoveryMappings) };
  const name = networkName ?? ctx.defaultNetworkName;
  if (name === undefined) ipAddress.fail('networkName', NETWORK_NAME_MESSAGE);
  return { mode, networks: [{ mode, ...(name === undefined ? {} : { name }), labels }], ...optionalMappings(discoveryMappings) };
}

function optionalMappings(m: ConvertedNetworks['discoveryMappings']): Pick<ConvertedNetworks, 'discoveryMappings'> {
  return m === undefined ? {} : { discoveryMappings: m };
}

/** `ipAddress.discovery.ports` as wire port mappings (Marathon's `migrateIpDiscovery`), checked against the container. */
function discoveryMappingsOf(ipAddress: WireObject, container: WireObject | undefined): ConvertedNetworks['discoveryMappings'] {
  const discovery = ipAddress.child('discovery');
  const ports = discovery?.array('ports');
  if (discovery === undefined || ports === undefined || ports.length === 0) return undefined;
  const type = container === undefined ? 'MESOS' : container.optionalString('type') ?? 'DOCKER';
  if (type !== 'MESOS') {
    discovery.fail('ports', `ipAddress.discovery.ports do not apply for container type ${type}`);
    return undefined;
  }
  if ((container?.array('portMappings') ?? []).length > 0) {
    discovery.fail('ports', 'container.portMappings and ipAddress.discovery.ports must not both be set');
    return undefined;
  }
  const base = discovery.pathOf('ports');
  const list = ports.map((item, i) => {
    const port = WireObject.of(item, childPointer(base, i), discovery.sink);
    if (port === undefined) return {};
    // `number` and `name` are required (IpDiscoveryPort in Marathon's RAML); the mapping converter checks the rest.
    const containerPort = port.optionalNumber('number', { min: 0, max: 65535, integer: true });
    if (containerPort === undefined && !port.has('number')) port.fail('number', 'error.path.missing');
    const name = port.requiredString('name');
    return {
      containerPort: containerPort ?? 0,
      ...(name === undefined ? {} : { name }),
      ...(port.has('protocol') ? { protocol: port.raw['protocol'] } : {}),
      ...(port.has('labels') ? { labels: port.raw['labels'] } : {}),
    };
  });
  return { list, path: base };
}

/** Marathon's messages for a list of networks (`NetworkValidation.ramlNetworksValidator`, `AppValidationMessages`). */
export const HOST_NETWORK_NAME_MESSAGE = 'Host networks may not have names or labels';
export const BRIDGE_NETWORK_NAME_MESSAGE = 'Bridge networks may not have names';
export const DUPLICATE_NETWORKS_MESSAGE = 'Duplicate networks are not allowed';
export const DOCKER_ONE_NETWORK_MESSAGE = 'may only specify a single container network when using the Docker container engine';

/**
 * Marathon's rules for the networks given (`NetworkValidation.ramlNetworksValidator` at
 * `/networks`, `AppValidation.complyWithDockerNetworkingRules` at `/`): a host network has no name
 * or labels, a bridge network no name, no name is given twice (nor two container networks left
 * without one, which would both take the default name), and a `DOCKER` container joins at most one
 * container network (the Docker containerizer cannot join more). For a definition a client sends.
 */
function networkListRules(app: WireObject, list: readonly unknown[], container: WireObject | undefined): void {
  const given = list.filter(isRecord);
  const modeOf = (n: Readonly<Record<string, unknown>>): unknown => n.mode ?? 'container';
  const named = (n: Readonly<Record<string, unknown>>): boolean => typeof n.name === 'string' && n.name !== '';
  const hasLabels = (n: Readonly<Record<string, unknown>>): boolean => isRecord(n.labels) && Object.keys(n.labels).length > 0;
  if (given.some((n) => modeOf(n) === 'host' && (named(n) || hasLabels(n)))) app.fail('networks', HOST_NETWORK_NAME_MESSAGE);
  if (given.some((n) => modeOf(n) === 'container/bridge' && named(n))) app.fail('networks', BRIDGE_NETWORK_NAME_MESSAGE);
  const names = given.flatMap((n) => (typeof n.name === 'string' ? [n.name] : []));
  const unnamedContainers = given.filter((n) => modeOf(n) === 'container' && (n.name === undefined || n.name === null)).length;
  if (new Set(names).size !== names.length || unnamedContainers > 1) app.fail('networks', DUPLICATE_NETWORKS_MESSAGE);
  const type = container === undefined ? undefined : container.raw.type ?? (container.has('docker') ? 'DOCKER' : 'MESOS');
  if (type === 'DOCKER' && given.filter((n) => modeOf(n) === 'container').length > 1) app.sink.add('', DOCKER_ONE_NETWORK_MESSAGE);
}

function legacyDockerNetwork(container: WireObject | undefined, canonicalGiven: boolean): AppNetworkMode | undefined {
  const docker = container?.child('docker');
  const given = docker?.optionalString('network');
  if (docker === undefined || given === undefined) return undefined;
  if (canonicalGiven) {
    docker.fail('network', NETWORK_API_MIX_MESSAGE);
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
