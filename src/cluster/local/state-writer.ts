import type { MasterReservation } from '../../master/master';
import type { ExecutorRecord, LocalClusterState, StateFile } from './state-file';
import { reservationKey, reservationLabel, reservationToStored } from './stored-reservation';

/**
 * What the writer records: the framework id (undefined before the first start), the live
 * executors by key, and the master model's dynamic reservations.
 */
export interface RecordedState {
  frameworkId(): string | undefined;
  executor(key: string): ExecutorRecord | undefined;
  executors(): ExecutorRecord[];
  /** The reservation as booked now, or undefined once unreserved. */
  reservation(agentId: string, role: string, reservationId: string): MasterReservation | undefined;
  reservations(): readonly MasterReservation[];
}

type ReservationRef = Pick<MasterReservation, 'agentId' | 'role' | 'reservationId'>;

/**
 * When the local cluster's state reaches its {@link StateFile}: changed executors are appended to
 * the journal at the end of the current synchronous turn (`changed`), or at once (`flush`, the
 * write-ahead of a launch); a whole snapshot is written on start, stop and when the journal has
 * outgrown it (`snapshot`).
 */
export class StateWriter {
  private readonly dirty = new Set<string>();
  /** Reservations changed since the last write, by {@link reservationKey}. */
  private readonly dirtyReservations = new Map<string, ReservationRef>();
  private queued = false;

  constructor(private readonly file: StateFile, private readonly state: RecordedState) {}

  /** The saved state (see StateFile.load). */
  load(): LocalClusterState | undefined {
    return this.file.load();
  }

  /** Whether {@link load} set an unreadable snapshot aside (StateFile.lostSnapshot). */
  get lostSnapshot(): boolean {
    return this.file.lostSnapshot;
  }

  /**
   * Record executor `key` (its current record, or its removal when it is gone) at the end of the
   * current synchronous turn: the changes of one driver call or one process exit (the pids of an
   * ACCEPT of N launches, a pod's tasks ending) make one append. The microtask runs before the
   * outbox's `setImmediate` flush, so the scheduler never hears of a state the file does not hold.
   */
  changed(key: string): void {
    this.dirty.add(key);
    this.queue();
  }

  /**
   * Record a dynamic reservation (its current record, or its removal once unreserved) at the end
   * of the current synchronous turn, with the executors of that turn: a RESERVE, CREATE, DESTROY
   * or UNRESERVE of an ACCEPT is written in the same append as the launch that follows it.
   */
  reservationChanged(ref: ReservationRef): void {
    this.dirtyReservations.set(reservationKey(ref), { agentId: ref.agentId, role: ref.role, reservationId: ref.reservationId });
    this.queue();
  }

  private queue(): void {
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
    if (this.state.frameworkId() === undefined || (this.dirty.size === 0 && this.dirtyReservations.size === 0)) return;
    const reservations = { put: [] as MasterReservation[], del: [] as string[] };
    for (const [key, ref] of this.dirtyReservations) {
      const r = this.state.reservation(ref.agentId, ref.role, ref.reservationId);
      if (r === undefined) reservations.del.push(key);
      else reservations.put.push(r);
    }
    this.dirtyReservations.clear();
    const put: ExecutorRecord[] = [];
    const del: string[] = [];
    for (const key of this.dirty) {
      const record = this.state.executor(key);
      if (record === undefined) del.push(key);
      else put.push(record);
    }
    this.dirty.clear();
    if (this.file.append(put, del, reservations)) this.snapshot();
  }

  /** Write a whole new snapshot now (what is marked or queued is in it). */
  snapshot(): void {
    this.queued = false;
    this.dirty.clear();
    this.dirtyReservations.clear();
    const frameworkId = this.state.frameworkId();
    if (frameworkId === undefined) return;
    this.file.save({ version: 1, frameworkId, executors: this.state.executors(), reservations: this.state.reservations() });
  }

  /**
   * No executor is recorded any more: a snapshot without executors (shutdown, every task killed).
   * The reservations given stay recorded: they are the agents', not the processes'.
   */
  clear(frameworkId: string, reservations: readonly MasterReservation[]): void {
    this.queued = false;
    this.dirty.clear();
    this.dirtyReservations.clear();
    this.file.save({ version: 1, frameworkId, executors: [], reservations });
  }

  /** Keep a recorded reservation that could not be restored, with why (see StateFile.setAside). */
  setAsideReservation(r: MasterReservation, reason: string): void {
    this.file.setAside('reservation', reservationLabel(r), reason, reservationToStored(r));
  }

  /** Close the journal. */
  close(): void {
    this.file.close();
  }
}
