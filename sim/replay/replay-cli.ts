import { statSync } from 'node:fs';
import { join } from 'node:path';
import { RECORDING_FILE } from '../../src/runtime/recording/recording-format';
import { renderReport } from '../report/render-report';
import { formatDecisions } from '../runner/format-decisions';
import { formatMs } from '../runner/format-ms';
import { finalCounts, finalUnplaced } from '../runner/run-recorder';
import type { RunResult } from '../runner/run-result';
import { checkOutputs, writeOutput, type CliIo } from '../runner/cli-io';
import { optionValue, printUsage, repeatedOption, splitOptionValues, usageMistake } from '../runner/cli-args';
import { parseDurationMs } from '../scenario/parse-duration';
import { readRecording, RECORDING_MAX_BYTES, RecordingProblem } from './read-recording';
import { replayRecording, type ReplayResult } from './replay-recording';
import { formatState } from './format-state';

const USAGE = `usage: npm run sim -- replay DIR [--until TIME] [--report FILE] [--trace FILE]

Replays a flight recording (npm start -- --record DIR, or a ring written by POST /pacer/v1/recording):
the same core over the recorded snapshot, inputs, instants and random numbers, offline. Compares
every record the replayed core produces (driver calls, timers, probes, events) with the recording,
byte for byte, and prints the first difference. Exits 0 when the recording is reproduced, 1 when
it differs, 2 on bad input.

  --until TIME   stop at TIME since the start ("5m30s", "90s", ms) and print the state there:
                 run specs (target; the instances held, by condition), instances,
                 deployments, launch queue
  --report FILE  the simulator's HTML report of the replay
  --trace FILE   write the replayed records (JSONL)`;

interface ReplayArgs {
  readonly dir: string;
  readonly untilMs?: number;
  readonly reportFile?: string;
  readonly traceFile?: string;
}

function parseArgs(words: readonly string[]): ReplayArgs | string {
  const argv = splitOptionValues(words, ['--until', '--report', '--trace']);
  const repeated = repeatedOption(argv, ['--until', '--report', '--trace']);
  if (repeated !== undefined) return repeated;
  let dir: string | undefined;
  let untilMs: number | undefined;
  let reportFile: string | undefined;
  let traceFile: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--until') {
      const v = optionValue(argv, ++i, 'a time');
      if ('problem' in v) return v.problem;
      const value = v.value;
      const parsed = parseDurationMs(/^\d+$/.test(value) ? Number(value) : value);
      if (!parsed.ok) return `--until: ${parsed.reason}`;
      untilMs = parsed.ms;
    } else if (a === '--report' || a === '--trace') {
      const v = optionValue(argv, ++i, 'a file');
      if ('problem' in v) return v.problem;
      const file = v.value;
      if (a === '--report') reportFile = file;
      else traceFile = file;
    } else if (a === '--help' || a === '-h') return '';
    else if (a.startsWith('--')) return `unknown option ${a}`;
    else if (dir === undefined) dir = a;
    else return `unexpected argument ${JSON.stringify(a)} (one recording at a time)`;
  }
  if (dir === undefined) return 'missing the recording directory';
  return { dir, untilMs, reportFile, traceFile };
}

/** `npm run sim -- replay …` without the process: 0 reproduced, 1 differs, 2 bad input (an output file that cannot be written among them). */
export function replayCliMain(argv: readonly string[], io: CliIo): number {
  const args = parseArgs(argv);
  if (typeof args === 'string') return args === '' ? printUsage(io, USAGE) : usageMistake(io, 'sim replay', args, 'npm run sim -- replay --help');
  const file = recordingFileOf(args.dir);
  if (file.problem !== undefined) {
    io.stderr(`sim replay: ${file.problem}\n`);
    return 2;
  }
  if (!checkOutputs(io, 'sim replay', [args.traceFile, args.reportFile], new Map([[file.path, 'the recording']]))) return 2;
  return replayFile(args, file.path, io);
}

/** What a flight recording is, as a refusal says it (README, Flight recorder and replay). */
const EXPECTED_RECORDING = 'expected a flight recording\'s directory (written by npm start -- --record DIR or POST /pacer/v1/recording) or its .jsonl file';

/**
 * The file to replay for the command's argument: a `.jsonl` file as given, or a directory's
 * `recording.jsonl`; otherwise why the argument is no recording (a scenario's `.yaml`, any other
 * file, a directory without one, nothing at all), rather than the host's ENOTDIR/ENOENT.
 */
