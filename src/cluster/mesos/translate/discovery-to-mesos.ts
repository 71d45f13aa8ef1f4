import type { LaunchPort, TaskLaunch } from '../../../scheduler/model/launch';
import type { DiscoveryInfo, DiscoveryPort } from '../codec/mesos-model';
import { labelsToMesos } from './labels-to-mesos';
import { taskName } from './task-name';

/**
 * The task's `discovery` (mesos-v1-scheduler-api.md §5.2; opaque to Mesos, read by service
 * discovery such as Mesos-DNS): visibility FRAMEWORK, the task name, and one `Port` per port and
 * protocol (`"udp,tcp"` gives two) with the port's name and labels — the launch's `ports`, which
 * the launcher resolved (apps: port definitions with the task's host ports, or port mappings with
 * the host port when the mapping has one and the container port otherwise; pods: the container's
 * endpoints, the same way).
 */
export function discoveryOf(launch: TaskLaunch): DiscoveryInfo {
  const list = launch.ports.flatMap(portsPerProtocol);
  return { visibility: 'FRAMEWORK', name: taskName(launch.runSpecId), ...(list.length > 0 ? { ports: { ports: list } } : {}) };
}

function portsPerProtocol(p: LaunchPort): DiscoveryPort[] {
  const labels = labelsToMesos(p.labels);
  return p.protocols.map((protocol) => ({
    number: p.number,
    ...(p.name === undefined ? {} : { name: p.name }),
    protocol,
    ...(labels === undefined ? {} : { labels }),
  }));
}
