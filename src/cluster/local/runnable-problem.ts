import type { TaskLaunch } from '../../scheduler/model/launch';
import { containerImageOf, imageRefusal } from './container-image';
import { taskCommand } from './task-command';

/**
 * Why the tasks of one launch operation cannot run on the local cluster — a container image, a
 * secret (there is no secret store to resolve it from), or nothing to run — or undefined when
 * they all can. The whole operation is refused (TASK_ERROR),
 * never silently ignored.
 */
export function runnableProblem(tasks: readonly TaskLaunch[]): string | undefined {
  for (const t of tasks) {
    const image = containerImageOf(t);
    if (image !== undefined) return imageRefusal(image);
    const secrets = secretRefusal(t);
    if (secrets !== undefined) return secrets;
    const command = taskCommand(t);
    if (!command.ok) return command.message;
  }
  return undefined;
}

/** The TASK_ERROR message for a task that needs secrets: names only (never values, which pacer never has). */
function secretRefusal(launch: TaskLaunch): string | undefined {
  const env = launch.secretEnv.map((r) => `${r.variable} (secret '${r.secret}')`);
  const files = launch.secretVolumes.map((s) => `a volume of secret '${s}'`);
  const needs = [...env, ...files];
  if (needs.length === 0) return undefined;
  return `the local cluster cannot resolve secrets (it has no secret store); this task needs ${needs.join(', ')}`;
}
