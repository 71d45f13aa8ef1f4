import { formatDecisions, formatUnplaced } from './format-decisions';
import { RUN_DECISIONS_KEPT_MAX } from './run-recorder';
import { formatMs } from './format-ms';
import type { RunResult } from './run-result';
import { conditionCountsText } from './run-recorder';
import { RUN_LOOP_STEPS_MAX } from '../scenario/scenario-limits';

/**
 * The readable summary of a run: what happened (timeline), what the scheduler decided (launches,
 * kills with their reasons, unreachable instances and their replacements, deployments, offer
 * rejections), expectations with each check, final instance counts, the unplaced instances with
 * the offer rejections the core recorded, event counts, the trace hash (when the run kept a
 * trace) and the verdict. `reproduce` is the command that replays the run; `decisions: false`
 * leaves the decisions out (a terminal that showed them as they happened).
 */
export function formatSummary(result: RunResult, reproduce: string, options: { readonly decisions?: boolean } = {}): string {
  const out: string[] = [];
  const of = result.stopped === undefined ? '' : ` of ${formatMs(result.stopped.durationMs)} (stopped)`;
  out.push(`scenario ${result.name}  seed ${result.seed}  virtual ${formatMs(result.virtualMs)}${of}  loop steps ${result.loopSteps}`);
  out.push('', 'timeline:');
  for (const s of result.steps) out.push(`  ${formatMs(s.atMs).padStart(12)}  ${s.text}`);
  const decisions = options.decisions === false ? [] : formatDecisions(result.decisions);
  if (decisions.length > 0) out.push('', 'decisions:', ...decisions);
  const notKept = decisionsNotKeptText(result);
  if (options.decisions !== false && notKept !== undefined) out.push(`  ${notKept}`);
  if (result.expectations.length > 0) out.push('', 'expectations:');
  for (const e of result.expectations) {
    out.push(`  ${formatMs(e.atMs).padStart(12)}  ${e.passed ? 'PASS' : 'FAIL'}${e.line === undefined ? '' : `  (line ${e.line})`}`);
    for (const line of e.lines) out.push(`                  ${line}`);
  }
  out.push('', 'final instances:');
  for (const c of result.finalCounts) {
    out.push(`  ${c.runSpecId.padEnd(24)} target ${String(c.target).padStart(4)}  ${conditionCountsText(c.counts) || '(none)'}`);
  }
  if (result.unplaced.length > 0) out.push('', 'unplaced at the end:', ...formatUnplaced(result.unplaced));
  out.push('', 'events:');
  for (const [type, n] of Object.entries(result.eventCounts).sort()) out.push(`  ${type.padEnd(36)} ${n}`);
  if (result.violations.length > 0) {
    out.push('', `INVARIANT VIOLATED at ${formatMs(result.violationAtMs ?? 0)}:`);
    for (const v of result.violations) out.push(`  ${v}`);
  }
  if (result.traceHash !== '') out.push('', `trace: ${result.traceLines} lines, sha256 ${result.traceHash}`);
  const verdict = verdictText(result);
  out.push(verdict.startsWith('FAILED') ? `${verdict}  (reproduce: ${reproduce})` : verdict);
  return out.join('\n');
}

/**
 * The run's verdict in words: `PASSED` or `FAILED`; for a run stopped before its duration, where
 * it stopped and no verdict on the expectations it never checked (`stopped at 7m11.000s of
 * 10m0.000s, before its expectations; no verdict`), or `FAILED` when one checked before the stop failed.
 */
export function verdictText(result: RunResult): string {
  const stopped = result.stopped;
  if (stopped === undefined) return result.passed ? 'PASSED' : 'FAILED';
  const by = stopped.maxLoopSteps === undefined ? '' : ` by its bound of ${stopped.maxLoopSteps} loop steps`;
  const where = `stopped${by} at ${formatMs(stopped.atMs)} of ${formatMs(stopped.durationMs)}`;
  const failed = result.expectations.filter((e) => !e.passed).length;
  if (failedBeforeStop(result)) {
    const what = failed > 0 ? `${failed} expectation${failed === 1 ? '' : 's'} failed` : 'an invariant was violated';
    return `FAILED: ${what} before it was ${where}`;
  }
  const checked = result.expectations.length;
  if (stopped.unchecked === 0) return `${where}; no verdict`;
  const before = checked === 0 ? 'its expectations' : `${stopped.unchecked} of its ${checked + stopped.unchecked} expectations`;
  return `${where}, before ${before}; no verdict`;
}

/**
 * The first word of `--quiet`'s one line: `PASSED`, `FAILED`, or `STOPPED` for a run stopped
 * before its duration (its bound on loop steps) with nothing failed before the stop, which has no
 * verdict ({@link verdictText}) and must not read as a failure.
 */
export function quietVerdict(result: RunResult): 'PASSED' | 'FAILED' | 'STOPPED' {
  if (result.stopped !== undefined && !failedBeforeStop(result)) return 'STOPPED';
  return result.passed ? 'PASSED' : 'FAILED';
}

/** A run stopped before its duration that failed already: an expectation checked before the stop failed, or an invariant was violated. */
export function failedBeforeStop(result: RunResult): boolean {
  return result.expectations.some((e) => !e.passed) || result.violations.length > 0;
}

/**
 * The one line for a run its bound on loop steps stopped (undefined for any other run): the bound,
 * how far the run got, how to raise it. `npm run sim` prints it on stderr and exits 2.
 */
export function boundLine(file: string, result: RunResult): string | undefined {
  const stopped = result.stopped;
  if (stopped?.maxLoopSteps === undefined) return undefined;
  return `${file}: stopped by the bound on a run's work, ${stopped.maxLoopSteps} loop steps (--max-steps), `
    + `at virtual time ${formatMs(stopped.atMs)} of ${formatMs(stopped.durationMs)}; `
    + `raise it with --max-steps N (at most ${RUN_LOOP_STEPS_MAX}) or shorten the scenario (docs/limits.md, "Scenario files")`;
}

/** How many decisions the run read but did not keep (run-recorder.ts `RUN_DECISIONS_KEPT_MAX`), for the summary and the report; undefined when it kept them all. */
export function decisionsNotKeptText(result: RunResult): string | undefined {
  const n = result.decisionsNotKept ?? 0;
  return n === 0 ? undefined : `… and ${n} decisions after the first ${RUN_DECISIONS_KEPT_MAX}, not kept (a run keeps that many; docs/limits.md)`;
}
