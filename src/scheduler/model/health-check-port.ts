import type { AppSpec } from './app';
import { appPortSlots } from './app-ports';
import type { HealthCheckSpec } from './health-check';

/**
 * The port an app health check (or an app's `check`) probes on a task with these host ports: its fixed `port`, else the
 * port its `portIndex` addresses — that port's host port when it has one, else (a port mapping
 * without a host port) its container port. Undefined when the index addresses no port.
 */
export function healthCheckPort(app: AppSpec, check: Pick<HealthCheckSpec, 'port' | 'portIndex'>, hostPorts: readonly number[]): number | undefined {
  if (check.port !== undefined) return check.port;
  const slot = appPortSlots(app)[check.portIndex ?? 0];
  if (slot === undefined) return undefined;
  return slot.hostPortIndex !== undefined ? hostPorts[slot.hostPortIndex] : slot.containerPort;
}
