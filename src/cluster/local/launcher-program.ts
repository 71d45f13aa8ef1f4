import type * as ChildProcessModule from 'node:child_process';
import type * as FsModule from 'node:fs';
import type * as PathModule from 'node:path';
import type { PosixSpawner } from './posix-spawner';

/** A request to the launcher: start one task process. */
export interface SpawnRequest {
  readonly id: number;
  readonly file: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** The task's sandbox: created if missing; the process's working directory, with its `stdout` and `stderr` files. */
  readonly sandbox: string;
  /**
   * A simple shell command's words (simple-command.ts), `file` and `args` being `/bin/sh -c` and
   * the command: exec'ed directly when the first word names an executable file (searched as the
   * shell does: in the sandbox when it holds a `/`, else along the environment's `PATH`), with
   * `PWD` set as dash sets it; otherwise, or when that exec fails, `file` and `args` run.
   */
  readonly direct?: readonly string[];
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
  /** Processes by `posix_spawn` (posix-spawner.ts); without it, or for a file without a `/`, `childProcess` starts them. */
  readonly posix?: PosixSpawner;
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
  // A reply can fail although the channel still looks connected: pacer disconnected (its term
  // ended: abdication, a lost ZooKeeper) or died while requests were being started, and the write
  // meets a closed pipe. Without a callback that failure is an 'error' event nobody handles: the
  // launcher crashed with EPIPE and wrote Node's stack trace into pacer's log (found in an
  // operator's trial: one per few abdications under a write load). Pacer hears nothing more
  // either way; the launcher leaves on the channel's disconnect.
  const reply = (message: LauncherReply): void => {
    if (process.connected) process.send?.(message, undefined, undefined, () => undefined);
  };
  /** A program to exec: its file, its argv (argv[0] first) and its whole environment. */
  interface Program { readonly file: string; readonly argv: readonly string[]; readonly env: Readonly<Record<string, string>> }
  const failed = (request: SpawnRequest, why: string): void => reply({ type: 'failed', id: request.id, message: `could not start ${request.file}: ${why}` });
  const sandboxFailed = (request: SpawnRequest, e: unknown): void =>
    reply({ type: 'failed', id: request.id, message: `could not start the task in ${request.sandbox}: ${(e as Error).message}` });
  /** Whether `file` is an executable regular file. */
  const executable = async (file: string): Promise<boolean> => {
    try {
      if (!(await m.fs.promises.stat(file)).isFile()) return false;
      await m.fs.promises.access(file, m.fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  /**
   * A simple command's program found as `sh` would find it, with `PWD` as `sh` exports it;
   * undefined when not found (then `sh` runs the command and reports why).
   */
  const findDirect = async (request: SpawnRequest): Promise<Program | undefined> => {
    const words = request.direct;
    if (words === undefined) return undefined;
    const candidates = words[0].includes('/')
      ? [m.path.resolve(request.sandbox, words[0])]
      : (request.env.PATH ?? '').split(':').map((dir) => m.path.resolve(request.sandbox, dir, words[0]));
    for (const file of candidates) {
      if (await executable(file)) return { file, argv: words, env: { ...request.env, PWD: await m.fs.promises.realpath(request.sandbox) } };
    }
    return undefined;
  };
  /** What to try, in order: the simple command's program when found, then the request's `file` and `args`. */
  const programsOf = (request: SpawnRequest, direct: Program | undefined): Program[] => [
    ...(direct === undefined ? [] : [direct]),
    { file: request.file, argv: [request.file, ...request.args], env: request.env },
  ];
  /** Spawn by Node, detached with the log files: the first program that execs (the last one's child whatever happens to it). */
  const spawnChild = (programs: readonly Program[], cwd: string, out: number, err: number): ChildProcessModule.ChildProcess => {
    const stdio: ChildProcessModule.StdioOptions = ['ignore', out, err];
    for (let i = 0; ; i++) {
      const p = programs[i];
      const child = m.childProcess.spawn(p.file, p.argv.slice(1), { cwd, detached: true, stdio, argv0: p.argv[0], env: { ...p.env } });
      if (child.pid !== undefined || i === programs.length - 1) return child;
      child.once('error', () => undefined);
    }
  };
  /** Start by Node's child_process and report: `spawned` and later `exited`, or `failed`. */
  const startChild = (request: SpawnRequest, programs: readonly Program[], out: number, err: number): void => {
    const child = spawnChild(programs, request.sandbox, out, err);
    child.unref();
    const pid = child.pid;
    if (pid === undefined) {
      child.once('error', (e) => failed(request, e.message));
      return;
    }
    child.once('error', () => undefined);
    child.once('exit', (code, signal) => reply({ type: 'exited', id: request.id, code, signal }));
    reply({ type: 'spawned', id: request.id, pid });
  };
  /** Start by `posix_spawn` and report as {@link startChild} does (the same messages). */
  const startPosix = (posix: PosixSpawner, request: SpawnRequest, programs: readonly Program[], out: number, err: number): void => {
    let pid: number | string = 'ENOENT';
    for (const p of programs) {
      pid = posix.spawn(p.file, p.argv, p.env, request.sandbox, out, err);
      if (typeof pid === 'number') break;
    }
    if (typeof pid !== 'number') {
      failed(request, `spawn ${request.file} ${pid}`);
      return;
    }
    posix.watch(pid, (code, signal) => reply({ type: 'exited', id: request.id, code, signal }));
    reply({ type: 'spawned', id: request.id, pid });
  };
  /** Whether a text of the request holds a NUL, which C would cut short where Node's child_process refuses it (and says so). */
  const hasNul = (request: SpawnRequest): boolean =>
    [request.file, ...request.args, ...Object.keys(request.env), ...Object.values(request.env)].some((text) => text.includes('\0'));
  /** Start the process, once the sandbox and its log files are ready; the files are closed here (the child has them). */
  const start = (request: SpawnRequest, out: FsModule.promises.FileHandle, err: FsModule.promises.FileHandle, direct: Program | undefined): void => {
    if (process.ppid !== parent) process.exit(0);
    const programs = programsOf(request, direct);
    try {
      if (m.posix !== undefined && request.file.includes('/') && !hasNul(request)) startPosix(m.posix, request, programs, out.fd, err.fd);
      else startChild(request, programs, out.fd, err.fd);
    } catch (e) {
      failed(request, (e as Error).message);
    } finally {
      void out.close();
      void err.close();
    }
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
      findDirect(request),
    ]));
    files.then(([out, err, direct]) => {
      if (out.status === 'fulfilled' && err.status === 'fulfilled') {
        start(request, out.value, err.value, direct.status === 'fulfilled' ? direct.value : undefined);
        return;
      }
      for (const opened of [out, err]) if (opened.status === 'fulfilled') void opened.value.close();
      sandboxFailed(request, ([out, err].find((r) => r.status === 'rejected') as PromiseRejectedResult).reason);
    }, (e: unknown) => sandboxFailed(request, e));
  });
}
