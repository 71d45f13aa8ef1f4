import { loadScenario } from '../scenario/load-scenario';
import { RUN_LOOP_STEPS_DEFAULT, RUN_LOOP_STEPS_MAX, SCENARIO_FILE_MAX_BYTES } from '../scenario/scenario-limits';
import { hashesCliMain } from '../golden/hashes-cli';
import { swarmCliMain } from '../swarm/cli';
import { boundLine, formatSummary, quietVerdict } from './format-summary';
import { runScenario } from './run-scenario';
import { progressPrinter } from './progress-printer';
import { wholeArg } from './whole-arg';
import { renderReport } from '../report/render-report';
import { replayCliMain } from '../replay/replay-cli';
import { checkOutputs, writeOutput, type CliIo } from './cli-io';
import { optionValue, printUsage, repeatedOption, splitOptionValues, usageMistake } from './cli-args';

export type { CliIo } from './cli-io';

const USAGE = `usage: npm run sim -- <scenario.yaml> [--seed N] [--max-steps N] [--trace FILE] [--report FILE] [--quiet]
       npm run sim -- swarm --seeds N [--from F] [--dump FILE]   (seeded swarm testing; see docs/swarm.md)
       npm run sim -- hashes [--update]   (every scenario's trace hash against scenarios/hashes.json)
       npm run sim -- replay DIR [--until TIME] [--report FILE] [--trace FILE]   (a flight recording of npm start -- --record DIR)
       npm run sim -- swarm|hashes|replay --help   (that command's options)

Runs a scenario in virtual time against the scheduler core and the simulated cluster, prints a
summary (timeline, the scheduler's decisions, expectations, final counts, unplaced instances and
why, events, trace hash) and exits 0 only when every expectation holds and no invariant was
violated; 1 when one failed, 2 on bad input (a file that cannot be read or written among it: the
directory of --trace and --report is checked before the run).

  --seed N       override the scenario's seed
  --max-steps N  the run's bound on loop steps (default ${RUN_LOOP_STEPS_DEFAULT}, at most
                 ${RUN_LOOP_STEPS_MAX}): a run with work left after N steps stops there, exit 2
  --trace FILE   write the canonical JSONL trace to FILE
  --report FILE  write a self-contained HTML report to FILE (timeline per agent, faults,
                 deployments, expectations, instances per app, every decision; opens offline)
  --quiet        print only the verdict line (and no progress lines on stderr during a long run)`;

/** Where a mistake's second line points. */
const HELP = 'npm run sim -- --help';

interface CliArgs {
  file: string;
  seed?: number;
  maxLoopSteps?: number;
  traceFile?: string;
  reportFile?: string;
  quiet: boolean;
}

function parseArgs(words: readonly string[]): CliArgs | string {
  const argv = splitOptionValues(words, ['--seed', '--max-steps', '--trace', '--report']);
  const repeated = repeatedOption(argv, ['--seed', '--max-steps', '--trace', '--report', '--quiet']);
  if (repeated !== undefined) return repeated;
  let file: string | undefined;
  let seed: number | undefined;
  let maxLoopSteps: number | undefined;
  let traceFile: string | undefined;
  let reportFile: string | undefined;
  let quiet = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--seed') {
      // At most 2^53 - 1, as a scenario's own `seed`: a larger one would be rounded, and two seeds would run the same.
      const n = integerIn(argv, ++i, 0, Number.MAX_SAFE_INTEGER);
      if (typeof n === 'string') return n;
      seed = n;
    } else if (a === '--max-steps') {
      const n = integerIn(argv, ++i, 1, RUN_LOOP_STEPS_MAX);
      if (typeof n === 'string') return n;
      maxLoopSteps = n;
    } else if (a === '--trace' || a === '--report') {
      const v = optionValue(argv, ++i, 'a file');
      if ('problem' in v) return v.problem;
      if (a === '--trace') traceFile = v.value;
      else reportFile = v.value;
    } else if (a === '--quiet') quiet = true;
    else if (a === '--help' || a === '-h') return '';
    else if (a.startsWith('--')) return `unknown option ${a}`;
    else if (file === undefined) file = a;
    else return `unexpected argument ${JSON.stringify(a)} (one scenario file at a time)`;
  }
  if (file === undefined) return 'missing the scenario file';
  return { file, seed, maxLoopSteps, traceFile, reportFile, quiet };
}

/** The integer `v` of option `flag` when it is one from `min` to `max` (digits only), else the message refusing it. */
function integerIn(argv: readonly string[], index: number, min: number, max: number): number | string {
  const v = optionValue(argv, index, 'a number');
  if ('problem' in v) return v.problem;
  return wholeArg(v.value, min, max) ?? `${argv[index - 1]}: expected an integer from ${min} to ${max}, got ${JSON.stringify(v.value)}`;
}

/**
 * `npm run sim` without the process: returns the exit code (0 passed, 1 failed, 2 bad input,
 * an output file that cannot be written among them: checked before the run, and at the write;
 * and a run stopped by its bound on loop steps, `--max-steps`: one line says where).
 */
export function cliMain(argv: readonly string[], io: CliIo): number {
  if (argv[0] === 'swarm') return swarmCliMain(argv.slice(1), io);
  if (argv[0] === 'hashes') return hashesCliMain(argv.slice(1), io);
  if (argv[0] === 'replay') return replayCliMain(argv.slice(1), io);
  const args = parseArgs(argv);
  if (typeof args === 'string') return args === '' ? printUsage(io, USAGE) : usageMistake(io, 'sim', args, HELP);
  let text: string;
  try {
    text = io.readFile(args.file, SCENARIO_FILE_MAX_BYTES);
  } catch (e) {
    io.stderr(`sim: cannot read ${args.file}: ${(e as Error).message}\n`);
    return 2;
  }
  if (!checkOutputs(io, 'sim', [args.traceFile, args.reportFile], new Map([[args.file, 'the scenario file']]))) return 2;
  const loaded = loadScenario(args.file, text);
  if (!loaded.ok) {
    io.stderr(`${loaded.errors.join('\n')}\n`);
    return 2;
  }
  // The report is read from the trace: keep it for either file.
  const result = runScenario(loaded.scenario, {
    seed: args.seed, keepTrace: args.traceFile !== undefined || args.reportFile !== undefined, maxLoopSteps: args.maxLoopSteps,
    onProgress: args.quiet ? undefined : progressPrinter(io, args.file),
  });
  const reproduce = `npm run sim -- ${args.file} --seed ${result.seed}${args.maxLoopSteps === undefined ? '' : ` --max-steps ${args.maxLoopSteps}`}`;
  const written = (args.traceFile === undefined || writeOutput(io, 'sim', args.traceFile, () => result.traceText))
    && (args.reportFile === undefined || writeOutput(io, 'sim', args.reportFile, () => renderReport(loaded.scenario, result, reproduce)));
  if (args.quiet) io.stdout(`${quietVerdict(result)} ${args.file} seed ${result.seed} sha256 ${result.traceHash}\n`);
  else io.stdout(`${formatSummary(result, reproduce)}\n`);
  const bound = boundLine(args.file, result);
  if (bound !== undefined) io.stderr(`${bound}\n`);
  if (!written || bound !== undefined) return 2;
  return result.passed ? 0 : 1;
}

