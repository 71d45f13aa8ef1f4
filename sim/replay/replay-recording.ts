import { createHash } from 'node:crypto';
import { DecisionReader } from '../../src/runtime/decision-reader';
import { FlightRecorder } from '../../src/runtime/recording/flight-recorder';
import { recordedPlanFormat } from '../../src/runtime/recording/recording-format';
import { Scheduler } from '../../src/scheduler/index';
import { RunRecorder } from '../runner/run-recorder';
import { recordedInput, type RecordedLine, type Recording } from './read-recording';
import { replayPorts } from './replay-ports';

/** Where the replayed core first did something other than the recorded one. */
export interface ReplayDifference {
  /** Line of the recording (1-based) that was not reproduced; past its end when the replay did more. */
  readonly line: number;
  readonly t: number;
  /** The recorded line, or undefined when the replay produced more than was recorded. */
  readonly recorded?: string;
  /** What the replay produced instead, or undefined when it produced less. */
  readonly replayed?: string;
  /** The input being handled then (its line and type), if any. */
  readonly input?: { readonly line: number; readonly type: string };
}

/** What a replay did and found. */
export interface ReplayResult {
  /** True when every record up to where the replay stopped was reproduced byte for byte. */
  readonly identical: boolean;
  readonly difference?: ReplayDifference;
  /** The replayed core threw (the message); the recording then ends with the input that made the live core fail, or the replay diverged. */
  readonly coreError?: string;
  /** Inputs replayed, and in the recording. */
  readonly inputs: number;
  readonly recordedInputs: number;
  /** Records compared (after the start record). */
  readonly compared: number;
  /** ms since the start where the replay stopped (the last input replayed, or `until`). */
  readonly atMs: number;
  /** The replayed core, for its state at `atMs`. */
  readonly scheduler: Scheduler;
  /** The replayed records (the simulator's trace format) and their SHA-256. */
  readonly lines: readonly string[];
  readonly traceHash: string;
  /** The replayed core's decisions and events (as the simulator's run reads them), for the summary and `--report`. */
  readonly recorder: RunRecorder;
}

/**
 * Replays a recording (sim/replay/read-recording.ts): builds the core with the recorded options on
 * the recorded snapshot and the recorded random numbers, hands it every recorded input at its
 * recorded instant (up to `untilMs`, ms since the start), and records what it does with the same
 * {@link FlightRecorder} production records with. The recording is reproduced when the two record
 * sequences are equal line for line; the first line that differs is reported.
 */
export function replayRecording(recording: Recording, untilMs = Number.POSITIVE_INFINITY): ReplayResult {
  const epochMs = recording.start.epochMs;
  let nowMs = epochMs;
  const recorder = new FlightRecorder({
    cluster: recording.start.cluster, options: recording.options, ringInputs: Number.POSITIVE_INFINITY,
    eventPlans: recordedPlanFormat(recording.start.recording),
  });
  const scheduler = new Scheduler(recorder.wrap(replayPorts({ nowMs: () => nowMs }, recording.draws, recording.snapshot)), recording.options);
  recorder.attach(scheduler);
  const run = new RunRecorder(new DecisionReader(scheduler, { nowMs: () => nowMs }));
  scheduler.subscribe((event, instance) => run.onEvent(nowMs - epochMs, event, instance));

  const inputs = recording.lines.filter((l) => l.k === 'in');
  const replayed = inputs.filter((l) => l.t <= untilMs);
  let coreError: string | undefined;
  let handled = 0;
  for (const line of replayed) {
    nowMs = epochMs + line.t;
    const input = recordedInput(line);
    recorder.beforeInput(nowMs, input);
    try {
      scheduler.handle(input);
    } catch (err) {
      coreError = `${(err as Error).message} (input at line ${line.line})`;
      break;
    }
    handled++;
    if (input.type === 'offers') run.afterOffers(scheduler, line.t);
    run.afterInput(line.t);
    recorder.afterInput();
  }
  const atMs = Number.isFinite(untilMs) ? untilMs : (replayed.at(-1)?.t ?? 0);
  const lines = recorder.lines();
  const next = inputs[handled + (coreError === undefined ? 0 : 1)];
  const expected = recording.lines.slice(1).filter((l) => l.k !== 'end' && (next === undefined || coreError !== undefined || l.line < next.line));
  const difference = firstDifference(expected, lines.slice(1), recording.lines);
  return {
    identical: difference === undefined,
    ...(difference === undefined ? {} : { difference }),
    ...(coreError === undefined ? {} : { coreError }),
    inputs: handled, recordedInputs: inputs.length, compared: expected.length, atMs, scheduler, lines,
    traceHash: createHash('sha256').update(lines.map((l) => `${l}\n`).join('')).digest('hex'), recorder: run,
  };
}

/** The first recorded line the replay did not reproduce, with the input being handled then. */
function firstDifference(expected: readonly RecordedLine[], replayed: readonly string[], all: readonly RecordedLine[]): ReplayDifference | undefined {
  const n = Math.max(expected.length, replayed.length);
  for (let i = 0; i < n; i++) {
    const want = expected[i];
    const got = replayed[i];
    if (want !== undefined && want.text === got) continue;
    const line = want?.line ?? (expected.at(-1)?.line ?? 1) + 1;
    const input = [...all].reverse().find((l) => l.k === 'in' && l.line <= line);
    return {
      line, t: want?.t ?? (JSON.parse(got ?? '{"t":0}') as { t: number }).t,
      ...(want === undefined ? {} : { recorded: want.text }),
      ...(got === undefined ? {} : { replayed: got }),
      ...(input === undefined ? {} : { input: { line: input.line, type: String(input.record.type) } }),
    };
  }
  return undefined;
}
