import type { CliIo } from './cli-io';
import { formatMs } from './format-ms';
import type { RunProgress } from './run-scenario';

/** Wall time between two lines of a long run's progress, and before the first. */
export const PROGRESS_EVERY_MS = 5000;

/**
 * What `npm run sim` tells during a run that takes longer than {@link PROGRESS_EVERY_MS} of wall
 * time: one line on stderr at most that often, so that a long or runaway scenario is seen working
 * (the bound on a run's work, `--max-steps`, may take minutes to reach: docs/limits.md), e.g.
 *
 *     scenarios/x.yaml: running: 1,200,000 loop steps, virtual time 3h12m5.250s of 24h0m0.000s (13 %); bound 10,000,000 steps (--max-steps)
 *
 * Only wall time decides when a line is printed, never what the run does: the trace, the summary
 * and stdout are the same with or without it. Undefined when `io` has no wall clock.
 */
export function progressPrinter(io: CliIo, file: string): ((progress: RunProgress) => void) | undefined {
  const wallMs = io.wallMs?.bind(io);
  if (wallMs === undefined) return undefined;
  let nextAt = wallMs() + PROGRESS_EVERY_MS;
  return (p) => {
    const now = wallMs();
    if (now < nextAt) return;
    nextAt = now + PROGRESS_EVERY_MS;
    io.stderr(`${progressLine(file, p)}\n`);
  };
}

/** The progress line of `p` (see {@link progressPrinter}). */
export function progressLine(file: string, p: RunProgress): string {
  const share = p.durationMs > 0 ? Math.floor((100 * p.atMs) / p.durationMs) : 100;
  return `${file}: running: ${p.loopSteps.toLocaleString('en-US')} loop steps, virtual time ${formatMs(p.atMs)} of ${formatMs(p.durationMs)} (${share} %); bound ${p.maxLoopSteps.toLocaleString('en-US')} steps (--max-steps)`;
}
