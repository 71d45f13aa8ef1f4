import { appendFileSync, closeSync, existsSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync, ftruncateSync } from 'node:fs';
import { makeDirs } from '../../runtime/make-dirs';
import { dirname } from 'node:path';
import type { ExecutorRecord } from './executor-record';
import { executorFromStored, executorToStored, storedExecutorProblem, type StoredExecutorV1 } from './stored-executor';
import type { MasterReservation } from '../../master/master';
import { reservationFromStored, reservationKey, reservationLabel, reservationToStored, storedReservationProblem, type StoredLocalReservationV1 } from './stored-reservation';

export type { ExecutorRecord, TaskRecord } from './executor-record';

/** The whole state: what a snapshot holds and what loading the snapshot plus its journal gives. */
export interface LocalClusterState {
  readonly version: 1;
  readonly frameworkId: string;
  readonly executors: ExecutorRecord[];
  /**
   * The master model's dynamic reservations with their volumes (`StoredLocalReservationV1`), in
   * the order made. Absent (as loaded too) in a file written by a pacer before they were recorded
   * (2026-11-30): that pacer kept them in memory only, so this file cannot say which there are
   * (LocalCluster.start takes them from the scheduler's recovered instances then).
   */
  readonly reservations?: readonly MasterReservation[];
  /** The snapshot's generation: only journal entries of the same generation apply to it (absent = 0). */
  readonly generation?: number;
}

/**
 * One journal line: an executor written whole (`put`) or removed (`del`, its key), or a dynamic
 * reservation written whole (`rput`) or unreserved (`rdel`, its {@link reservationKey}).
 */
type JournalEntry =
  | { readonly g: number; readonly put: unknown }
  | { readonly g: number; readonly del: string }
  | { readonly g: number; readonly rput: unknown }
  | { readonly g: number; readonly rdel: string };

/** Reservations changed since the last write: their current records, and the keys of those unreserved. */
export interface ReservationChanges {
  readonly put: readonly MasterReservation[];
  readonly del: readonly string[];
}

const NO_RESERVATION_CHANGES: ReservationChanges = { put: [], del: [] };

/** A journal smaller than this is never compacted (a few hundred executor records). */
const MIN_COMPACT_BYTES = 1 << 20;

/**
 * The durable state of the local cluster: a snapshot file (`path`, JSON: the framework id,
 * every live executor and the master model's dynamic reservations) plus an append-only journal
 * (`path.journal`, one JSON line per changed or removed executor or reservation). Why both: the cluster must record a task *before* it spawns it (issue 11:
 * a process started in the last milliseconds before a `kill -9` must never be unknown to the next
 * start), so a launch writes twice (the intent, then the pid); rewriting the whole file each time
 * would cost O(all tasks) per launch. An append costs O(the change); the journal is folded into a
 * new snapshot when it outgrows max(1 MiB, 2 × the snapshot), so the total rewrite work stays
 * proportional to what was appended.
 *
 * Crash safety (`kill -9`; a power loss is not covered — no fsync, as the store's `NORMAL`):
 * - an append is one `write(2)` on a file opened for appending: once it returns, the line is in
 *   the page cache and survives the process; a torn last line (a crash inside the call) and
 *   everything after it is ignored on load;
 * - a snapshot is written to a temporary file renamed over the old one (old or new, never half),
 *   carrying a generation one higher than the journal lines it folds in, and only then is the
 *   journal emptied: a crash in between leaves old-generation lines that the load ignores.
 */
export class StateFile {
  private journalFd: number | undefined;
  private generation = 0;
  private snapshotBytes = 0;
  private journalBytes = 0;
  /** Whether {@link load} found a snapshot it could not read and set it aside. */
  lostSnapshot = false;

  /**
   * @param log where a set-aside executor record is reported (one line each; default stderr)
   */
  constructor(readonly path: string, private readonly log: (line: string) => void = (line) => void process.stderr.write(`pacer: ${line}\n`)) {}

  /** Where executor records that cannot be used are kept (JSON lines: reason, time, the record as stored). */
  get setAsidePath(): string {
    return `${this.path}.set-aside`;
  }

  /** The journal's path. */
  get journalPath(): string {
    return `${this.path}.journal`;
  }

