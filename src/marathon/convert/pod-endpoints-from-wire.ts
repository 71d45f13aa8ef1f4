import type { PodEndpoint } from '../../scheduler/model/pod';
import { childPointer } from './json-pointer';
import { podNameFromWire } from './pod-name';
import { labelsFromWire } from './string-map-from-wire';
import { WireObject } from './wire-object';

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
 * `containerPort` is required in `container` mode.
 */
export function podEndpointsFromWire(container: WireObject, mode: 'host' | 'container'): ConvertedEndpoint[] {
  const list = container.array('endpoints') ?? [];
  const out: ConvertedEndpoint[] = [];
  list.forEach((item, i) => {
    const converted = endpointFromWire(item, childPointer(container.pathOf('endpoints'), i), container, mode);
    if (converted !== undefined) out.push(converted);
  });
  return out;
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
