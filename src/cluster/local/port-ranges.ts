import type { PortRange } from '../../scheduler/model/resources';

/**
 * Inclusive port ranges as sorted, disjoint lists (adjacent ranges merged). Every function
 * accepts any list and returns a normalized one, so the agent books can add and remove
 * allocations in any order.
 */
export function normalizeRanges(ranges: readonly PortRange[]): PortRange[] {
  const sorted = ranges.filter((r) => r[0] <= r[1]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out: [number, number][] = [];
  for (const [begin, end] of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && begin <= last[1] + 1) last[1] = Math.max(last[1], end);
    else out.push([begin, end]);
  }
  return out;
}

/** `from \ remove`. */
export function subtractRanges(from: readonly PortRange[], remove: readonly PortRange[]): PortRange[] {
  let rest = normalizeRanges(from);
  for (const [rb, re] of normalizeRanges(remove)) {
    const next: PortRange[] = [];
    for (const [b, e] of rest) {
      if (re < b || rb > e) {
        next.push([b, e]);
        continue;
      }
      if (rb > b) next.push([b, rb - 1]);
      if (re < e) next.push([re + 1, e]);
    }
    rest = next;
  }
  return rest;
}

/** Whether every port of `inner` lies in `outer`. */
export function containsRanges(outer: readonly PortRange[], inner: readonly PortRange[]): boolean {
  return subtractRanges(inner, outer).length === 0;
}

/** Whether `port` lies in one of `ranges`. */
export function containsPort(ranges: readonly PortRange[], port: number): boolean {
  return ranges.some(([b, e]) => port >= b && port <= e);
}

/** Whether two lists share a port. */
export function rangesOverlap(a: readonly PortRange[], b: readonly PortRange[]): boolean {
  return a.some(([ab, ae]) => b.some(([bb, be]) => ab <= be && bb <= ae));
}
