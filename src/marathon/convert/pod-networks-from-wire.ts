import type { Network } from '../../scheduler/model/networks';
import { DUPLICATE_NETWORKS_MESSAGE, HOST_NETWORK_NAME_MESSAGE, NETWORK_NAME_MESSAGE } from './app-networks-from-wire';
import type { ConvertContext } from './convert-context';
import { childPointer } from './json-pointer';
import { labelsFromWire } from './string-map-from-wire';
import { isRecord, WireObject } from './wire-object';

/** A pod's networking: the mode and the normalized networks. */
export interface ConvertedPodNetworks {
  readonly mode: 'host' | 'container';
  readonly networks: readonly Network[];
}

/** A pod without networks: host networking. */
const HOST_NETWORK: Network = { mode: 'host', labels: {} };

/**
 * Reads `pod.networks` (spec 2.1.2). Absent or empty → host networking. `mode` is `host` or
 * `container` (a network object without `mode` is `container`, as in Marathon's RAML); a
 * `container` network without `name` takes `ctx.defaultNetworkName` or is an error. A host network
 * must be the only one.
 */
export function podNetworksFromWire(pod: WireObject, ctx: ConvertContext): ConvertedPodNetworks {
  const list = pod.array('networks') ?? [];
  if (list.length === 0) return { mode: 'host', networks: [HOST_NETWORK] };
  const parsed = list.map((item, i) => networkFromWire(item, childPointer(pod.pathOf('networks'), i), pod, ctx));
  const host = parsed.some((n) => n.mode === 'host');
  if (host && parsed.length > 1) pod.fail('networks', 'a host network must be the only network of a pod');
  // Marathon's `ramlNetworksValidator` (for a pod a client sends): no network twice, a host one without name or labels.
  if (ctx.storedRecord !== true) {
    const given = list.filter(isRecord);
    const names = given.flatMap((n) => (typeof n.name === 'string' ? [n.name] : []));
    const unnamed = given.filter((n) => (n.mode ?? 'container') === 'container' && (n.name === undefined || n.name === null)).length;
    if (new Set(names).size !== names.length || unnamed > 1) pod.fail('networks', DUPLICATE_NETWORKS_MESSAGE);
    const hostNamed = given.some((n) => n.mode === 'host' && ((typeof n.name === 'string' && n.name !== '') || (isRecord(n.labels) && Object.keys(n.labels).length > 0)));
    if (hostNamed) pod.fail('networks', HOST_NETWORK_NAME_MESSAGE);
  }
  return { mode: host ? 'host' : 'container', networks: parsed.map((n) => n.network) };
}

function networkFromWire(
  item: unknown,
  path: string,
  pod: WireObject,
  ctx: ConvertContext,
): { mode: 'host' | 'container'; network: Network } {
  const network = WireObject.of(item, path, pod.sink);
  if (network === undefined) return { mode: 'container', network: { mode: 'container', labels: {} } };
  const given = network.string('mode', 'container');
  if (given !== 'host' && given !== 'container') {
    network.fail('mode', 'mode must be one of host, container');
    return { mode: 'container', network: { mode: 'container', labels: {} } };
  }
  const mode = given;
  const name = network.optionalString('name') ?? (mode === 'container' ? ctx.defaultNetworkName : undefined);
  if (mode === 'container' && name === undefined) network.fail('name', NETWORK_NAME_MESSAGE);
  return { mode, network: { mode, ...(name === undefined ? {} : { name }), labels: labelsFromWire(network) } };
}
