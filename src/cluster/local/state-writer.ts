import type { ExecutorRecord, LocalClusterState, StateFile } from './state-file';

/** What the writer records: the framework id (undefined before the first start) and the live executors by key. */
export interface RecordedState {
  frameworkId(): string | undefined;
  executor(key: string): ExecutorRecord | undefined;
  executors(): ExecutorRecord[];
}

/**
 * When the local cluster's state reaches its {@link StateFile}: changed executors are appended to
 * the journal at the end of the current synchronous turn (`changed`), or at once (`flush`, the
 * write-ahead of a launch); a whole snapshot is written on start, stop and when the journal has
 * outgrown it (`snapshot`).
 */
export class StateWriter {
  private readonly dirty = new Set<string>();
  private queued = false;

  constructor(private readonly file: StateFile, private readonly state: RecordedState) {}

  /** The saved state (see StateFile.load). */
  load(): LocalClusterState | undefined {
    return this.file.load();
  }

  /**
   * Record executor `key` (its current record, or its removal when it is gone) at the end of the
   * current synchronous turn: the changes of one driver call or one process exit (the pids of an
   * ACCEPT of N launches, a pod's tasks ending) make one append. The microtask runs before the
   * outbox's `setImmediate` flush, so the scheduler never hears of a state the file does not hold.
   */
  changed(key: string): void {
    this.dirty.add(key);
    if (this.queued) return;
    this.queued = true;
    queueMicrotask(() => {
      if (this.queued) this.flush();
    });
  }

  /** Mark `key` for the next write without queueing one (the caller flushes). */
  mark(key: string): void {
    this.dirty.add(key);
  }

  /** Append the marked executors now (a queued write becomes moot); a new snapshot when the journal has grown. */
  flush(): void {
    this.queued = false;
    if (this.state.frameworkId() === undefined || this.dirty.size === 0) return;
    const put: ExecutorRecord[] = [];
    const del: string[] = [];
    for (const key of this.dirty) {
      const record = this.state.executor(key);
      if (record === undefined) del.push(key);
      else put.push(record);
    }
    this.dirty.clear();
    if (this.file.append(put, del)) this.snapshot();
  }

  /** Write a whole new snapshot now (what is marked or queued is in it). */
  snapshot(): void {
    this.queued = false;
    this.dirty.clear();
    const frameworkId = this.state.frameworkId();
    if (frameworkId === undefined) return;
    this.file.save({ version: 1, frameworkId, executors: this.state.executors() });
  }

  /** Nothing is recorded any more: an empty snapshot (shutdown, every task killed). */
  clear(frameworkId: string): void {
    this.queued = false;
    this.dirty.clear();
    this.file.save({ version: 1, frameworkId, executors: [] });
  }

  /** Close the journal. */
  close(): void {
    this.file.close();
  }
}
