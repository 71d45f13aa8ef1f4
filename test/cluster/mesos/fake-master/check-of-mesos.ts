import type { CheckInfo } from '../../../../src/cluster/mesos/codec/mesos-model';
import type { LaunchCheck } from '../../../../src/scheduler/model/launch';

/** `mesos.v1.CheckInfo`'s defaults for unset timing, in seconds (mesos-v1-scheduler-api.md §8: delay 15, interval 10, timeout 20). */
const DEFAULTS = { delaySeconds: 15, intervalSeconds: 10, timeoutSeconds: 20 };

/**
 * A `TaskInfo.check` (§5.5) as the check the simulated executor runs, read from the Mesos message
 * alone (never the run spec), so what the driver left out or got wrong is what the executor runs:
 * the kind from `type`, the timing in ms with Mesos's defaults, the port as sent.
 *
 * An error text (the caller records it as a problem) for a check no Mesos executor runs: no
 * `type`, or a type without its sub-message, or a command without a value (Mesos's
 * `validation::checkInfo`).
 */
export function checkOfMesos(info: CheckInfo): LaunchCheck | string {
  const ms = (s: number | undefined, d: number): number => Math.round((s ?? d) * 1000);
  const timing = {
    delayMs: ms(info.delaySeconds, DEFAULTS.delaySeconds),
    intervalMs: ms(info.intervalSeconds, DEFAULTS.intervalSeconds),
    timeoutMs: ms(info.timeoutSeconds, DEFAULTS.timeoutSeconds),
  };
  switch (info.type) {
    case 'HTTP':
      if (info.http === undefined) return 'an HTTP check without `http`';
      return { ...timing, kind: 'http', port: info.http.port, ...(info.http.path === undefined ? {} : { path: info.http.path }) };
    case 'TCP':
      if (info.tcp === undefined) return 'a TCP check without `tcp`';
      return { ...timing, kind: 'tcp', port: info.tcp.port };
    case 'COMMAND': {
      const command = info.command?.command;
      if (command?.value === undefined) return 'a COMMAND check without a command value';
      return { ...timing, kind: 'command', command: command.shell === false ? { argv: command.arguments ?? [command.value] } : { shell: command.value } };
    }
    default:
      return `a check of type ${info.type ?? '(none)'}, which no executor runs`;
  }
}
