import { join } from 'node:path';

/** The sandbox directory of a task: a directory named after the task id (made file-name safe). */
export function sandboxOf(sandboxRoot: string, taskId: string): string {
  return join(sandboxRoot, taskId.replace(/[^A-Za-z0-9._-]/g, '_'));
}
