import type { Network } from '../../scheduler/model/networks';
import type { PortDefinition, PortMapping } from '../../scheduler/model/ports';
import type { AppNetworkMode, ConvertedNetworks } from './app-networks-from-wire';
import { childPointer } from './json-pointer';
import { labelsFromWire } from './string-map-from-wire';
import { WireObject } from './wire-object';

/** An app's ports: the core's host ports and the model's port definitions or mappings. */
export interface ConvertedPorts {
  /** One entry per port the task needs on the host: 0 = any free port, N = exactly N. */
  readonly hostPorts: readonly number[];
  /** Forced false for non-host networking. */
  readonly requirePorts: boolean;
  /** Host networking only (else empty). */
  readonly portDefinitions: readonly PortDefinition[];
  /** Container and bridge networking only (else empty). */
  readonly portMappings: readonly PortMapping[];
}

const PORT = { min: 0, max: 65535, integer: true };
const PORT_DEFINITIONS_DEFAULT: readonly unknown[] = [{ port: 0, protocol: 'tcp', name: 'default' }];
const PORT_MAPPINGS_DEFAULT: readonly unknown[] = [{ containerPort: 0, name: 'default' }];

/**
 * Derives an app's ports from its networking.
 *
 * Host networking: `portDefinitions` (or the deprecated `ports`; neither → one dynamic port named
 * `default`), one host port per definition: its `port` when `requirePorts`, else 0 (any).
 * `container.portMappings` are rejected.
 *
 * Container networking: `container.portMappings` (or the deprecated `container.docker.portMappings`
 * or `ipAddress.discovery.ports`, `discovery`; none → one mapping named `default`); a mapping with a `hostPort` needs that host port (0 = any),
 * one without needs none — except on `container/bridge`, where a missing `hostPort` means 0, as in
 * Marathon. `portDefinitions`/`ports` are rejected and `requirePorts` is forced to false. With
 * `networks` (a definition a client sends), the mappings follow Marathon's rules (`portMappingRules`).
 */
export function appPortsFromWire(
  app: WireObject, container: WireObject | undefined, mode: AppNetworkMode, discovery?: ConvertedNetworks['discoveryMappings'],
  networks?: readonly Network[],
): ConvertedPorts {
  const requirePorts = app.boolean('requirePorts', false);
  return mode === 'host' ? hostPorts(app, container, requirePorts) : mappedPorts(app, container, mode, discovery, networks);
}

/** Marathon's message for a host port on one of several container networks (`AppValidationMessages`). */
export const NETWORK_NAME_REQUIRED_MESSAGE =
  'networkNames must be a single item list when hostPort is specified and more than 1 container network is defined';

/**
 * Marathon's rules for port mappings (`AppValidation.portMappingsValidator`), given `networks`
 * (a definition a client sends; left out for a stored record): no name twice (at the list), every
 * `networkNames` entry names one of the networks (at the entry: a mapping on no network of the
 * app is published nowhere), and with more than one container network a mapping with a `hostPort`
 * names exactly one (at the mapping: which network's address the host port forwards to).
 */
function portMappingRules(app: WireObject, base: string, list: readonly unknown[], mappings: readonly PortMapping[], networks: readonly Network[]): void {
  const names = mappings.flatMap((m) => (m.name === undefined ? [] : [m.name]));
  if (new Set(names).size !== names.length) app.sink.add(base, 'Port names must be unique.');
  const networkNames = networks.flatMap((n) => (n.name === undefined ? [] : [n.name]));
  const containerNetworks = networks.filter((n) => n.mode === 'container').length;
  mappings.forEach((m, i) => {
    const at = childPointer(base, i);
    m.networkNames.forEach((name, j) => {
      if (!networkNames.includes(name)) app.sink.add(childPointer(childPointer(at, 'networkNames'), j), `is not one of (${networkNames.join(',')})`);
    });
    const raw = list[i];
    const hostPortGiven = typeof raw === 'object' && raw !== null && (raw as { hostPort?: unknown }).hostPort !== undefined && (raw as { hostPort?: unknown }).hostPort !== null;
    if (containerNetworks > 1 && hostPortGiven && m.networkNames.length !== 1) app.sink.add(at, NETWORK_NAME_REQUIRED_MESSAGE);
  });
}

function hostPorts(app: WireObject, container: WireObject | undefined, requirePorts: boolean): ConvertedPorts {
  const mappings = portMappingsOf(container);
  if (mappings !== undefined && mappings.list.length > 0) {
    app.sink.add(mappings.path, 'portMappings are not allowed with host-networking');
  }
  const portDefinitions = portDefinitionsOf(app);
  return { hostPorts: portDefinitions.map((d) => (requirePorts ? d.port : 0)), requirePorts, portDefinitions, portMappings: [] };
}