function recordingFileOf(arg: string): { path: string; problem?: undefined } | { problem: string } {
  if (arg.endsWith('.jsonl')) return { path: arg };
  const stat = statSync(arg, { throwIfNoEntry: false });
  if (stat === undefined) return { problem: `${arg} does not exist: ${EXPECTED_RECORDING}` };
  if (!stat.isDirectory()) {
    const scenario = /\.ya?ml$/i.test(arg) ? `; a scenario runs with npm run sim -- ${arg}` : '';
    return { problem: `${arg} is a file but not a .jsonl recording: ${EXPECTED_RECORDING}${scenario}` };
  }
  const path = join(arg, RECORDING_FILE);
  if (statSync(path, { throwIfNoEntry: false }) === undefined) return { problem: `${arg} holds no ${RECORDING_FILE}: ${EXPECTED_RECORDING}` };
  return { path };
}

function replayFile(args: ReplayArgs, file: string, io: CliIo): number {
  let result: ReplayResult;
  let epochMs: number;
  try {
    const recording = readRecording(file, io.readFile(file, RECORDING_MAX_BYTES));
    epochMs = recording.start.epochMs;
    result = replayRecording(recording, args.untilMs);
  } catch (err) {
    if (!(err instanceof RecordingProblem) && (err as NodeJS.ErrnoException).code === undefined) throw err;
    io.stderr(`sim replay: ${(err as Error).message}\n`);
    return 2;
  }
  const written = (args.traceFile === undefined || writeOutput(io, 'sim replay', args.traceFile, () => `${result.lines.join('\n')}\n`))
    && (args.reportFile === undefined || writeOutput(io, 'sim replay', args.reportFile, () => renderReport(reportScenario(args.dir, result), runResult(args.dir, result, epochMs), `npm run sim -- replay ${args.dir}`, result.identical && result.coreError === undefined ? 'REPRODUCED' : 'DIFFERS')));
  io.stdout(`${summary(args, result, epochMs).join('\n')}\n`);
  if (!written) return 2;
  return result.identical && result.coreError === undefined ? 0 : 1;
}

function summary(args: ReplayArgs, result: ReplayResult, epochMs: number): string[] {
  const lines = [`replay ${args.dir}: ${result.inputs} of ${result.recordedInputs} inputs, up to ${formatMs(result.atMs)}`];
  const decisions = formatDecisions(result.recorder.decisions);
  if (decisions.length > 0) lines.push('decisions:', ...decisions);
  if (args.untilMs !== undefined) lines.push(`state at ${formatMs(result.atMs)}:`, ...formatState(result.scheduler, epochMs).map((l) => `  ${l}`));
  if (result.coreError !== undefined) lines.push(`the replayed core failed: ${result.coreError}`);
  const d = result.difference;
  if (d === undefined) {
    lines.push(`REPRODUCED: all ${result.compared} recorded records (driver calls, timers, probes, events, random draws) byte for byte; sha256 ${result.traceHash}`);
  } else {
    lines.push(`DIFFERS at line ${d.line} of the recording (${formatMs(d.t)}${d.input === undefined ? '' : `, input at line ${d.input.line}: ${d.input.type}`}):`);
    lines.push(`  recorded: ${d.recorded === undefined ? '(nothing: the replay did more)' : clip(d.recorded)}`);
    lines.push(`  replayed: ${d.replayed === undefined ? '(nothing: the replay did less)' : clip(d.replayed)}`);
  }
  return lines;
}

function clip(text: string): string {
  return text.length <= 400 ? text : `${text.slice(0, 400)}…`;
}

/** The agents the replayed core saw in offers and instances, for the report's rows. */
function reportScenario(dir: string, result: ReplayResult): Parameters<typeof renderReport>[0] {
  const agents = new Set<string>();
  for (const line of result.lines) {
    for (const m of line.matchAll(/"agentId":"([^"]+)"/g)) agents.add(m[1]);
  }
  return { name: `replay of ${dir}`, agents: [...agents].sort().map((agentId) => ({ agentId })), timeline: [] };
}

/** The replay as a run of the simulator, for its HTML report. */
function runResult(dir: string, result: ReplayResult, epochMs: number): RunResult {
  return {
    name: `replay of ${dir}`, seed: 0, passed: result.identical && result.coreError === undefined,
    traceHash: result.traceHash, traceLines: result.lines.length, traceText: `${result.lines.join('\n')}\n`,
    steps: [], expectations: [], violations: [],
    finalCounts: finalCounts(result.scheduler), eventCounts: result.recorder.eventCounts, decisions: result.recorder.decisions,
    unplaced: finalUnplaced(result.scheduler, epochMs), virtualMs: result.atMs, loopSteps: result.inputs,
  };
}
