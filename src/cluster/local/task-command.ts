import type { TaskLaunch } from '../../scheduler/model/launch';

/** What to execute for a task: a file and its arguments, or why there is nothing to run. */
export type TaskCommand =
  | { readonly ok: true; readonly file: string; readonly args: readonly string[] }
  | { readonly ok: false; readonly message: string };

/**
 * The process of a task, as the Mesos command executor would start it: an app's `cmd` through
 * `/bin/sh -c`, an app's `args` exec'ed directly (no shell), a pod container's
 * `exec.command.shell` through `/bin/sh -c`. A task with neither has nothing the local cluster
 * can run (its image's entrypoint would be used on Mesos).
 */
export function taskCommand(launch: TaskLaunch): TaskCommand {
  const spec = launch.spec;
  if (spec.kind === 'app') {
    if (spec.cmd !== undefined && spec.cmd !== '') return shell(spec.cmd);
    if (spec.args !== undefined && spec.args.length > 0) return { ok: true, file: spec.args[0], args: spec.args.slice(1) };
    return { ok: false, message: `app ${spec.id} has neither cmd nor args: the local cluster has nothing to run` };
  }
  const command = spec.containers.find((c) => c.name === launch.containerName)?.command;
  if (command !== undefined && command !== '') return shell(command);
  return { ok: false, message: `container ${launch.containerName ?? '?'} of pod ${spec.id} has no exec.command.shell: the local cluster has nothing to run` };
}

function shell(command: string): TaskCommand {
  return { ok: true, file: '/bin/sh', args: ['-c', command] };
}
