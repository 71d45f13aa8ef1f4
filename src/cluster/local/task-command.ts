import type { TaskLaunch } from '../../scheduler/model/launch';
import { simpleCommand } from './simple-command';

/**
 * What to execute for a task: a file and its arguments (and, for a shell command the shell would
 * only run, its words to exec directly, {@link simpleCommand}), or why there is nothing to run.
 */
export type TaskCommand =
  | { readonly ok: true; readonly file: string; readonly args: readonly string[]; readonly direct?: readonly string[] }
  | { readonly ok: false; readonly message: string };

/**
 * The process of a task, as the Mesos command executor would start it: a shell command (an app's
 * `cmd`, a pod container's `exec.command.shell`) through `/bin/sh -c` (a simple command's words
 * may be exec'ed directly instead, which the shell would do to them anyway), an argv (an app's
 * `args`) exec'ed directly (no shell). A task with neither has nothing the local cluster can run (its
 * image's entrypoint would be used on Mesos).
 */
export function taskCommand(launch: TaskLaunch): TaskCommand {
  const command = launch.command;
  if (command !== undefined && 'shell' in command && command.shell !== '') return { ok: true, file: '/bin/sh', args: ['-c', command.shell], direct: simpleCommand(command.shell) };
  if (command !== undefined && 'argv' in command && command.argv.length > 0) return { ok: true, file: command.argv[0], args: command.argv.slice(1) };
  if (launch.containerName === undefined) {
    return { ok: false, message: `app ${launch.runSpecId} has neither cmd nor args: the local cluster has nothing to run` };
  }
  return { ok: false, message: `container ${launch.containerName} of pod ${launch.runSpecId} has no exec.command.shell: the local cluster has nothing to run` };
}