  /**
   * The saved state: the snapshot with the journal lines of its generation applied in order;
   * undefined when there is no snapshot yet, or when the snapshot cannot be read (empty or cut
   * short, as a power loss can leave it: it is written without fsync; not JSON; not a state file
   * of version 1): then it and its journal are set aside ({@link setAsideSnapshot}) and
   * {@link lostSnapshot} is set, and the cluster starts knowing no task (issue 11: no stored
   * record stops a start).
   */
  load(): LocalClusterState | undefined {
    const text = readOrUndefined(this.path);
    if (text === undefined) return undefined;
    let parsed: Partial<LocalClusterState> | null;
    try {
      parsed = JSON.parse(text) as Partial<LocalClusterState> | null;
    } catch (err) {
      this.setAsideSnapshot(text.trim() === '' ? 'it is empty' : `it is not JSON (${(err as Error).message})`);
      return undefined;
    }
    if (typeof parsed !== 'object' || parsed === null || parsed.version !== 1 || typeof parsed.frameworkId !== 'string' || !Array.isArray(parsed.executors)) {
      this.setAsideSnapshot('it is not a local cluster state file of version 1');
      return undefined;
    }
    const storedReservations: unknown = (parsed as { reservations?: unknown }).reservations;
    const generation = parsed.generation ?? 0;
    const executors = new Map<string, ExecutorRecord>();
    const put = (stored: unknown): void => {
      const record = this.usable(stored);
      if (record !== undefined) executors.set(record.executorKey, record);
    };
    const reservations = new Map<string, MasterReservation>();
    const reserve = (stored: unknown): void => {
      const r = this.usableReservation(stored);
      if (r !== undefined) reservations.set(reservationKey(r), r);
    };
    for (const e of parsed.executors as unknown[]) put(e);
    if (Array.isArray(storedReservations)) for (const r of storedReservations as unknown[]) reserve(r);
    else if (storedReservations !== undefined) this.setAside('reservations', 'the snapshot\'s reservations', 'not a list', storedReservations);
    let recorded = storedReservations !== undefined;
    for (const entry of journalEntries(readOrUndefined(this.journalPath) ?? '', generation)) {
      if ('put' in entry) put(entry.put);
      else if ('del' in entry) executors.delete(entry.del);
      else if ('rput' in entry) reserve(entry.rput);
      else reservations.delete(entry.rdel);
      if ('rput' in entry || 'rdel' in entry) recorded = true;
    }
    this.generation = generation;
    const state = { version: 1 as const, frameworkId: parsed.frameworkId, executors: [...executors.values()], generation };
    return recorded ? { ...state, reservations: [...reservations.values()] } : state;
  }

  /**
   * The live record of a stored executor, or undefined when it fails its schema (stored-executor.ts):
   * then it is set aside — appended to {@link setAsidePath} with why, reported — and not loaded
   * (issue 11: no stored record stops a start). Its processes are then unknown: the start-up sweep
   * kills them, and the scheduler replaces their instances.
   */
  private usable(stored: unknown): ExecutorRecord | undefined {
    const problem = storedExecutorProblem(stored);
    if (problem === undefined) return executorFromStored(stored as StoredExecutorV1);
    const key = typeof stored === 'object' && stored !== null ? String((stored as { executorKey?: unknown }).executorKey) : String(stored);
    this.setAside('executor', key, problem, stored);
    return undefined;
  }

  /**
   * The live reservation of a stored one, or undefined when it fails its schema
   * (stored-reservation.ts): then it is set aside as an executor is, and not restored — its
   * resources stay unreserved and its volume's directory stays on disk, untouched.
   */
  private usableReservation(stored: unknown): MasterReservation | undefined {
    const problem = storedReservationProblem(stored);
    if (problem === undefined) return reservationFromStored(stored as StoredLocalReservationV1);
    this.setAside('reservation', reservationLabel(typeof stored === 'object' && stored !== null ? stored : {}), problem, stored);
    return undefined;
  }

  /**
   * Moves a snapshot that cannot be read, and its journal (whose lines belong to it), aside to
   * `<file>.damaged` and `<journal>.damaged` (replacing older ones), with one line saying so.
   */
  private setAsideSnapshot(reason: string): void {
    const suffix = damagedSuffix(this.path);
    renameSync(this.path, `${this.path}${suffix}`);
    // The journal's copy takes the same suffix; an older one there belonged to an older snapshot.
    rmSync(`${this.journalPath}${suffix}`, { force: true });
    if (readOrUndefined(this.journalPath) !== undefined) renameSync(this.journalPath, `${this.journalPath}${suffix}`);
    this.lostSnapshot = true;
    this.log(`local cluster: ${this.path} set aside (now ${this.path}${suffix}), not loaded: ${reason}; the cluster starts knowing no task: processes in the sandboxes no task accounts for are stopped, the store's instances are reconciled and relaunched, and resident instances keep their reservations`);
  }

