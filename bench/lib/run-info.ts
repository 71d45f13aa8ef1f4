import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { dirname } from 'node:path';
import { HelpRequested, UsageError } from './bench-args';
import { formatMachineProbe, type MachineProbe, probeMachine } from './machine-probe';

/** Where and when a benchmark ran: every figure is printed and stored with it. */
export interface RunInfo {
  readonly cpuModel: string;
  readonly cores: number;
  readonly memGib: number;
  readonly node: string;
  readonly date: string;
  /** 1, 5 and 15 minute load averages when the run started (other work on a shared machine). */
  readonly loadAvg: readonly number[];
  /** What the machine charges for a first touch of a page and a process spawn ({@link probeMachine}). */
  readonly machine: MachineProbe;
}

/** The machine, Node.js version, date and load average, now, and the machine's probe (~0.1 s). */
export function runInfo(): RunInfo {
  const cpu = cpus();
  return {
    cpuModel: cpu[0]?.model.trim() ?? 'unknown', cores: cpu.length, memGib: Math.round(totalmem() / 2 ** 30),
    node: process.version, date: new Date().toISOString(), loadAvg: loadAverage(), machine: probeMachine(),
  };
}

/** One line for a benchmark's header. */
export function formatRunInfo(info: RunInfo): string {
  return `${info.cpuModel}, ${info.cores} cores, ${info.memGib} GiB; node ${info.node}; ${info.date}; load average ${info.loadAvg.join(' ')}; ${formatMachineProbe(info.machine)}`;
}

function loadAverage(): number[] {
  return loadavg().map((l) => Math.round(l * 100) / 100);
}

/**
 * The end of a benchmark's run: writes `{info, ...figures, problems}` as JSON to `path`, prints
 * each problem, and returns the exit code — 1 when the benchmark did not do all of its work
 * (its figures would not measure what they say), 0 otherwise.
 */
export function finishRun(name: string, path: string, info: RunInfo, figures: Record<string, unknown>, problems: readonly string[]): number {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify({ benchmark: name, info, ...figures, loadAvgAtEnd: loadAverage(), problems }, null, 2)}\n`);
  if (problems.length === 0) {
    console.log(`${name}: all work done and checked; figures in ${path}`);
    return 0;
  }
  console.error(`${name}: FAILED, it did not do all of its work:`);
  for (const p of problems) console.error(`  - ${p}`);
  return 1;
}

/**
 * Runs a benchmark's `main` when its file is the process's entry: its result is the exit code
 * (0 all work done, 1 not: {@link finishRun}). A command line it cannot run ({@link UsageError})
 * is one line and exit 2, `--help` ({@link HelpRequested}) prints the usage and exits 0, and a
 * crash prints its stack and exits 2.
 */
export function runBenchMain(name: string, entry: NodeJS.Module, main: () => Promise<number> | number): void {
  if (require.main !== entry) return;
  new Promise<number>((resolve) => resolve(main())).then((code) => {
    process.exitCode = code;
  }, (err: unknown) => {
    if (err instanceof HelpRequested) {
      console.log(err.message);
      process.exitCode = 0;
      return;
    }
    if (err instanceof UsageError) console.error(`${name}: ${err.message} (--help lists the options)`);
    else console.error(`${name}: ${(err as Error).stack ?? String(err)}`);
    process.exitCode = 2;
  });
}
