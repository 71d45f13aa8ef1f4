import { hostProcesses, type HostProcess } from './sandbox-processes';
import { isProcessAlive, killProcessAndGroup, readStat } from './process-identity';
import type { TaskRecord } from './state-file';

/** What one sweep decided. */
export interface SweepPlan {
  /** Processes found for live tasks recorded without a pid (pacer died between recording the launch and its pid). */
  readonly found: ReadonlyMap<string, HostProcess>;
  /** Processes of the sandboxes that no adopted task accounts for. */
  readonly strays: readonly HostProcess[];
}

/** What a sweep did: the pids it filled in and the processes it killed. */
export interface SweepResult {
  readonly found: ReadonlyMap<string, HostProcess>;
  readonly killed: readonly HostProcess[];
}

/**
 * How a process is told to belong to the local cluster's sandboxes, and to which task (the
 * identification chosen for issue 11, item 3):
 *
 * - **Environment marker.** Every task process starts with `MESOS_SANDBOX` = its task's sandbox,
 *   a directory directly under the sandbox root (task-env.ts; the definition's own `env` cannot
 *   override it). /proc/<pid>/environ is the environment the process was *started* with: it does
 *   not change when the process changes its variables, and children inherit it. It names the root
 *   — two pacers with different roots, or Mesos tasks on the same host, never match — and the
 *   task. Command health checks run with the task's environment plus a mark of their own.
 * - **Session.** A task is started detached: it leads its own session (its pid is the session
 *   id), and its descendants stay in it unless they call setsid. A process that cleared its
 *   environment is recognised by its session: that of an adopted task (kept), or that of a stray
 *   (killed). A session id of a live process cannot be recycled while the session has members.
 * - **Not the working directory**: a task may chdir anywhere, and matching cwd prefixes would
 *   reach every process under a sandbox root as broad as `$HOME`.
 *
 * Decisions, for the live (non-terminal) task records of the state file:
 * - a record without a pid adopts the process of its sandbox that leads its own session: the
 *   launch was recorded, the process ran, only its pid was lost. When that leader is gone, the
 *   task has ended (what is left of it is swept, as the executor kills a task's group on exit);
 * - a process is kept when it is in the session of an adopted task, or names the sandbox of an
 *   adopted task and is not a check; an adopted task is one whose recorded process still runs;
 * - every other marked process is a stray, and so is every process in a stray's session.
 * The caller's own session is never swept.
 */
export function planSweep(
  liveTasks: readonly TaskRecord[], processes: readonly HostProcess[], alive: (pid: number, startTime: string | undefined) => boolean,
  ownSession: number,
): SweepPlan {
  const found = new Map<string, HostProcess>();
  for (const task of liveTasks) {
    if (task.pid !== undefined) continue;
    const leader = processes.find((p) => p.sandbox === task.sandbox && !p.check && p.pid === p.session);
    if (leader !== undefined) found.set(task.taskId, leader);
  }
  const sessions = new Set<number>([ownSession]);
  const sandboxes = new Set<string>();
  for (const task of liveTasks) {
    const pid = found.get(task.taskId)?.pid ?? task.pid;
    const startTime = found.get(task.taskId)?.startTime ?? task.startTime;
    if (pid === undefined || !alive(pid, startTime)) continue;
    sessions.add(pid);
    sandboxes.add(task.sandbox);
  }
  const kept = (p: HostProcess): boolean => sessions.has(p.session) || (!p.check && p.sandbox !== undefined && sandboxes.has(p.sandbox));
  const marked = processes.filter((p) => p.sandbox !== undefined && !kept(p));
  const straySessions = new Set(marked.map((p) => p.session));
  const strays = processes.filter((p) => !kept(p) && (p.sandbox !== undefined || straySessions.has(p.session)));
  return { found, strays };
}

const MAX_ROUNDS = 10;

/**
 * Sweep the sandboxes under `sandboxRoot` once, on start: fill in the pid (and start time) of
 * each live record whose process is found ({@link planSweep}; the records are updated in place),
 * and SIGKILL every stray — its process group too when it leads one. A stray may fork between the
 * scan and the kill, so the scan is repeated until it finds no new stray (at most 10 rounds).
 * Does nothing without /proc.
 */
export function sweepSandboxes(sandboxRoot: string, liveTasks: readonly TaskRecord[]): SweepResult {
  const ownSession = ownSessionId();
  const first = planSweep(liveTasks, hostProcesses(sandboxRoot), isProcessAlive, ownSession);
  for (const task of liveTasks) {
    const p = first.found.get(task.taskId);
    if (p === undefined) continue;
    task.pid = p.pid;
    task.startTime = p.startTime;
  }
  const killed: HostProcess[] = [];
  const done = new Set<string>();
  let strays = first.strays;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const fresh = strays.filter((p) => !done.has(`${p.pid}@${p.startTime}`));
    if (fresh.length === 0) break;
    for (const p of fresh) {
      done.add(`${p.pid}@${p.startTime}`);
      killed.push(p);
      killProcessAndGroup(p.pid);
    }
    strays = planSweep(liveTasks, hostProcesses(sandboxRoot), isProcessAlive, ownSession).strays;
  }
  return { found: first.found, killed };
}

/** This process's session id (so that a sweep never reaches the session pacer runs in). */
function ownSessionId(): number {
  return Number(readStat(process.pid)?.session ?? -1);
}
