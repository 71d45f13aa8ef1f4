import type { SchedulerInput } from '../../src/scheduler/model/inputs';
import type { StoredState } from '../../src/scheduler/ports/store';
import { DEFAULT_SCHEDULER_OPTIONS, type SchedulerOptions } from '../../src/scheduler/index';
import { fromTree, READABLE_RECORDING_FORMATS, RECORDING_FORMAT, snapshotState, type StartRecord } from '../../src/runtime/recording/recording-format';

/** One record of a recording, parsed, with its line number (1-based) in the file. */
export interface RecordedLine {
  readonly line: number;
  readonly text: string;
  readonly t: number;
  readonly k: string;
  readonly record: Readonly<Record<string, unknown>>;
}

/** A recording read for replay (src/runtime/recording/recording-format.ts). */
export interface Recording {
  readonly start: StartRecord;
  readonly options: Partial<SchedulerOptions>;
  readonly snapshot: StoredState;
  readonly lines: readonly RecordedLine[];
  /** Every random number the core drew, in order. */
  readonly draws: readonly number[];
}

/**
 * Bytes of a recording `replay` reads (512 MiB: about the longest string Node makes, so a larger
 * one could not be read anyway; replaying one that size takes several GB). A ring dump is at most
 * 128 Mi characters; a `--record` recording grows with the run.
 */
export const RECORDING_MAX_BYTES = 512 * 1024 * 1024;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Checks what replay reads of each record before it is used: a record that fails is a {@link RecordingProblem} naming its line. */
function checkRecord(name: string, line: number, record: Record<string, unknown>): void {
  const fail = (what: string): never => {
    throw new RecordingProblem(`${name}:${line}: expected ${what}`);
  };
  if (record.k === 'start') {
    if (typeof record.epochMs !== 'number' || !Number.isFinite(record.epochMs)) fail('the start record\'s "epochMs" to be a number');
    if (record.options !== undefined && !isObject(record.options)) fail('the start record\'s "options" to be an object');
    const defaults = DEFAULT_SCHEDULER_OPTIONS as unknown as Record<string, unknown>;
    for (const [key, value] of Object.entries((record.options ?? {}) as Record<string, unknown>)) {
      const expected = typeof defaults[key];
      if (key in defaults && expected !== 'undefined' && typeof value !== expected) fail(`the start record's option "${key}" to be a ${expected}, got ${JSON.stringify(value)?.slice(0, 100)}`);
      if (typeof value === 'number' && !Number.isFinite(value)) fail(`the start record's option "${key}" to be a finite number`);
    }
    if (record.ring !== undefined && !isObject(record.ring)) fail('the start record\'s "ring" to be an object');
  } else if (record.k === 'snapshot') {
    if (!isObject(record.state)) fail('the snapshot record\'s "state" to be an object');
  } else if (record.k === 'in') {
    if (!isObject(record.input) || typeof record.input.type !== 'string') fail('an "in" record with an "input" object that has a string "type"');
  } else if (record.k === 'draws') {
    if (!Array.isArray(record.v) || !record.v.every((x) => typeof x === 'number' && Number.isFinite(x))) fail('a "draws" record with a list of numbers "v"');
  }
}

/** Why a file is not a recording that replays (the CLI prints it and exits 2). */
export class RecordingProblem extends Error {}

/**
 * Parses a recording's JSONL text. Throws a {@link RecordingProblem} naming the line when a line is
 * not a record, the first record is not a `start` of this format, or the recording cannot be
 * replayed: a ring dump from which inputs had fallen out has no snapshot to start from.
 */
export function readRecording(name: string, text: string): Recording {
  const lines: RecordedLine[] = [];
  const raw = text.split('\n');
  for (let i = 0; i < raw.length; i++) {
    if (raw[i] === '') continue;
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(raw[i]) as Record<string, unknown>;
    } catch (err) {
      throw new RecordingProblem(`${name}:${i + 1}: not a JSON record (${(err as Error).message})`);
    }
    if (!isObject(record) || typeof record.t !== 'number' || !(record.t >= 0) || !Number.isFinite(record.t) || typeof record.k !== 'string') {
      throw new RecordingProblem(`${name}:${i + 1}: expected a record with a number "t" (ms, 0 or more) and a string "k"`);
    }
    checkRecord(name, i + 1, record);
    lines.push({ line: i + 1, text: raw[i], t: record.t, k: record.k, record });
  }
  const start = lines[0]?.record as Partial<StartRecord> | undefined;
  if (start?.k !== 'start' || start.recording === undefined || !READABLE_RECORDING_FORMATS.has(start.recording)) {
    throw new RecordingProblem(`${name}:1: expected the start record of a pacer recording (${RECORDING_FORMAT})`);
  }
  if (start.ring !== undefined && start.ring.dropped > 0) {
    throw new RecordingProblem(`${name}: a ring dump from which ${start.ring.dropped} earlier inputs had fallen out (--record_ring): `
      + 'the start-up snapshot no longer describes its first input, so it can be read but not replayed; record with --record DIR to replay');
  }
  if (start.ring?.snapshotDroppedChars !== undefined) {
    const why = start.ring.snapshotError === undefined ? `at least ${start.ring.snapshotDroppedChars} characters, more than the ring keeps` : `it could not be encoded: ${start.ring.snapshotError}`;
    throw new RecordingProblem(`${name}: a ring dump without its start-up snapshot (${why}): `
      + 'it can be read but not replayed; record with --record DIR to replay');
  }
  const snapshot = lines[1];
  if (snapshot?.k !== 'snapshot') throw new RecordingProblem(`${name}:2: expected the snapshot record`);
  return {
    start: start as StartRecord,
    options: fromTree<Partial<SchedulerOptions>>(start.options),
    snapshot: snapshotOf(name, snapshot),
    lines,
    draws: lines.filter((l) => l.k === 'draws').flatMap((l) => l.record.v as number[]),
  };
}

/** The stored state of the snapshot record (its references to versions resolved), or a {@link RecordingProblem}. */
function snapshotOf(name: string, snapshot: RecordedLine): StoredState {
  try {
    return snapshotState(snapshot.record.state);
  } catch (err) {
    throw new RecordingProblem(`${name}:${snapshot.line}: ${(err as Error).message}`);
  }
}

/** The input an `in` record holds. */
export function recordedInput(line: RecordedLine): SchedulerInput {
  return fromTree<SchedulerInput>(line.record.input);
}
