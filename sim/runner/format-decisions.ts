import { isUnplacedDrop, KILL_REASON_WORDS, shortInstanceId, type Decision, type DecisionKind } from '../../src/runtime/decision-reader';
import { formatMs } from './format-ms';
import type { TimedDecision, UnplacedRunSpec } from './run-result';

/** What the text summary lists: decisions, and the changes that call for one; not every Running or health change. */
const SUMMARY_KINDS: ReadonlySet<DecisionKind> = new Set<DecisionKind>([
  'deployment', 'deployment-finished', 'deployment-failed', 'launch', 'kill', 'ended', 'expunged', 'unreachable', 'inactive', 'reachable',
  'unknown-terminated', 'deleted', 'rejected', 'kill-held', 'kill-dropped',
]);

/** Lines of decisions the summary shows at most; the report (`--report`) shows them all. */
export const SUMMARY_DECISION_LINES_MAX = 120;

/** Instances named in one grouped line at most. */
const GROUP_NAMES_MAX = 6;

/**
 * The decisions of a run for the text summary, compactly: one line per decision, except that
 * launches, kills and ends of one run spec at one instant (for the same reason) share a line
 * (`launch /web ×3: web.instance-705d41b3 on agent-1, …`). An end the summary already announced as
 * a kill is left out (`Killed` after `kill`). At most {@link SUMMARY_DECISION_LINES_MAX} lines.
 */
export function formatDecisions(decisions: readonly TimedDecision[]): string[] {
  const shown = decisions.filter(({ decision }) => SUMMARY_KINDS.has(decision.kind) && !(decision.kind === 'ended' && decision.condition === 'Killed' && decision.reason === undefined));
  const lines = groupDecisions(shown).map((g) => `  ${formatMs(g.atMs).padStart(12)}  ${g.text}`);
  if (lines.length <= SUMMARY_DECISION_LINES_MAX) return lines;
  return [...lines.slice(0, SUMMARY_DECISION_LINES_MAX), `  … ${lines.length - SUMMARY_DECISION_LINES_MAX} more lines (all of them: --report FILE)`];
}

/** One line of decisions: a single one, or a group of one instant, run spec, kind and reason. */
export interface DecisionLine {
  readonly atMs: number;
  readonly kind: DecisionKind;
  readonly text: string;
}

/**
 * Decisions in order, launches, kills, ends and runs of one run spec at one instant (for the same
 * reason and condition) as one line (`launch /web ×3: web.instance-705d41b3 on agent-1, …`,
 * naming the first few), every other decision as its own.
 */
export function groupDecisions(decisions: readonly TimedDecision[]): DecisionLine[] {
  const lines: DecisionLine[] = [];
  for (let i = 0; i < decisions.length;) {
    let j = i + 1;
    while (j < decisions.length && sameGroup(decisions[i], decisions[j])) j++;
    const { atMs, decision } = decisions[i];
    lines.push({ atMs, kind: decision.kind, text: j - i === 1 ? decision.text : groupText(decisions.slice(i, j).map((d) => d.decision)) });
    i = j;
  }
  return lines;
}

const GROUPED: ReadonlySet<DecisionKind> = new Set<DecisionKind>(['launch', 'kill', 'ended', 'running']);

function sameGroup(a: TimedDecision, b: TimedDecision): boolean {
  const x = a.decision;
  const y = b.decision;
  return a.atMs === b.atMs && GROUPED.has(x.kind) && x.kind === y.kind && x.runSpecId === y.runSpecId && x.reason === y.reason && x.condition === y.condition;
}

/** `launch /web ×3: web.instance-… on agent-1, …` (the reason after the list, as single lines have it). */
function groupText(group: readonly Decision[]): string {
  const first = group[0];
  const names = group.slice(0, GROUP_NAMES_MAX).map((d) => `${shortInstanceId(d.instanceId ?? '?')}${d.agentId === undefined ? '' : ` on ${d.agentId}`}`);
  const more = group.length > GROUP_NAMES_MAX ? `, … (+${group.length - GROUP_NAMES_MAX})` : '';
  // A kill of instances still waiting for an offer drops them, as a single line says.
  const verb = first.kind === 'ended' ? `${first.condition ?? 'ended'}` : isUnplacedDrop(first) ? 'drop unplaced' : first.kind;
  const words = first.reason === undefined ? undefined : (KILL_REASON_WORDS as Readonly<Record<string, string>>)[first.reason];
  const why = first.reason === undefined ? '' : `; ${first.reason}${words === undefined ? '' : ` (${words})`}`;
  return `${verb} ${first.runSpecId ?? ''} ×${group.length}: ${names.join(', ')}${more}${why}`;
}

/**
 * For every run spec with instances left unplaced: how many, and the offer rejections the core
 * recorded for it (its NoOfferMatchReason counts and the last offers it could not use), or that
 * no offer was considered; and the backoff deadline when launches are delayed.
 */
export function formatUnplaced(unplaced: readonly UnplacedRunSpec[]): string[] {
  return unplaced.map((u) => {
    const counts = Object.entries(u.rejections).map(([reason, n]) => `${reason} ${n}`).join(', ');
    const last = u.lastUnused.slice(-3).map((o) => `${o.agentId} ${o.reason}`).join(', ');
    const why = counts === '' ? 'no offer was rejected for it' : `offers rejected: ${counts}${last === '' ? '' : ` (last: ${last})`}`;
    const backoff = u.backoffUntilMs === undefined ? '' : `; launches delayed until ${formatMs(u.backoffUntilMs)} (backoff)`;
    return `  ${u.runSpecId.padEnd(24)} ${String(u.count).padStart(4)} unplaced; ${why}${backoff}`;
  });
}