function mappedPorts(
  app: WireObject, container: WireObject | undefined, mode: AppNetworkMode, discovery: ConvertedNetworks['discoveryMappings'],
  networks: readonly Network[] | undefined,
): ConvertedPorts {
  for (const key of ['portDefinitions', 'ports']) {
    if ((app.array(key) ?? []).length > 0) app.fail(key, 'portDefinitions are only allowed with host-networking');
  }
  // The deprecated ipAddress.discovery.ports stand for the mappings (the networks converter checked there are none besides).
  const given = discovery ?? portMappingsOf(container);
  const list = given?.list ?? PORT_MAPPINGS_DEFAULT;
  const base = given?.path ?? '/container/portMappings';
  const portMappings = list.map((item, i) => portMappingFromWire(item, childPointer(base, i), app, mode));
  if (networks !== undefined && given !== undefined) portMappingRules(app, base, list, portMappings, networks);
  const hostPorts = portMappings.flatMap((m) => (m.hostPort === undefined ? [] : [m.hostPort]));
  return { hostPorts, requirePorts: false, portDefinitions: [], portMappings };
}

function portDefinitionsOf(app: WireObject): PortDefinition[] {
  const defs = app.array('portDefinitions');
  const legacy = legacyPorts(app);
  if (defs !== undefined && legacy !== undefined && !samePorts(defs, legacy)) {
    app.sink.add('', 'cannot specify both ports and port definitions');
  }
  const list = defs ?? legacy?.map((port) => ({ port, protocol: 'tcp' })) ?? PORT_DEFINITIONS_DEFAULT;
  const base = app.pathOf(defs === undefined && legacy !== undefined ? 'ports' : 'portDefinitions');
  const parsed = list.map((item, i) => portDefinitionFromWire(item, childPointer(base, i), app));
  checkUnique(app, parsed);
  return parsed;
}

function legacyPorts(app: WireObject): number[] | undefined {
  const ports = app.array('ports');
  if (ports === undefined) return undefined;
  const numbers = ports.filter((p): p is number => typeof p === 'number' && Number.isInteger(p) && p >= 0 && p <= 65535);
  if (numbers.length !== ports.length) app.fail('ports', 'ports must be integers between 0 and 65535');
  return numbers;
}

function samePorts(defs: readonly unknown[], ports: readonly number[]): boolean {
  return defs.length === ports.length
    && defs.every((d, i) => typeof d === 'object' && d !== null && (d as { port?: unknown }).port === ports[i]);
}

function portDefinitionFromWire(item: unknown, path: string, app: WireObject): PortDefinition {
  const def = WireObject.of(item, path, app.sink);
  if (def === undefined) return { port: 0, protocol: 'tcp', labels: {} };
  const name = def.optionalString('name');
  return {
    port: def.number('port', 0, PORT), protocol: def.string('protocol', 'tcp'),
    ...(name === undefined ? {} : { name }), labels: labelsFromWire(def),
  };
}

function checkUnique(app: WireObject, defs: readonly PortDefinition[]): void {
  const ports = defs.map((d) => d.port).filter((p) => p !== 0);
  if (new Set(ports).size !== ports.length) app.fail('portDefinitions', 'Ports must be unique.');
  const names = defs.flatMap((d) => (d.name === undefined ? [] : [d.name]));
  if (new Set(names).size !== names.length) app.fail('portDefinitions', 'Port names must be unique.');
}

interface GivenMappings {
  readonly list: readonly unknown[];
  readonly path: string;
}

function portMappingsOf(container: WireObject | undefined): GivenMappings | undefined {
  if (container === undefined) return undefined;
  const canonical = container.array('portMappings');
  const docker = container.child('docker');
  const legacy = docker?.array('portMappings');
  if (canonical !== undefined && canonical.length > 0 && legacy !== undefined && legacy.length > 0) {
    container.fail(undefined, 'cannot specify both portMappings and docker.portMappings');
  }
  if (canonical !== undefined && (canonical.length > 0 || legacy === undefined || legacy.length === 0)) {
    return { list: canonical, path: container.pathOf('portMappings') };
  }
  if (docker !== undefined && legacy !== undefined) return { list: legacy, path: docker.pathOf('portMappings') };
  return undefined;
}

function portMappingFromWire(item: unknown, path: string, app: WireObject, mode: AppNetworkMode): PortMapping {
  const m = WireObject.of(item, path, app.sink);
  if (m === undefined) return { containerPort: 0, servicePort: 0, protocol: 'tcp', networkNames: [] };
  const containerPort = m.number('containerPort', 0, PORT);
  const given = m.optionalNumber('hostPort', PORT);
  const hostPort = given ?? (mode === 'container/bridge' ? 0 : undefined);
  const name = m.optionalString('name');
  return {
    containerPort,
    ...(hostPort === undefined ? {} : { hostPort }),
    servicePort: m.number('servicePort', 0, PORT),
    protocol: m.string('protocol', 'tcp'),
    ...(name === undefined ? {} : { name }),
    ...(m.has('labels') ? { labels: labelsFromWire(m) } : {}),
    networkNames: m.optionalStrings('networkNames') ?? [],
  };
}
