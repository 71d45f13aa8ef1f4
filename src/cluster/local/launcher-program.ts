import type * as ChildProcessModule from 'node:child_process';
import type * as FsModule from 'node:fs';
import type * as PathModule from 'node:path';

/** A request to the launcher: start one task process. */
export interface SpawnRequest {
  readonly id: number;
  readonly file: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** The task's sandbox: created if missing; the process's working directory, with its `stdout` and `stderr` files. */
  readonly sandbox: string;
}

/** What the launcher answers about a request: started (then, later, exited) or could not start. */
export type LauncherReply =
  | { readonly type: 'spawned'; readonly id: number; readonly pid: number }
  | { readonly type: 'failed'; readonly id: number; readonly message: string }
  | { readonly type: 'exited'; readonly id: number; readonly code: number | null; readonly signal: string | null };

/** The host modules the launcher program uses, handed in so that it closes over nothing. */
export interface LauncherModules {
  readonly childProcess: typeof ChildProcessModule;
  readonly fs: typeof FsModule;
  readonly path: typeof PathModule;
}

/**
 * The launcher process's program (run by {@link TaskLauncher} as `node -e`, see there why). It
 * starts task processes as Mesos's command executor would: in the sandbox directory (created when
 * missing), detached — so each task leads its own process group and session, kills go to the
 * whole group, and the task outlives pacer and the launcher — with stdin closed and stdout/stderr
 * appended to the sandbox's `stdout` and `stderr` files. It answers `spawned` with the pid, or
 * `failed`, and later `exited` with the exit code or signal.
 *
 * It serves one pacer and dies with it: before each spawn it checks that its parent is still
 * pacer (a launcher left behind by a `kill -9` must never start a task the next pacer cannot have
 * on record, since that pacer's sweep has already run), and it exits when the channel closes.
 * Self-contained: it closes over nothing (its source text is what runs).
 */
export function launcherProgram(m: LauncherModules): void {
  const parent = process.ppid;
  const reply = (message: LauncherReply): void => {
    if (process.connected) process.send?.(message);
  };
  process.on('disconnect', () => process.exit(0));
  process.on('message', (request: SpawnRequest) => {
    if (process.ppid !== parent) process.exit(0);
    let out: number | undefined;
    let err: number | undefined;
    let child: ChildProcessModule.ChildProcess;
    try {
      m.fs.mkdirSync(request.sandbox, { recursive: true });
      out = m.fs.openSync(m.path.join(request.sandbox, 'stdout'), 'a');
      err = m.fs.openSync(m.path.join(request.sandbox, 'stderr'), 'a');
      child = m.childProcess.spawn(request.file, [...request.args], {
        cwd: request.sandbox, env: { ...request.env }, detached: true, stdio: ['ignore', out, err],
      });
    } catch (e) {
      reply({ type: 'failed', id: request.id, message: `could not start the task in ${request.sandbox}: ${(e as Error).message}` });
      return;
    } finally {
      if (out !== undefined) m.fs.closeSync(out);
      if (err !== undefined) m.fs.closeSync(err);
    }
    child.unref();
    const pid = child.pid;
    if (pid === undefined) {
      child.once('error', (e) => reply({ type: 'failed', id: request.id, message: `could not start ${request.file}: ${e.message}` }));
      return;
    }
    child.once('error', () => undefined);
    child.once('exit', (code, signal) => reply({ type: 'exited', id: request.id, code, signal }));
    reply({ type: 'spawned', id: request.id, pid });
  });
}
