import { groupDecisions } from '../runner/format-decisions';
import { formatMs } from '../runner/format-ms';
import { decisionsNotKeptText, quietVerdict, verdictText } from '../runner/format-summary';
import type { RunResult } from '../runner/run-result';
import { bundledLibraries } from './bundled-libraries';
import { REPORT_CLIENT } from './report-client';
import { reportData, type ReportData, type ReportScenario } from './report-data';

/** Text for HTML element content and attribute values. */
function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Code or JSON for an inline `<script>`: nothing in it may close the element or open a comment. */
function inlineScript(code: string): string {
  return code.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
}

/** JSON inside `<script type="application/json">`: `<` escaped, so no text in the data ends the element. */
function inlineJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

function table(head: readonly string[], rows: readonly (readonly string[])[], id: string): string {
  const th = head.map((h) => `<th>${escapeHtml(h)}</th>`).join('');
  const trs = rows.map((cells) => `<tr>${cells.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`).join('\n');
  return `<table id="${id}"><thead><tr>${th}</tr></thead><tbody>\n${trs}\n</tbody></table>`;
}

const STYLE = `
body { font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 16px; color: #222; }
h1 { font-size: 20px; margin: 0 0 4px; } h2 { font-size: 16px; margin: 24px 0 8px; }
.verdict { font-weight: 600; padding: 1px 8px; border-radius: 4px; color: white; }
.passed, .reproduced { background: #2ca02c; } .failed, .differs { background: #d62728; } .stopped { background: #7f7f7f; }
.meta { color: #555; } code { font-size: 12px; }
table { border-collapse: collapse; font-size: 13px; } td, th { border-bottom: 1px solid #e5e5e5; padding: 2px 10px 2px 0; text-align: left; vertical-align: top; }
td:first-child { white-space: nowrap; font-variant-numeric: tabular-nums; text-align: right; }
.legend { color: #555; font-size: 12px; } #expectations td:last-child { white-space: pre-line; } #report-error { color: #d62728; white-space: pre-wrap; }
`;

/** What the timeline leaves out when it has more rows than it draws. */
function omittedNote(data: ReportData): string {
  const o = data.omitted;
  if (o === undefined) return '';
  return `<p class="legend" id="omitted">The timeline draws at most ${o.max} rows (each agent's first lane before its others): ${o.rows} more rows, with ${o.instances} instances, are not drawn. The tables below list every decision.</p>`;
}

/**
 * The report of one run as one self-contained HTML page (no network: d3 and Observable Plot are
 * inlined, the data embedded as JSON): a timeline per agent of every instance coloured by
 * condition, with faults shaded and deployments, expectations and steps marked; running and live
 * instances per app over time; and tables of the scheduler's decisions (placements, kills with
 * their reasons, rejections with their reasons), of the instances left unplaced, of the
 * timeline's steps and of the expectations (decisions of one instant, run spec and kind on one
 * row). The run must have kept its trace (`keepTrace`).
 */
export function renderReport(scenario: ReportScenario, result: RunResult, reproduce: string, verdictWord?: 'REPRODUCED' | 'DIFFERS'): string {
  const data: ReportData = reportData(scenario, result);
  // As the summary's last line says it: a run stopped before its duration with nothing failed has
  // no verdict; a replay's is whether it reproduced its recording (`verdictWord`, as its CLI says).
  const verdict = verdictWord ?? quietVerdict(result);
  const notKept = decisionsNotKeptText(result);
  // Decisions of one instant, run spec and kind share a row: a scale-down of 100,000 unplaced instances is one.
  const decisions = table(['at', 'decision', ''], groupDecisions(result.decisions).map(({ atMs, kind, text }) => [formatMs(atMs), kind, text]), 'decisions');
  const unplaced = result.unplaced.length === 0 ? '<p>None: every instance was placed.</p>' : table(
    ['run spec', 'unplaced', 'offer rejections the core recorded'],
    result.unplaced.map((u) => [u.runSpecId, String(u.count), Object.entries(u.rejections).map(([r, n]) => `${r} ${n}`).join(', ') || 'none']),
    'unplaced',
  );
  const steps = table(['at', 'step'], result.steps.map((s) => [formatMs(s.atMs), s.text]), 'steps');
  const expectations = table(
    ['at', 'verdict', 'checks'],
    result.expectations.map((e) => [formatMs(e.atMs), `${e.passed ? 'PASS' : 'FAIL'}${e.line === undefined ? '' : ` (line ${e.line})`}`, e.lines.join('\n')]),
    'expectations',
  );
  const violations = result.violations.length === 0 ? '' : `<h2>Invariant violated at ${escapeHtml(formatMs(result.violationAtMs ?? 0))}</h2><ul>${result.violations.map((v) => `<li>${escapeHtml(v)}</li>`).join('')}</ul>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(`pacer scenario ${scenario.name} (seed ${result.seed})`)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>Scenario ${escapeHtml(scenario.name)} <span class="verdict ${verdict.toLowerCase()}">${verdict}</span></h1>
${result.stopped === undefined ? '' : `<p id="stopped">${escapeHtml(verdictText(result))}</p>\n`}<p class="meta">seed ${result.seed} · virtual ${escapeHtml(formatMs(result.virtualMs))} · ${result.loopSteps} loop steps · trace sha256 <code>${escapeHtml(result.traceHash)}</code> · replay: <code>${escapeHtml(reproduce)}</code></p>
${scenario.description === undefined ? '' : `<p>${escapeHtml(scenario.description)}</p>`}
<p id="report-error" hidden></p>
${violations}
<h2>Instances per agent</h2>
<p class="legend">A row per agent (more rows when it runs several instances at once), each instance coloured by condition.
Instances waiting for an offer share one row per app or pod, with how many wait. Shaded red: the agent is partitioned; grey: the agent is lost; ×: an instance failed. Vertical lines: deployments (blue),
expectations (green passed, red failed), timeline steps (grey dotted). Hover for details.</p>
${omittedNote(data)}
<div id="timeline"></div>
<h2>Instances per app</h2>
<p class="legend">Running instances (solid) and live instances, in any condition that is not terminal (dashed).</p>
<div id="counts"></div>
<h2>Decisions</h2>
${decisions}${notKept === undefined ? '' : `<p>${escapeHtml(notKept)}</p>`}
<h2>Unplaced at the end</h2>
${unplaced}
<h2>Timeline steps</h2>
${steps}
<h2>Expectations</h2>
${expectations}
${bundledLibraries().map((code) => `<script>${inlineScript(code)}</script>`).join('\n')}
<script type="application/json" id="report-data">${inlineJson(data)}</script>
<script>${inlineScript(REPORT_CLIENT)}</script>
</body>
</html>
`;
}
