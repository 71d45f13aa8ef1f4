import type { RunResult } from './run-result';

/** `83456` → `1m23.456s`: virtual times in the summary. */
export function formatMs(ms: number): string {
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = (ms % 60_000) / 1000;
  return `${h > 0 ? `${h}h` : ''}${h > 0 || m > 0 ? `${m}m` : ''}${s.toFixed(3)}s`;
}

/**
 * The readable summary of a run: what happened (timeline), expectations with each check, final
 * instance counts, event counts, the trace hash and the verdict. `reproduce` is the command that
 * replays the run.
 */
export function formatSummary(result: RunResult, reproduce: string): string {
  const out: string[] = [];
  out.push(`scenario ${result.name}  seed ${result.seed}  virtual ${formatMs(result.virtualMs)}  loop steps ${result.loopSteps}`);
  out.push('', 'timeline:');
  for (const s of result.steps) out.push(`  ${formatMs(s.atMs).padStart(12)}  ${s.text}`);
  if (result.expectations.length > 0) out.push('', 'expectations:');
  for (const e of result.expectations) {
    out.push(`  ${formatMs(e.atMs).padStart(12)}  ${e.passed ? 'PASS' : 'FAIL'}${e.line === undefined ? '' : `  (line ${e.line})`}`);
    for (const line of e.lines) out.push(`                  ${line}`);
  }
  out.push('', 'final instances:');
  for (const c of result.finalCounts) {
    const counts = Object.entries(c.counts).map(([k, v]) => `${k} ${v}`).join(', ');
    out.push(`  ${c.runSpecId.padEnd(24)} target ${String(c.target).padStart(4)}  ${counts || '(none)'}`);
  }
  out.push('', 'events:');
  for (const [type, n] of Object.entries(result.eventCounts).sort()) out.push(`  ${type.padEnd(36)} ${n}`);
  if (result.violations.length > 0) {
    out.push('', `INVARIANT VIOLATED at ${formatMs(result.violationAtMs ?? 0)}:`);
    for (const v of result.violations) out.push(`  ${v}`);
  }
  out.push('', `trace: ${result.traceLines} lines, sha256 ${result.traceHash}`);
  out.push(result.passed ? 'PASSED' : `FAILED  (reproduce: ${reproduce})`);
  return out.join('\n');
}
