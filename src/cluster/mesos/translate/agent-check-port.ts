import type { TaskLaunch } from '../../../scheduler/model/launch';

/**
 * The port Mesos should probe for a task's agent-run check. Mesos runs HTTP/TCP checks against
 * 127.0.0.1 inside the task's network namespace, on the port the process listens on — "not a
 * mapped host port" (mesos-v1-scheduler-api.md §5.2). The launcher resolves checks to host ports
 * (`ResolvedAgentCheck.port`) and, on container networking, to the container port of the port
 * mapping or endpoint the check addresses (`containerPort`, 0 meaning "the same as the host
 * port"); that container port wins when it is set.
 *
 * Undefined when the task has no check or the check has no port (COMMAND).
 */
export function agentCheckPort(launch: TaskLaunch): number | undefined {
  const resolved = launch.healthCheck;
  if (resolved === undefined) return undefined;
  const containerPort = resolved.containerPort;
  return containerPort !== undefined && containerPort > 0 ? containerPort : resolved.port;
}