  /**
   * Keep a record that cannot be used: append it as stored to {@link setAsidePath} with why (JSON
   * lines: reason, time, the record, and its kind when not an executor), and report it.
   */
  setAside(kind: 'executor' | 'reservation' | 'reservations', key: string, reason: string, stored: unknown): void {
    appendFileSync(this.setAsidePath, `${JSON.stringify({ ...(kind === 'executor' ? {} : { kind }), reason, setAsideAt: new Date().toISOString(), record: stored })}\n`);
    this.log(`local cluster: stored ${kind === 'reservations' ? 'reservation list' : kind} ${key} set aside, not loaded: ${reason} (kept in ${this.setAsidePath})`);
  }

  /** Write a new snapshot of `state` (the next generation) and empty the journal. */
  save(state: Omit<LocalClusterState, 'generation'>): void {
    makeDirs(dirname(this.path));
    const generation = this.generation + 1;
    const text = `${JSON.stringify({ ...state, executors: state.executors.map(executorToStored), reservations: (state.reservations ?? []).map(reservationToStored), generation })}\n`;
    const tmp = `${this.path}.tmp`;
    writeFileSync(tmp, text);
    renameSync(tmp, this.path);
    this.generation = generation;
    this.snapshotBytes = text.length;
    this.journalBytes = 0;
    if (this.journalFd !== undefined) ftruncateSync(this.journalFd, 0);
    else writeFileSync(this.journalPath, '');
  }

  /**
   * Append the current record of each executor in `put` and the removal of each key in `del`, and
   * the changed and unreserved reservations of `reservations`, in one write. Answers whether the
   * journal has outgrown its snapshot: the caller should `save`.
   */
  append(put: readonly ExecutorRecord[], del: readonly string[], reservations: ReservationChanges = NO_RESERVATION_CHANGES): boolean {
    if (put.length === 0 && del.length === 0 && reservations.put.length === 0 && reservations.del.length === 0) return false;
    const g = this.generation;
    let text = '';
    // Reservations first: a launch of the same turn on a new reservation finds it on load.
    for (const r of reservations.put) text += `${JSON.stringify({ g, rput: reservationToStored(r) })}\n`;
    for (const key of reservations.del) text += `${JSON.stringify({ g, rdel: key })}\n`;
    for (const record of put) text += `${JSON.stringify({ g, put: executorToStored(record) })}\n`;
    for (const key of del) text += `${JSON.stringify({ g, del: key })}\n`;
    this.journalFd ??= openSync(this.journalPath, 'a');
    writeSync(this.journalFd, text);
    this.journalBytes += text.length;
    return this.journalBytes > Math.max(MIN_COMPACT_BYTES, 2 * this.snapshotBytes);
  }

  /** Close the journal (it is reopened by the next append). */
  close(): void {
    if (this.journalFd !== undefined) closeSync(this.journalFd);
    this.journalFd = undefined;
  }
}

function readOrUndefined(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** The journal's entries of `generation`, up to the first line that is not a whole entry (a torn write). */
function journalEntries(text: string, generation: number): JournalEntry[] {
  const out: JournalEntry[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    let entry: Partial<{ g: number; put: unknown; del: string; rput: unknown; rdel: string }>;
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      break;
    }
    if (typeof entry !== 'object' || entry === null) break;
    // A whole line with a record is applied (a record that fails its schema is set aside on load).
    if (typeof entry.put === 'object' && entry.put !== null) {
      if (entry.g === generation) out.push({ g: generation, put: entry.put });
    } else if (typeof entry.del === 'string') {
      if (entry.g === generation) out.push({ g: generation, del: entry.del });
    } else if (typeof entry.rput === 'object' && entry.rput !== null) {
      if (entry.g === generation) out.push({ g: generation, rput: entry.rput });
    } else if (typeof entry.rdel === 'string') {
      if (entry.g === generation) out.push({ g: generation, rdel: entry.rdel });
    } else {
      break;
    }
  }
  return out;
}

/** Copies of unreadable snapshots kept: `.damaged`, then `.damaged.1` … `.damaged.9`. */
export const DAMAGED_COPIES_MAX = 10;

/**
 * The suffix the next unreadable snapshot at `path` is kept under: the first of `.damaged`,
 * `.damaged.1` … `.damaged.9` not taken, so that an earlier incident's copy is never replaced
 * (a second one replaced it before 2026-12-03); when all are taken, the last is replaced (the
 * first ones, the oldest evidence, stay). Bounded like everything kept.
 */
function damagedSuffix(path: string): string {
  for (let i = 0; i < DAMAGED_COPIES_MAX; i++) {
    const suffix = i === 0 ? '.damaged' : `.damaged.${i}`;
    if (!existsSync(`${path}${suffix}`)) return suffix;
  }
  return `.damaged.${DAMAGED_COPIES_MAX - 1}`;
}
