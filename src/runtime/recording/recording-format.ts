import type { MarathonEvent } from '../../scheduler/model/events';
import type { SchedulerInput } from '../../scheduler/model/inputs';
import { isoTime, type SchedulerOptions } from '../../scheduler/index';
import type { StoredState } from '../../scheduler/ports/store';
import { wireEventJson } from '../../api/events/wire-event-json';
import { decode, encode, type JsonValue } from '../../store/sqlite/codec';

/**
 * A flight recording (issue 18) is a JSONL trace in the simulator's format (sim/runner/trace.ts:
 * one JSON object per line, `t` = ms since the start, `k` = the kind), with what replay needs in
 * full:
 *
 * | `k`        | fields                                                                  |
 * | ---------- | ----------------------------------------------------------------------- |
 * | `start`    | `recording` (format), `cluster`, `epoch` (ISO), `epochMs`, `options` (the core's), `ring` (ring dumps) |
 * | `snapshot` | `state`: what the core loaded from the store at start-up                |
 * | `in`       | `type`, `input`: one input the core handled, at `t`                     |
 * | `draws`    | `v`: the random numbers the core drew since the previous record of ids  |
 * | `call`     | `op`, `args`: a call of the core on a port (driver, prober, timers)     |
 * | `event`    | `e`: an event of the core, as `/v2/events` writes it (the sim's record) |
 * | `end`      | the recording stopped                                                   |
 *
 * Values the store's codec tags (Maps of a root group, Infinity) are written in the codec's JSON
 * form (src/store/sqlite/codec.ts), so a recorded input decodes to the value the core handled.
 */
export const RECORDING_FORMAT = 'pacer-recording/1';

/** The file of a recording inside its directory. */
export const RECORDING_FILE = 'recording.jsonl';

/** The cluster a recording was made on. */
export type RecordedCluster = 'local' | 'mesos' | 'replay';

/** The first record of a recording. */
export interface StartRecord {
  readonly t: 0;
  readonly k: 'start';
  readonly recording: typeof RECORDING_FORMAT;
  readonly cluster: RecordedCluster;
  readonly epoch: string;
  readonly epochMs: number;
  readonly options: JsonValue;
  /** Ring dumps only: inputs kept, and how many older ones fell out of the ring (then the snapshot is gone). */
  readonly ring?: { readonly inputs: number; readonly dropped: number };
}

/** A value as the store's codec writes it, as a JSON tree (embedded in a record). */
export function toTree(value: unknown): JsonValue {
  return JSON.parse(encode(value)) as JsonValue;
}

/** The value a {@link toTree} tree stands for. */
export function fromTree<T>(tree: unknown): T {
  return decode(JSON.stringify(tree)) as T;
}

export function startRecord(cluster: RecordedCluster, epochMs: number, options: Partial<SchedulerOptions>): StartRecord {
  return { t: 0, k: 'start', recording: RECORDING_FORMAT, cluster, epoch: isoTime(epochMs), epochMs, options: toTree(options) };
}

export function snapshotRecord(state: StoredState): Record<string, unknown> {
  return { t: 0, k: 'snapshot', state: toTree(state) };
}

export function inputRecord(t: number, input: SchedulerInput): Record<string, unknown> {
  return { t, k: 'in', type: input.type, input: toTree(input) };
}

export function callRecord(t: number, op: string, args: readonly unknown[]): Record<string, unknown> {
  return { t, k: 'call', op, args: toTree(args) };
}

/** The simulator's event record (sim/runner/run-scenario.ts). */
export function eventRecord(t: number, event: MarathonEvent): Record<string, unknown> {
  return { t, k: 'event', e: wireEventJson(event, 'full') };
}
