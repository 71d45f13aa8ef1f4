import type { Condition } from '../../src/scheduler/model/condition';
import type { Row } from './row';

/** The row key prefix of a run spec's instances waiting for an offer (no agent). */
export const UNPLACED_ROW = '(unplaced)';

/** A stretch of an instance with no agent (waiting for an offer). */
interface UnplacedStretch {
  readonly runSpecId: string;
  readonly fromMs: number;
  readonly toMs: number;
}

/** A stretch of time over which `count` instances of a run spec wait for an offer. */
export interface UnplacedSummary {
  readonly instanceId: string;
  readonly label: string;
  readonly runSpecId: string;
  readonly agentId: null;
  readonly condition: Condition;
  readonly fromMs: number;
  readonly toMs: number;
  readonly row: string;
  /** How many instances of the run spec wait over this stretch. */
  readonly count: number;
}

/**
 * Folds the stretches of unplaced instances into one row per run spec (in order of their first
 * stretch), drawn as stretches of a constant number of waiting instances: a run spec scaled to
 * 100,000 on a small cluster is one row, not 100,000 (each instance its own lane).
 */
export function foldUnplaced(stretches: readonly UnplacedStretch[]): { readonly rows: Row[]; readonly summaries: UnplacedSummary[] } {
  const deltas = new Map<string, Map<number, number>>();
  for (const s of stretches) {
    let byTime = deltas.get(s.runSpecId);
    if (byTime === undefined) deltas.set(s.runSpecId, (byTime = new Map()));
    byTime.set(s.fromMs, (byTime.get(s.fromMs) ?? 0) + 1);
    byTime.set(s.toMs, (byTime.get(s.toMs) ?? 0) - 1);
  }
  const rows: Row[] = [];
  const summaries: UnplacedSummary[] = [];
  for (const [runSpecId, byTime] of deltas) {
    const row = `${UNPLACED_ROW}#${runSpecId}`;
    rows.push({ key: row, agentId: null, label: `${UNPLACED_ROW} ${runSpecId}`, lane: 0 });
    const times = [...byTime.keys()].sort((a, b) => a - b);
    let count = 0;
    times.forEach((atMs, i) => {
      count += byTime.get(atMs) ?? 0;
      const toMs = times[i + 1];
      if (count <= 0 || toMs === undefined) return;
      summaries.push({
        instanceId: row, label: `${count} unplaced`, runSpecId, agentId: null, condition: 'Scheduled', fromMs: atMs, toMs, row, count,
      });
    });
  }
  return { rows, summaries };
}
