import { spawn, type ChildProcess } from 'node:child_process';
import { launcherProgram, type LauncherReply, type SpawnRequest } from './launcher-program';
import { posixSpawner } from './posix-spawner';

/** The launcher process's title, as `ps` shows it. */
export const LAUNCHER_TITLE = 'pacer: local task launcher';

/** What the launcher reports about one spawn request. */
export interface SpawnCallbacks {
  /** The process started (its pid); `exited` follows when it ends. */
  spawned(pid: number): void;
  /** It could not be started. */
  failed(message: string): void;
  exited(code: number | null, signal: string | null): void;
  /** The launcher died before answering (or before the process exited): what happened is unknown here. */
  lost(): void;
}

/** Starts task processes: the local executor's one way to spawn. */
export interface TaskSpawner {
  spawn(request: Omit<SpawnRequest, 'id'>, callbacks: SpawnCallbacks): void;
}

/**
 * Spawns task processes through a small helper process (the launcher, {@link launcherProgram})
 * instead of from pacer itself. Why: `fork()` copies the page tables of the process that forks,
 * so spawning from pacer (150–250 MB resident) cost 8 ms per task on the project's loaded 2-core
 * machine, against 2.5 ms from a 40 MB process; and the launcher does the forks, the sandbox
 * directories and the log files on the other core while pacer's loop goes on (issue 13: ≥ 100
 * tasks/s to TASK_RUNNING on one local agent). The launcher runs as `node -e <its source>`: no
 * TypeScript loader to start (0.2 s instead of 0.7 s under tsx, half the memory to fork), the same
 * from `src/` and `dist/`. It is started with the cluster (or by the first spawn) and stops with it.
 *
 * Requests and replies go over Node's IPC channel, in order. Pids arrive a little later than
 * with an in-process spawn; the local cluster records each launch before its request is sent
 * (a launch whose pid never came back is found by the start-up sweep, sandbox-sweep.ts). If the
 * launcher dies, every request still open is reported `lost`.
 */
/** Requests still starting at which the launcher counts as running low on work. */
const LOW_WATER = 1;

export class TaskLauncher implements TaskSpawner {
  private child: ChildProcess | undefined;
  private nextId = 1;
  private readonly open = new Map<number, SpawnCallbacks>();
  /** Requests not answered `spawned` or `failed` yet. */
  private starting = 0;

  /**
   * `runningLow`: called when the launcher is about to run out of work — a reply leaves at most one
   * request still starting — so that the next launches can be on their way before it idles.
   */
  constructor(
    private readonly runningLow: () => void = () => undefined,
    /** Start processes by `posix_spawn` where koffi loads (posix-spawner.ts); false: always by Node's child_process. */
    private readonly posix = true,
  ) {}

  /** The launcher process's pid, while one runs. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  spawn(request: Omit<SpawnRequest, 'id'>, callbacks: SpawnCallbacks): void {
    const child = this.child ?? this.startLauncher();
    const id = this.nextId++;
    this.open.set(id, callbacks);
    this.starting++;
    child.send({ ...request, id } satisfies SpawnRequest);
  }

  /** Start the launcher process now (else the first spawn starts it), so that the first launch does not wait for it. */
  warmUp(): void {
    if (this.child === undefined) this.startLauncher();
  }

  /** Stop listening and let the launcher go: it starts what it has received, then exits. Nothing more is reported. */
  close(): void {
    const child = this.child;
    this.child = undefined;
    this.open.clear();
    this.starting = 0;
    if (child === undefined) return;
    child.removeAllListeners('message');
    child.removeAllListeners('exit');
    if (child.connected) child.disconnect();
  }

  /** Kill the launcher now (it starts nothing more); resolves once it has exited. Nothing more is reported. */
  async kill(): Promise<void> {
    const child = this.child;
    this.close();
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    // The launcher is unref'd (it must not keep pacer alive); while we wait for its exit, it must.
    child.ref();
    child.kill('SIGKILL');
    await exited;
  }

  private startLauncher(): ChildProcess {
    // `__name`: tsx (tests) wraps named functions in a helper the launcher's source would not find.
    // The title first: `ps` shows it instead of the ~5 KB program given with -e.
    const source = `process.title = ${JSON.stringify(LAUNCHER_TITLE)}; const __name = (f) => f; (${launcherProgram.toString()})({ childProcess: require('node:child_process'), fs: require('node:fs'), path: require('node:path'), posix: ${this.posix ? posixSource() : 'undefined'} });`;
    const child = spawn(process.execPath, ['-e', source], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    child.on('message', (reply: LauncherReply) => this.onReply(reply));
    child.once('exit', () => this.onExit(child));
    child.once('error', () => this.onExit(child));
    // Neither the launcher nor its channel keeps pacer running.
    child.unref();
    child.channel?.unref();
    this.child = child;
    return child;
  }

  private onReply(reply: LauncherReply): void {
    const callbacks = this.open.get(reply.id);
    if (callbacks === undefined) return;
    switch (reply.type) {
      case 'spawned':
        callbacks.spawned(reply.pid);
        this.oneStarted();
        return;
      case 'failed':
        this.open.delete(reply.id);
        callbacks.failed(reply.message);
        this.oneStarted();
        return;
      case 'exited':
        this.open.delete(reply.id);
        callbacks.exited(reply.code, reply.signal);
    }
  }

  private oneStarted(): void {
    this.starting--;
    if (this.starting <= LOW_WATER) this.runningLow();
  }

  private onExit(child: ChildProcess): void {
    if (this.child !== child) return;
    this.child = undefined;
    const lost = [...this.open.values()];
    this.open.clear();
    this.starting = 0;
    for (const callbacks of lost) callbacks.lost();
    this.runningLow();
  }
}

/**
 * The launcher's expression for its {@link posixSpawner}: koffi required by its resolved path (the
 * launcher's `-e` source resolves modules from the working directory, not from pacer's), undefined
 * where koffi or libc's functions cannot be loaded (Node's child_process starts the processes then).
 */
function posixSource(): string {
  let koffiPath: string;
  try {
    koffiPath = require.resolve('koffi');
  } catch {
    return 'undefined';
  }
  const os = "require('node:os').constants";
  return `(() => { try { return (${posixSpawner.toString()})(require(${JSON.stringify(koffiPath)}), ${os}.signals, ${os}.errno); } catch { return undefined; } })()`;
}

