import type { LaunchCheck, LaunchCommand } from '../../../scheduler/model/launch';
import type { CheckInfo, CommandInfo } from '../codec/mesos-model';

/**
 * A task's resolved `check` (Marathon's `check` of an app or pod container) as the Mesos
 * `CheckInfo` the built-in executors run (mesos-v1-scheduler-api.md §5.5), as Marathon's
 * `MesosCheck.toMesos` builds it: `type` always set, the timing in seconds (delay, interval,
 * timeout, all three sent), HTTP with its `path` when given (Mesos checks speak plain HTTP: a
 * `scheme` is not sent), COMMAND through the shell or as an argv. HTTP and TCP probe 127.0.0.1
 * inside the task's network namespace (§5.2), so the port is the container port when the launcher
 * resolved one (container networking; 0 means the host port), else the host port — Marathon's
 * `effectivePort`, which prefers the container port.
 */
export function checkToMesos(check: LaunchCheck): CheckInfo {
  const timing = { delaySeconds: check.delayMs / 1000, intervalSeconds: check.intervalMs / 1000, timeoutSeconds: check.timeoutMs / 1000 };
  switch (check.kind) {
    case 'command':
      return { type: 'COMMAND', command: { command: commandInfoOf(check.command) }, ...timing };
    case 'http':
      return { type: 'HTTP', http: { port: portOf(check), ...(check.path === undefined ? {} : { path: check.path }) }, ...timing };
    case 'tcp':
      return { type: 'TCP', tcp: { port: portOf(check) }, ...timing };
  }
}

function portOf(check: { readonly port: number; readonly containerPort?: number }): number {
  return check.containerPort !== undefined && check.containerPort > 0 ? check.containerPort : check.port;
}

/** A check's command: a shell command, or an argv run without one (`value` its first word, as Mesos validates a check's command: it must have a value). */
function commandInfoOf(command: LaunchCommand): CommandInfo {
  if ('shell' in command) return { shell: true, value: command.shell };
  return { shell: false, ...(command.argv.length > 0 ? { value: command.argv[0] } : {}), arguments: [...command.argv] };
}
