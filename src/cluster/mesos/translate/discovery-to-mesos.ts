import type { TaskLaunch } from '../../../scheduler/model/launch';
import type { AppSpec, PodSpec } from '../../../scheduler/model/run-spec';
import type { DiscoveryInfo, DiscoveryPort } from '../codec/mesos-model';
import { appNetworkMode } from './app-networks';
import { labelsToMesos } from './labels-to-mesos';
import { taskName } from './task-name';
import { numberOf, objectOf, objectsOf, stringMapOf, stringOf, type WireRecord } from './wire-read';

/** A named port of a task before it is split per protocol. */
interface NamedPort {
  readonly number: number;
  readonly name?: string;
  readonly protocols: readonly string[];
  readonly labels: Readonly<Record<string, string>>;
}

/**
 * The task's `discovery` (mesos-v1-scheduler-api.md §5.2; opaque to Mesos, read by service
 * discovery such as Mesos-DNS): visibility FRAMEWORK, the task name, and one `Port` per port and
 * protocol (`"udp,tcp"` gives two) with the port's name and labels.
 *
 * Apps: host networking lists the `portDefinitions` with the task's host ports; container
 * networking lists the `portMappings`, with the host port when the mapping has one and the
 * container port otherwise. Pods: the container's endpoints, the same way.
 */
export function discoveryOf(launch: TaskLaunch): DiscoveryInfo {
  const spec = launch.spec;
  const ports = spec.kind === 'app' ? appPorts(launch, spec) : podPorts(launch, spec);
  const list = ports.flatMap(portsPerProtocol);
  return { visibility: 'FRAMEWORK', name: taskName(spec.id), ...(list.length > 0 ? { ports: { ports: list } } : {}) };
}

function portsPerProtocol(p: NamedPort): DiscoveryPort[] {
  const labels = labelsToMesos(p.labels);
  return p.protocols.map((protocol) => ({
    number: p.number,
    ...(p.name === undefined ? {} : { name: p.name }),
    protocol,
    ...(labels === undefined ? {} : { labels }),
  }));
}

function appPorts(launch: TaskLaunch, spec: AppSpec): NamedPort[] {
  if (appNetworkMode(spec) === 'host') {
    return objectsOf(spec.definition.portDefinitions).flatMap((d, i) => {
      const number = launch.hostPorts[i];
      return number === undefined ? [] : [namedPort(d, number, protocolsOf(d.protocol))];
    });
  }
  let hostIndex = 0;
  return objectsOf(objectOf(spec.definition.container)?.portMappings).flatMap((m) => {
    const number = numberOf(m.hostPort) !== undefined ? launch.hostPorts[hostIndex++] : numberOf(m.containerPort);
    return number === undefined || number === 0 ? [] : [namedPort(m, number, protocolsOf(m.protocol))];
  });
}

function podPorts(launch: TaskLaunch, spec: PodSpec): NamedPort[] {
  const container = spec.containers.find((c) => c.name === launch.containerName);
  const wire = objectsOf(spec.definition.containers).find((c) => c.name === launch.containerName);
  const wireEndpoints = objectsOf(wire?.endpoints);
  let hostIndex = 0;
  return (container?.endpoints ?? []).flatMap((e) => {
    const number = e.hostPort !== undefined ? launch.hostPorts[hostIndex++] : e.containerPort;
    const endpointWire = wireEndpoints.find((w) => w.name === e.name) ?? {};
    const protocols = e.protocol.length > 0 ? e.protocol.map((p) => p.toLowerCase()) : ['tcp'];
    return number === undefined || number === 0 ? [] : [namedPort({ ...endpointWire, name: e.name }, number, protocols)];
  });
}

function namedPort(wire: WireRecord, number: number, protocols: readonly string[]): NamedPort {
  const name = stringOf(wire.name);
  return { number, ...(name === undefined ? {} : { name }), protocols, labels: stringMapOf(wire.labels) };
}

/** `"udp,tcp"` → `['udp', 'tcp']`; absent → `['tcp']` (Marathon's default protocol). */
function protocolsOf(value: unknown): string[] {
  const text = stringOf(value);
  const list = (text ?? 'tcp').split(',').map((p) => p.trim().toLowerCase()).filter((p) => p !== '');
  return list.length > 0 ? list : ['tcp'];
}
