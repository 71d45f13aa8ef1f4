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
  /** Fork and exec, once the sandbox and its log files are ready; the files are closed here (the child has them). */
  const start = (request: SpawnRequest, out: FsModule.promises.FileHandle, err: FsModule.promises.FileHandle): void => {
    if (process.ppid !== parent) process.exit(0);
    let child: ChildProcessModule.ChildProcess;
    try {
      child = m.childProcess.spawn(request.file, [...request.args], {
        cwd: request.sandbox, env: { ...request.env }, detached: true, stdio: ['ignore', out.fd, err.fd],
      });
    } catch (e) {
      reply({ type: 'failed', id: request.id, message: `could not start ${request.file}: ${(e as Error).message}` });
      return;
    } finally {
      void out.close();
      void err.close();
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
  };
  process.on('disconnect', () => process.exit(0));
  // Ctrl-C in a terminal reaches pacer's whole process group: the launcher leaves with pacer, not before it.
  process.on('SIGINT', () => undefined);
  // The sandbox and its files are made on libuv's thread pool, so that they overlap the forks of
  // earlier requests on the main thread (a fork, a mkdir and two opens each cost milliseconds on
  // a loaded machine); spawns may therefore happen out of request order.
  process.on('message', (request: SpawnRequest) => {
    const fsp = m.fs.promises;
    const files = fsp.mkdir(request.sandbox, { recursive: true }).then(() => Promise.allSettled([
      fsp.open(m.path.join(request.sandbox, 'stdout'), 'a'),
      fsp.open(m.path.join(request.sandbox, 'stderr'), 'a'),
    ]));
    files.then(([out, err]) => {
      if (out.status === 'fulfilled' && err.status === 'fulfilled') {
        start(request, out.value, err.value);
        return;
      }
      for (const opened of [out, err]) if (opened.status === 'fulfilled') void opened.value.close();
      const reason = [out, err].find((r) => r.status === 'rejected') as PromiseRejectedResult;
      reply({ type: 'failed', id: request.id, message: `could not start the task in ${request.sandbox}: ${(reason.reason as Error).message}` });
    }, (e: unknown) => {
      reply({ type: 'failed', id: request.id, message: `could not start the task in ${request.sandbox}: ${(e as Error).message}` });
    });
  });
}
