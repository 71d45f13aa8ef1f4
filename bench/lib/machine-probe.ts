import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { release } from 'node:os';
import { performance } from 'node:perf_hooks';

/**
 * What this machine charges for the two things whose price differs most between machines of the
 * same size, measured when a benchmark starts, so that its figures can be set beside another
 * machine's. On the project's 2-core VM of 2026-12-01 (Firecracker, `Hypervisor detected: PVM`),
 * a first touch of a 4 KiB page cost ~14 µs and a spawn of `true` 5–7 ms, where an ordinary host
 * takes well under 1 µs and 1 ms: the 1M queue build of bench:match touches ~300 MB of fresh
 * heap (~75,000 pages, most of it as the scavenger promotes the new instances), and bench:launch
 * spawns a process per task (bench/README.md, "2026-12-01").
 */
export interface MachineProbe {
  /** The kernel release (`uname -r`). */
  readonly kernel: string;
  /** Whether the CPU says it runs under a hypervisor (`hypervisor` in /proc/cpuinfo's flags); undefined when unknown. */
  readonly hypervisor: boolean | undefined;
  /** Microseconds per page fault while {@link PROBE_BYTES} of fresh memory are first written; undefined when the probe failed. */
  readonly pageTouchUs: number | undefined;
  /** The page faults that write took (≈ {@link PROBE_BYTES} ÷ 4 KiB when the memory was fresh): what `pageTouchUs` is per. */
  readonly pageFaults: number | undefined;
  /** Median milliseconds of {@link SPAWNS} spawns of `true` from a fresh Node.js process, each waited for (fork, exec, exit). */
  readonly spawnMs: number | undefined;
  /** Why the probe measured nothing (its process failed), if it did. */
  readonly failed?: string;
}

/** Bytes first written by the page probe: 16 MiB, 4,096 pages, ~60 ms on the PVM machine. */
export const PROBE_BYTES = 16 * 1024 * 1024;
/** Spawns timed by the spawn probe. */
export const SPAWNS = 5;

/**
 * Measures {@link MachineProbe} now, in a Node.js process of its own (about 0.2 s on the PVM
 * machine): the benchmark's process is left as it was — no 16 MiB freed by it (glibc would raise
 * its mmap threshold and serve the benchmark's later large buffers from its heap), no children.
 */
export function probeMachine(): MachineProbe {
  const fixed = { kernel: release(), hypervisor: hypervisorFlag() };
  // The parent's Node.js flags (a TypeScript loader under tap) but not its profiler or inspector.
  const flags = process.execArgv.filter((a) => !/^--(cpu-prof|heap-prof|inspect)/.test(a));
  const child = spawnSync(process.execPath, [...flags, __filename, PROBE_ARG], { encoding: 'utf8', timeout: 60_000 });
  try {
    if (child.status !== 0) throw new Error(child.error?.message ?? `exit ${child.status ?? child.signal}: ${child.stderr.trim().split('\n')[0] ?? ''}`);
    const measured = JSON.parse(child.stdout) as { pageTouchUs: number; pageFaults: number; spawnMs: number };
    return { ...fixed, pageTouchUs: measured.pageTouchUs, pageFaults: measured.pageFaults, spawnMs: measured.spawnMs };
  } catch (err) {
    return { ...fixed, pageTouchUs: undefined, pageFaults: undefined, spawnMs: undefined, failed: (err as Error).message };
  }
}

/** One line: `kernel 6.1.0 under a hypervisor; first touch of a page 13.7 µs, a process spawn 9.8 ms`. */
export function formatMachineProbe(p: MachineProbe): string {
  const where = p.hypervisor === undefined ? '' : p.hypervisor ? ' under a hypervisor' : ', no hypervisor reported';
  const measured = p.failed !== undefined ? `the machine probe failed (${p.failed})` : `first touch of a page ${p.pageTouchUs} µs, a process spawn ${p.spawnMs} ms`;
  return `kernel ${p.kernel}${where}; ${measured}`;
}

/** The argument that makes this file, run by Node.js, measure and print the figures as JSON. */
const PROBE_ARG = '--measure-machine';

function hypervisorFlag(): boolean | undefined {
  try {
    const flags = /^flags\s*:(.*)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1];
    return flags === undefined ? undefined : flags.split(/\s+/).includes('hypervisor');
  } catch {
    return undefined;
  }
}

/**
 * Writes a fresh buffer of {@link PROBE_BYTES} once (malloc maps a buffer this large afresh: no
 * page of it touched before) and divides the time by the page faults the process took meanwhile.
 */
function pageTouch(): { pageTouchUs: number; pageFaults: number } {
  const faults0 = process.resourceUsage().minorPageFault;
  const t0 = performance.now();
  Buffer.allocUnsafeSlow(PROBE_BYTES).fill(1);
  const us = (performance.now() - t0) * 1000;
  const pageFaults = process.resourceUsage().minorPageFault - faults0;
  return { pageTouchUs: Math.round((us / Math.max(1, pageFaults)) * 10) / 10, pageFaults };
}

function spawnMedianMs(): number {
  const times: number[] = [];
  for (let i = 0; i < SPAWNS; i++) {
    const t0 = performance.now();
    const spawned = spawnSync('true', { stdio: 'ignore' });
    times.push(performance.now() - t0);
    // A spawn that failed measured nothing: the probe says it failed rather than give its time.
    if (spawned.error !== undefined) throw spawned.error;
  }
  times.sort((a, b) => a - b);
  return Math.round(times[Math.floor(SPAWNS / 2)] * 10) / 10;
}

if (require.main === module && process.argv[2] === PROBE_ARG) {
  process.stdout.write(`${JSON.stringify({ ...pageTouch(), spawnMs: spawnMedianMs() })}\n`);
}
