import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';

/** The process started for a task. `pid` is undefined when the start failed (`child` then emits `error`). */
export interface SpawnedTask {
  readonly child: ChildProcess;
  readonly pid?: number;
}

/**
 * Starts a task process in `sandbox` (created when missing): detached, so it leads its own
 * process group and session — kills go to the whole group, and the task outlives pacer — with
 * stdin closed and stdout/stderr appended to the sandbox's `stdout` and `stderr` files, as in a
 * Mesos sandbox. The child is unref'ed: pacer never waits for its tasks to exit.
 * Throws when the sandbox or its log files cannot be created.
 */
export function spawnTask(file: string, args: readonly string[], env: Readonly<Record<string, string>>, sandbox: string): SpawnedTask {
  mkdirSync(sandbox, { recursive: true });
  const out = openSync(join(sandbox, 'stdout'), 'a');
  const err = openSync(join(sandbox, 'stderr'), 'a');
  try {
    const child = spawn(file, args, { cwd: sandbox, env, detached: true, stdio: ['ignore', out, err] });
    child.unref();
    return child.pid === undefined ? { child } : { child, pid: child.pid };
  } finally {
    closeSync(out);
    closeSync(err);
  }
}

/** The sandbox directory of a task: a directory named after the task id (made file-name safe). */
export function sandboxOf(sandboxRoot: string, taskId: string): string {
  return join(sandboxRoot, taskId.replace(/[^A-Za-z0-9._-]/g, '_'));
}
