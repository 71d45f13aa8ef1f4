import type { TaskLaunch } from '../../scheduler/model/launch';
import { containerImageOf, imageRefusal } from './container-image';
import { taskCommand } from './task-command';

/**
 * Why the tasks of one launch operation cannot run on the local cluster — a container image, or
 * nothing to run — or undefined when they all can. The whole operation is refused (TASK_ERROR),
 * never silently ignored.
 */
export function runnableProblem(tasks: readonly TaskLaunch[]): string | undefined {
  for (const t of tasks) {
    const image = containerImageOf(t);
    if (image !== undefined) return imageRefusal(image);
    const command = taskCommand(t);
    if (!command.ok) return command.message;
  }
  return undefined;
}
