import type { TaskLaunch } from '../../../scheduler/model/launch';
import { appNetworkMode } from './app-networks';
import { numberOf, objectOf, objectsOf } from './wire-read';

/**
 * The port Mesos should probe for a task's agent-run check. Mesos runs HTTP/TCP checks against
 * 127.0.0.1 inside the task's network namespace, on the port the process listens on — "not a
 * mapped host port" (mesos-v1-scheduler-api.md §5.2). The core resolves checks to host ports
 * (`ResolvedAgentCheck.port`); this maps that back where the two differ:
 *
 * - apps on container networking: a check addressing a port mapping by `portIndex` probes the
 *   mapping's `containerPort` (when non-zero; 0 means "same as the host port");
 * - pods on container networking: the endpoint's `containerPort`;
 * - host networking: the resolved host port as is.
 *
 * Undefined when the task has no check or the check has no port (COMMAND).
 */
export function agentCheckPort(launch: TaskLaunch): number | undefined {
  const resolved = launch.healthCheck;
  if (resolved === undefined) return undefined;
  const spec = launch.spec;
  if (spec.kind === 'pod') {
    if (spec.networkMode !== 'container' || resolved.check.endpoint === undefined) return resolved.port;
    const container = spec.containers.find((c) => c.name === launch.containerName);
    const endpoint = container?.endpoints.find((e) => e.name === resolved.check.endpoint);
    return endpoint?.containerPort ?? resolved.port;
  }
  const index = numberOf(resolved.check.wire.portIndex);
  if (index === undefined || resolved.check.wire.port !== undefined || appNetworkMode(spec) === 'host') return resolved.port;
  const mappings = objectsOf(objectOf(spec.definition.container)?.portMappings);
  const containerPort = numberOf(mappings[index]?.containerPort);
  return containerPort !== undefined && containerPort > 0 ? containerPort : resolved.port;
}
