import { lstatSync, readdirSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/** The directory under the sandbox root that holds persistent volumes (volume-dirs.ts): never collected. */
export const VOLUMES_DIR = 'volumes';

/** The clock and timer the collector runs on (the local cluster's MasterTimers, master-timers.ts; a fake one in tests). */
export interface GcClock {
  nowMs(): number;
  /** Call the collector's `collect` at `dueMs`; returns an id for `cancel`. */
  schedule(dueMs: number, event: 'collect'): number;
  cancel(id: number): void;
}

/** How a {@link SandboxGc} is bounded, and what it must never remove. */
export interface SandboxGcOptions {
  /** A finished sandbox is removed this long after its task ended. */
  readonly delayMs: number;
  /** At most this many finished sandboxes are kept; the oldest beyond it are removed at once. */
  readonly keep: number;
  readonly clock: GcClock;
  /** The sandboxes (absolute paths) of tasks that run or are recorded as live: never removed. Asked once per collection. */
  readonly liveSandboxes: () => ReadonlySet<string>;
  readonly log?: (line: string) => void;
}

/**
 * Garbage collection of the sandboxes of finished tasks on the local cluster, as a Mesos agent
 * does for terminated executors. Followed: Mesos's src/slave/constants.hpp (`GC_DELAY =
 * Weeks(1)`, `DISK_WATCH_INTERVAL = Minutes(1)`, `GC_DISK_HEADROOM = 0.1`) and src/slave/flags.cpp
 * (`--gc_delay`: the longest a sandbox is kept after its executor terminated; every
 * `--disk_watch_interval` the agent shortens that age as the disk fills beyond
 * `--gc_disk_headroom`, GarbageCollector::prune). pacer keeps the delay (`delayMs`, default a week
 * from the acknowledgement of the terminal update) and, in place of the disk watch, a count
 * bound: at most `keep` finished sandboxes, the oldest removed first (needs no statfs, and holds
 * on any file system).
 *
 * Finished sandboxes are kept oldest first, with the time their task ended; one timer is armed for
 * the oldest one's due time. Only a directory directly under the sandbox root is ever removed,
 * never `volumes/` nor the sandbox of a live task; a removal error is logged, never thrown.
 */
export class SandboxGc {
  /** Finished sandboxes (absolute paths) → end time, in end-time order. */
  private finished = new Map<string, number>();
  private timer: number | undefined;
  /** The due time the timer is armed for. */
  private armedDueMs: number | undefined;
  private readonly root: string;
  /** The latest end time added (the last entry's while the order holds): an append in order costs no sort. */
  private lastEndedAtMs = -Infinity;

  constructor(sandboxRoot: string, private readonly options: SandboxGcOptions) {
    this.root = resolve(sandboxRoot);
  }

  /** Number of finished sandboxes kept (for tests). */
  get size(): number {
    return this.finished.size;
  }

  /** The task of `sandbox` ended at `endedAtMs` (its terminal status handed over; now by default): collect it in time. */
  finish(sandbox: string, endedAtMs: number = this.options.clock.nowMs()): void {
    this.add([{ sandbox: resolve(sandbox), endedAtMs }]);
  }

  /**
   * Start-up: every directory under the root that is neither `volumes/` nor in `live` is a
   * finished sandbox (left from before); its end time is its mtime. Both bounds apply at once.
   */
  adoptLeftovers(live: ReadonlySet<string>): void {
    const liveDirs = new Set([...live].map((s) => resolve(s)));
    const found: { sandbox: string; endedAtMs: number }[] = [];
    for (const name of this.listRoot()) {
      const sandbox = join(this.root, name);
      if (name === VOLUMES_DIR || liveDirs.has(sandbox)) continue;
      const mtime = this.dirMtime(sandbox);
      if (mtime !== undefined) found.push({ sandbox, endedAtMs: mtime });
    }
    this.add(found);
  }

  /** The timer fired: remove every sandbox due (ended `delayMs` ago) or beyond the count bound; arm the timer for the next. */
  collect(): void {
    this.timer = undefined;
    this.sweep();
  }

  /** Cancel the timer (the cluster stops); the list is dropped, the next start finds the leftovers again. */
  close(): void {
    if (this.timer !== undefined) this.options.clock.cancel(this.timer);
    this.timer = undefined;
    this.armedDueMs = undefined;
    this.finished.clear();
    this.lastEndedAtMs = -Infinity;
  }

  private add(entries: readonly { sandbox: string; endedAtMs: number }[]): void {
    let sorted = true;
    for (const e of entries) {
      // A sandbox finished again moves to its new place: deleted first, so that the order holds.
      const again = this.finished.delete(e.sandbox);
      this.finished.set(e.sandbox, e.endedAtMs);
      if (again || e.endedAtMs < this.lastEndedAtMs) sorted = false;
      this.lastEndedAtMs = Math.max(this.lastEndedAtMs, e.endedAtMs);
    }
    // Tasks end in time order, so this is rare (start-up leftovers by mtime, a clock step back).
    if (!sorted) this.finished = new Map([...this.finished].sort((a, b) => a[1] - b[1]));
    this.sweep();
  }

  /** Remove every sandbox due or beyond the count bound; keep the timer armed for the oldest left. */
  private sweep(): void {
    const now = this.options.clock.nowMs();
    const excess = this.finished.size - this.options.keep;
    let live: ReadonlySet<string> | undefined;
    let i = 0;
    for (const [sandbox, endedAtMs] of this.finished) {
      if (i >= excess && endedAtMs + this.options.delayMs > now) break;
      this.finished.delete(sandbox);
      live ??= this.options.liveSandboxes();
      this.remove(sandbox, live);
      i++;
    }
    this.arm();
  }

  /**
   * Arms the timer for the oldest finished sandbox's due time, unless it is armed for that time or
   * sooner already: a task that ends appends a later sandbox (the oldest stays), and one past the
   * count bound removes the oldest (the next is due later); a timer that fires early sweeps
   * nothing and is armed again for the oldest then. A finish used to forget the armed timer and
   * arm one more: every task that ended left a timer armed for a week (4,518 after the soak
   * trial's 14 cycles on 2026-11-30); and re-arming for each finish, with a delay in ms of its
   * own each time, left Node one empty timer list per finish for as long (Node keeps the list of
   * a cancelled unref'd timer until its time comes).
   */
  private arm(): void {
    const oldest = this.finished.values().next();
    const dueMs = oldest.done === true ? undefined : oldest.value + this.options.delayMs;
    const armedSoonEnough = this.armedDueMs !== undefined && (dueMs === undefined || this.armedDueMs <= dueMs);
    if (this.timer !== undefined && armedSoonEnough) return;
    if (this.timer !== undefined) this.options.clock.cancel(this.timer);
    this.timer = undefined;
    this.armedDueMs = dueMs;
    if (dueMs !== undefined) this.timer = this.options.clock.schedule(dueMs, 'collect');
  }

  /** Remove one sandbox, if it is safe to: directly under the root, not `volumes/`, not live. */
  private remove(sandbox: string, live: ReadonlySet<string>): void {
    if (!isSandboxPath(this.root, sandbox) || live.has(sandbox)) return;
    try {
      rmSync(sandbox, { recursive: true, force: true });
    } catch (err) {
      this.options.log?.(`local cluster: could not remove the sandbox ${sandbox}: ${(err as Error).message}`);
    }
  }

  private listRoot(): string[] {
    try {
      return readdirSync(this.root);
    } catch (err) {
      this.options.log?.(`local cluster: could not list the sandboxes of ${this.root}: ${(err as Error).message}`);
      return [];
    }
  }

  /** The mtime of a real directory (not a symbolic link), else undefined. */
  private dirMtime(path: string): number | undefined {
    try {
      const st = lstatSync(path);
      return st.isDirectory() ? st.mtimeMs : undefined;
    } catch {
      return undefined;
    }
  }
}

/**
 * Whether `path` may be collected as a sandbox of `root`: a directory directly under it (no `..`
 * climbing out, a task id such as `..` included), and not `volumes/`.
 */
export function isSandboxPath(root: string, path: string): boolean {
  const abs = resolve(path);
  const name = basename(abs);
  return dirname(abs) === resolve(root) && name !== VOLUMES_DIR && name !== '' && name !== '.' && name !== '..';
}
