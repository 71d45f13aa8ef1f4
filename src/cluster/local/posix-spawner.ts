/** The part of koffi (a C foreign-function interface for Node.js) the posix spawner uses. */
export interface KoffiLike {
  load(path: string): { func(signature: string): (...args: unknown[]) => unknown };
}

/** Starts processes with glibc's `posix_spawn` and reaps them; see {@link posixSpawner}. */
export interface PosixSpawner {
  /**
   * Start `file` (a path with a `/`) with `argv` (its argv[0] first) and exactly `env`, in `cwd`,
   * leading a new session, stdin from /dev/null, stdout and stderr on the given descriptors, no
   * other descriptor inherited, every signal at its default and none blocked. The pid, or the
   * errno's name (`ENOENT`, `EACCES`, `ENOEXEC`, …) when the process could not be started.
   */
  spawn(file: string, argv: readonly string[], env: Readonly<Record<string, string>>, cwd: string, outFd: number, errFd: number): number | string;
  /** Call `exited` once the process `pid` (one this spawner started) has ended; it is reaped on SIGCHLD. */
  watch(pid: number, exited: (code: number | null, signal: string | null) => void): void;
}

/**
 * A spawner on glibc's `posix_spawn` (through koffi), or undefined where libc or one of its
 * functions cannot be loaded (then the launcher uses Node's `child_process`).
 *
 * Why: Node's `child_process.spawn` forks — it copies the page tables of the launcher's ~40 MB and
 * every page either side writes afterwards faults once more — which cost the launcher 3.4–4.9 ms of
 * CPU per task on the project's VM (a page's first touch 13 µs there), against 0.7 ms for
 * `posix_spawn`, whose `CLONE_VFORK` child borrows the parent's memory until it execs (issue 13:
 * ≥ 100 tasks/s to TASK_RUNNING on one local agent).
 *
 * Self-contained like the launcher program (its source text runs in the launcher process).
 */
export function posixSpawner(koffi: KoffiLike, signals: Readonly<Record<string, number>>, errnos: Readonly<Record<string, number>>): PosixSpawner | undefined {
  const POSIX_SPAWN_SETSIGDEF = 0x04;
  const POSIX_SPAWN_SETSIGMASK = 0x08;
  const POSIX_SPAWN_SETSID = 0x80;
  const WNOHANG = 1;
  const O_RDONLY = 0;
  type CFunction = (...args: unknown[]) => unknown;
  let c: Record<string, CFunction>;
  try {
    const libc = koffi.load('libc.so.6');
    const signatures: Record<string, string> = {
      spawn: 'int posix_spawn(_Out_ int *pid, const char *path, void *actions, void *attr, const char **argv, const char **envp)',
      actionsInit: 'int posix_spawn_file_actions_init(void *actions)',
      actionsDestroy: 'int posix_spawn_file_actions_destroy(void *actions)',
      addChdir: 'int posix_spawn_file_actions_addchdir_np(void *actions, const char *path)',
      addOpen: 'int posix_spawn_file_actions_addopen(void *actions, int fd, const char *path, int oflag, uint32_t mode)',
      addDup2: 'int posix_spawn_file_actions_adddup2(void *actions, int fd, int newfd)',
      addClosefrom: 'int posix_spawn_file_actions_addclosefrom_np(void *actions, int from)',
      attrInit: 'int posix_spawnattr_init(void *attr)',
      attrFlags: 'int posix_spawnattr_setflags(void *attr, short flags)',
      attrSigdefault: 'int posix_spawnattr_setsigdefault(void *attr, void *set)',
      attrSigmask: 'int posix_spawnattr_setsigmask(void *attr, void *set)',
      sigfillset: 'int sigfillset(void *set)',
      sigemptyset: 'int sigemptyset(void *set)',
      waitpid: 'int waitpid(int pid, _Out_ int *status, int options)',
    };
    c = Object.fromEntries(Object.entries(signatures).map(([name, signature]) => [name, libc.func(signature)]));
  } catch {
    return undefined;
  }
  // Opaque glibc structures, in buffers larger than they are (80, 336 and 128 bytes on x86-64).
  const attr = Buffer.alloc(1024);
  const allSignals = Buffer.alloc(256);
  const noSignals = Buffer.alloc(256);
  c.attrInit(attr);
  c.sigfillset(allSignals);
  c.sigemptyset(noSignals);
  c.attrSigdefault(attr, allSignals);
  c.attrSigmask(attr, noSignals);
  c.attrFlags(attr, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  // The first name of a number, as Node names it (SIGABRT, not SIGIOT; SIGIO, not SIGPOLL).
  const signalNames = new Map<number, string>();
  for (const [name, n] of Object.entries(signals)) if (!signalNames.has(n)) signalNames.set(n, name);
  const errnoNames = new Map(Object.entries(errnos).map(([name, n]) => [n, name]));
  const watched = new Map<number, (code: number | null, signal: string | null) => void>();
  process.on('SIGCHLD', () => {
    for (const [pid, exited] of watched) {
      const status = [0];
      const got = c.waitpid(pid, status, WNOHANG) as number;
      if (got === 0) continue;
      watched.delete(pid);
      const s = status[0];
      if (got !== pid) exited(null, null);
      else if ((s & 0x7f) === 0) exited((s >> 8) & 0xff, null);
      else exited(null, signalNames.get(s & 0x7f) ?? `signal ${s & 0x7f}`);
    }
  });
  return {
    spawn(file, argv, env, cwd, outFd, errFd) {
      const actions = Buffer.alloc(512);
      c.actionsInit(actions);
      try {
        c.addChdir(actions, cwd);
        c.addOpen(actions, 0, '/dev/null', O_RDONLY, 0);
        c.addDup2(actions, outFd, 1);
        c.addDup2(actions, errFd, 2);
        c.addClosefrom(actions, 3);
        const pid = [0];
        const envp = [...Object.entries(env).map(([k, v]) => `${k}=${v}`), null];
        const rc = c.spawn(pid, file, actions, attr, [...argv, null], envp) as number;
        return rc === 0 ? pid[0] : errnoNames.get(rc) ?? `errno ${rc}`;
      } finally {
        c.actionsDestroy(actions);
      }
    },
    watch(pid, exited) {
      watched.set(pid, exited);
    },
  };
}
