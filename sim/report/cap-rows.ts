import type { Row } from './row';

/** Rows the timeline draws at most (22 px each): no report's chart grows past about 9,000 px. */
export const TIMELINE_ROWS_MAX = 400;

/**
 * The rows to draw when there are more than `max`: first every agent's first lane and every row
 * of unplaced instances, then further lanes, each in display order, up to `max`; the kept rows
 * stay in display order.
 */
export function capRows(rows: readonly Row[], max = TIMELINE_ROWS_MAX): readonly Row[] {
  if (rows.length <= max) return rows;
  const firsts = rows.filter((r) => r.lane === 0);
  const chosen = new Set([...firsts, ...rows.filter((r) => r.lane !== 0)].slice(0, max));
  return rows.filter((r) => chosen.has(r));
}
