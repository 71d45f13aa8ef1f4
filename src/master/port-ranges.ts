import type { PortRange } from '../scheduler/model/resources';

/**
 * The one port-range algebra of pacer's master model (agent books, offers, ACCEPT checks), also
 * used by the local cluster's agent configuration and the simulator's views. Inclusive port ranges
 * as sorted, disjoint, non-adjacent lists. Every function accepts any list (unsorted, overlapping)
 * and returns a normalized one; all are O((n + m) log(n + m)).
 */
export function normalizeRanges(ranges: readonly PortRange[]): PortRange[] {
  if (ranges.length === 0) return [];
  const sorted = ranges.filter((r) => r[0] <= r[1]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out: [number, number][] = [];
  for (const [b, e] of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && b <= last[1] + 1) {
      if (e > last[1]) last[1] = e;
    } else {
      out.push([b, e]);
    }
  }
  return out;
}

/** `a ∪ b`. */
export function unionRanges(a: readonly PortRange[], b: readonly PortRange[]): PortRange[] {
  return normalizeRanges([...a, ...b]);
}

/** `from \ remove`. */
export function subtractRanges(from: readonly PortRange[], remove: readonly PortRange[]): PortRange[] {
  const src = normalizeRanges(from);
  const rem = normalizeRanges(remove);
  if (rem.length === 0) return src;
  const out: PortRange[] = [];
  let j = 0;
  for (const [b0, e] of src) {
    let b = b0;
    while (j < rem.length && rem[j][1] < b) j++;
    let k = j;
    while (k < rem.length && rem[k][0] <= e) {
      if (rem[k][0] > b) out.push([b, rem[k][0] - 1]);
      b = Math.max(b, rem[k][1] + 1);
      if (b > e) break;
      k++;
    }
    if (b <= e) out.push([b, e]);
  }
  return out;
}

/** Whether every port of `inner` lies in `outer`. */
export function containsRanges(outer: readonly PortRange[], inner: readonly PortRange[]): boolean {
  return subtractRanges(inner, outer).length === 0;
}

/** Whether `port` lies in one of `ranges`. */
export function containsPort(ranges: readonly PortRange[], port: number): boolean {
  for (const [b, e] of ranges) if (port >= b && port <= e) return true;
  return false;
}

/** Number of ports in a list (overlaps counted once). */
export function countPorts(ranges: readonly PortRange[]): number {
  let n = 0;
  for (const [b, e] of normalizeRanges(ranges)) n += e - b + 1;
  return n;
}

/** Whether two lists share a port. */
export function rangesOverlap(a: readonly PortRange[], b: readonly PortRange[]): boolean {
  return a.some(([ab, ae]) => b.some(([bb, be]) => ab <= be && bb <= ae));
}
