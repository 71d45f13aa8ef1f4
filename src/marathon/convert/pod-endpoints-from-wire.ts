import type { PodEndpoint } from '../../scheduler/model/pod';
import { childPointer } from './json-pointer';
import { podNameFromWire } from './pod-name';
import { labelsFromWire } from './string-map-from-wire';
import type { Network } from '../../scheduler/model/networks';
import { NETWORK_NAME_REQUIRED_MESSAGE } from './app-ports-from-wire';
import { isRecord, WireObject } from './wire-object';

/** One converted endpoint with the pointer of its name (for pod-wide uniqueness checks). */
export interface ConvertedEndpoint {
  readonly endpoint: PodEndpoint;
  readonly namePath: string;
}

const PORT = { min: 0, max: 65535, integer: true };

/**
 * Reads `container.endpoints` (spec 2.2). `protocol` values are accepted in any case and echoed in
 * lower case (`tcp`, `http`); absent → `["tcp"]`. `hostPort`: absent means no host port in
 * `container` mode and 0 (any free port) in `host` mode, as in Marathon; 0 = any, N = exactly N.
 * `containerPort` is required in `container` mode. With `networks` (a definition a client sends, not
 * a stored record) an endpoint also follows Marathon's `PodsValidation.endpointValidator`
 * ({@link endpointRules}).
 */
export function podEndpointsFromWire(container: WireObject, mode: 'host' | 'container', networks?: readonly Network[]): ConvertedEndpoint[] {
  const list = container.array('endpoints') ?? [];
  const out: ConvertedEndpoint[] = [];
  list.forEach((item, i) => {
    const converted = endpointFromWire(item, childPointer(container.pathOf('endpoints'), i), container, mode);
    if (converted !== undefined) out.push(converted);
    if (converted !== undefined && networks !== undefined) endpointRules(container, converted, item, networks);
  });
  return out;
}

/**
 * Marathon's rules for one endpoint, at its paths: every `networkNames` entry names a network of
 * the pod; no `containerPort` in host mode (there is no container port to map); no protocol twice;
 * with more than one container network a `hostPort` goes with exactly one network name
 * (`NETWORK_NAME_REQUIRED_MESSAGE`, the apps' message).
 */
function endpointRules(container: WireObject, converted: ConvertedEndpoint, raw: unknown, networks: readonly Network[]): void {
  const at = converted.namePath.slice(0, -'/name'.length);
  const { endpoint } = converted;
  const names = networks.flatMap((n) => (n.name === undefined ? [] : [n.name]));
  endpoint.networkNames.forEach((name, j) => {
    if (!names.includes(name)) container.sink.add(childPointer(childPointer(at, 'networkNames'), j), `is not one of (${names.join(',')})`);
  });
  if (networks.some((n) => n.mode === 'host') && endpoint.containerPort !== undefined) {
    container.sink.add(childPointer(at, 'containerPort'), 'is not allowed when using host-mode networking');
  }
  if (new Set(endpoint.protocol).size !== endpoint.protocol.length) {
    container.sink.add(childPointer(at, 'protocol'), 'Duplicate protocols within the same endpoint are not allowed');
  }
  const hostPortGiven = isRecord(raw) && raw.hostPort !== undefined && raw.hostPort !== null;
  if (networks.filter((n) => n.mode === 'container').length > 1 && hostPortGiven && endpoint.networkNames.length !== 1) {
    container.sink.add(at, NETWORK_NAME_REQUIRED_MESSAGE);
  }
}

function endpointFromWire(
  item: unknown,
  path: string,
  container: WireObject,
  mode: 'host' | 'container',
): ConvertedEndpoint | undefined {
  const e = WireObject.of(item, path, container.sink);
  if (e === undefined) return undefined;
  const name = podNameFromWire(e, 'name');
  const containerPort = e.optionalNumber('containerPort', PORT);
  if (mode === 'container' && !e.has('containerPort')) {
    e.fail('containerPort', 'containerPort is required when the network mode is container');
  }
  const hostPort = e.optionalNumber('hostPort', PORT) ?? (mode === 'host' ? 0 : undefined);
  const protocol = protocolsOf(e);
  const labels = labelsFromWire(e);
  const networkNames = e.optionalStrings('networkNames') ?? [];
  if (name === undefined) return undefined;
  const endpoint: PodEndpoint = {
    name, protocol,
    ...(hostPort !== undefined ? { hostPort } : {}),
    ...(containerPort !== undefined ? { containerPort } : {}),
    labels, networkNames,
  };
  return { endpoint, namePath: e.pathOf('name') };
}

function protocolsOf(e: WireObject): string[] {
  const list = e.array('protocol');
  if (list === undefined) return ['tcp'];
  return list.flatMap((p, i) => {
    if (typeof p === 'string') return [p.toLowerCase()];
    e.sink.add(childPointer(e.pathOf('protocol'), i), 'error.expected.jsstring');
    return [];
  });
}
