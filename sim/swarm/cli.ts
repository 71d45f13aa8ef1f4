import { performance } from 'node:perf_hooks';
import { checkOutputs, type CliIo } from '../runner/cli-io';
import { wholeArg } from '../runner/whole-arg';
import { optionValue, printUsage, repeatedOption, splitOptionValues, usageMistake } from '../runner/cli-args';
import { dumpScenario } from './dump-scenario';
import { replayCommand, runSwarm, type SwarmFailure } from './run-swarm';

/** Seeds a single swarm command may run (a limit on everything). */
const SEEDS_MAX = 1_000_000;

const USAGE = `usage: npm run sim -- swarm --seeds N [--from F] [--dump FILE]

Seeded swarm testing: for each seed F, F+1, … F+N-1, generate a scenario (cluster shape, workload,
fault rates, timeline) from the seed, run it in virtual time with every invariant checked after
every step, and print one line per failing seed with the command that replays it, then a summary.
Exits 0 when every seed passed, 1 when one failed, 2 on bad usage.

  --seeds N     how many seeds to run (1 to ${SEEDS_MAX})
  --from F      the first seed (default 0; the last, F+N-1, at most 2^53 - 1)
  --dump FILE   with --seeds 1: also write the seed's scenario as YAML to FILE;
                \`npm run sim -- FILE\` replays the same run (start a regression scenario from it)`;

interface SwarmArgs {
  seeds: number;
  from: number;
  dumpFile?: string;
}

function parseArgs(words: readonly string[]): SwarmArgs | string {
  const argv = splitOptionValues(words, ['--seeds', '--from', '--dump']);
  const repeated = repeatedOption(argv, ['--seeds', '--from', '--dump']);
  if (repeated !== undefined) return repeated;
  let seeds: number | undefined;
  let from = 0;
  let dumpFile: string | undefined;
  const whole = (index: number, min: number, max: number): number | string => {
    const v = optionValue(argv, index, 'a number');
    if ('problem' in v) return v.problem;
    return wholeArg(v.value, min, max) ?? `${argv[index - 1]}: expected a whole number from ${min} to ${max}, got ${JSON.stringify(v.value)}`;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--seeds') {
      const v = whole(++i, 1, SEEDS_MAX);
      if (typeof v === 'string') return v;
      seeds = v;
    } else if (a === '--from') {
      const v = whole(++i, 0, Number.MAX_SAFE_INTEGER);
      if (typeof v === 'string') return v;
      from = v;
    } else if (a === '--dump') {
      const v = optionValue(argv, ++i, 'a file');
      if ('problem' in v) return v.problem;
      dumpFile = v.value;
    } else if (a === '--help' || a === '-h') return '';
    else return `unknown argument ${JSON.stringify(a)}`;
  }
  if (seeds === undefined) return 'missing --seeds N';
  // Seeds beyond 2^53 - 1 would be rounded, and two of them would run the same scenario.
  if (from > Number.MAX_SAFE_INTEGER - (seeds - 1)) {
    return `--from ${from} --seeds ${seeds}: the last seed would be beyond ${Number.MAX_SAFE_INTEGER} (at most ${Number.MAX_SAFE_INTEGER - from + 1} seeds from ${from})`;
  }
  if (dumpFile !== undefined && seeds !== 1) return '--dump writes one scenario: use it with --seeds 1';
  return { seeds, from, ...(dumpFile === undefined ? {} : { dumpFile }) };
}

function failLine(f: SwarmFailure): string {
  return `FAIL seed ${f.seed}: ${f.violations[0]}  (replay: ${f.command})`;
}

/**
 * `npm run sim -- swarm …` (dispatched from cli-main): runs the swarm and reports. The command
 * line is the simulator's edge, so this file may read the wall clock (for the summary only; no
 * run depends on it). Returns the exit code.
 */
export function swarmCliMain(argv: readonly string[], io: CliIo): number {
  const args = parseArgs(argv);
  if (typeof args === 'string') return args === '' ? printUsage(io, USAGE) : usageMistake(io, 'sim swarm', args, 'npm run sim -- swarm --help');
  // As `npm run sim` checks --trace and --report: a missing directory is named, not an ENOENT of open().
  if (!checkOutputs(io, 'sim swarm', [args.dumpFile])) return 2;
  if (args.dumpFile !== undefined) {
    try {
      io.writeFile(args.dumpFile, dumpScenario(args.from, args.dumpFile));
    } catch (e) {
      io.stderr(`sim swarm: cannot write ${args.dumpFile}: ${(e as Error).message}\n`);
      return 2;
    }
    io.stdout(`wrote seed ${args.from} to ${args.dumpFile} (replay: npm run sim -- ${args.dumpFile})\n`);
  }
  const result = runSwarm({
    seeds: args.seeds,
    from: args.from,
    wallClockMs: () => performance.now(),
    onSeed: (outcome) => {
      if (outcome.violations.length === 0) return;
      io.stdout(`${failLine({ seed: outcome.seed, violations: outcome.violations, command: replayCommand(outcome.seed) })}\n`);
      if (args.seeds === 1) {
        for (const v of outcome.violations.slice(1)) io.stdout(`  ${v}\n`);
        if (args.dumpFile === undefined) {
          io.stdout(`  as a scenario file: npm run sim -- swarm --seeds 1 --from ${outcome.seed} --dump swarm-${outcome.seed}.yaml\n`);
        }
      }
    },
  });
  io.stdout(`swarm: ${result.seedsRun} seeds (from ${args.from}), ${result.virtualHours.toFixed(1)} virtual hours, `
    + `${(result.wallMs / 1000).toFixed(1)} s wall, ${result.failures.length} failures\n`);
  return result.failures.length > 0 ? 1 : 0;
}
