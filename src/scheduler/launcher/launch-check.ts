import type { AppSpec } from '../model/app';
import { CHECK_DEFAULT_SECONDS, type AppCheck, type MesosCommand, type PodCheck } from '../model/checks';
import { healthCheckPort } from '../model/health-check-port';
import type { LaunchCheck, LaunchCheckTiming, LaunchCommand } from '../model/launch';
import { networkModeOf } from '../model/networks';
import type { PodContainer, PodSpec } from '../model/pod';
import { podEndpointPort } from './pod-endpoint-port';

/**
 * An app task's `check` resolved for the task with these host ports (Marathon's TaskBuilder:
 * `MesosCheck.toMesos` of the task's port assignments): HTTP and TCP by its `port`, else its
 * `portIndex` (0 without either, as Marathon reads a stored check) — that port's host port, and
 * on container or bridge networking the port mapping's container port beside it; a command as
 * given. The first of `http`, `tcp`, `exec` the check holds is the one run (Marathon accepts
 * exactly one). Undefined without a check, or when its index addresses no port (Marathon then
 * sends no check either).
 */
export function appLaunchCheck(app: AppSpec, hostPorts: readonly number[]): LaunchCheck | undefined {
  const check = app.check;
  if (check === undefined) return undefined;
  const timing = timingOf(check);
  const target = check.http ?? check.tcp;
  if (target === undefined) return check.exec === undefined ? undefined : { ...timing, kind: 'command', command: launchCommandOf(check.exec.command) };
  const port = healthCheckPort(app, target, hostPorts);
  if (port === undefined) return undefined;
  const mapping = networkModeOf(app.networks) !== 'host' && target.port === undefined
    ? app.container?.portMappings[target.portIndex ?? 0] : undefined;
  const containerPort = mapping === undefined ? {} : { containerPort: mapping.containerPort };
  if (check.http !== undefined) return { ...timing, kind: 'http', port, ...containerPort, ...pathOf(check.http.path) };
  return { ...timing, kind: 'tcp', port, ...containerPort };
}

/**
 * A pod container task's `check` resolved as its agent-run health check is: HTTP and TCP by the
 * container's endpoint the check names — its host port (the container port of an endpoint without
 * one), and under container networking its container port beside it; a command as given.
 * Undefined without a check, or when it names no endpoint with a port.
 */
export function podLaunchCheck(pod: PodSpec, container: PodContainer, hostPorts: readonly number[]): LaunchCheck | undefined {
  const check = container.check;
  if (check === undefined) return undefined;
  const timing = timingOf(check);
  const target = check.http ?? check.tcp;
  if (target === undefined) return check.exec === undefined ? undefined : { ...timing, kind: 'command', command: launchCommandOf(check.exec.command) };
  const { port, containerPort } = podEndpointPort(pod, container, hostPorts, target.endpoint);
  if (port === undefined) return undefined;
  const inside = containerPort === undefined ? {} : { containerPort };
  if (check.http !== undefined) return { ...timing, kind: 'http', port, ...inside, ...pathOf(check.http.path) };
  return { ...timing, kind: 'tcp', port, ...inside };
}

function timingOf(check: AppCheck | PodCheck): LaunchCheckTiming {
  return {
    delayMs: (check.delaySeconds ?? CHECK_DEFAULT_SECONDS.delaySeconds) * 1000,
    intervalMs: (check.intervalSeconds ?? CHECK_DEFAULT_SECONDS.intervalSeconds) * 1000,
    timeoutMs: (check.timeoutSeconds ?? CHECK_DEFAULT_SECONDS.timeoutSeconds) * 1000,
  };
}

function pathOf(path: string | undefined): { path?: string } {
  return path === undefined || path === '' ? {} : { path };
}

function launchCommandOf(command: MesosCommand): LaunchCommand {
  return 'shell' in command ? { shell: command.shell } : { argv: command.argv };
}
