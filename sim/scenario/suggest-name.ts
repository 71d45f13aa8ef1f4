/** Edit distance counting insertions, deletions, substitutions and swaps of neighbours as one edit each. */
function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= b.length; j++) rows[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2][j - 2] + 1);
      rows[i][j] = best;
    }
  }
  return rows[a.length][b.length];
}

/**
 * The candidate a misspelt name most likely meant: the same name in another case; else the first
 * that extends it (`status_update` → `status_update_event`, for 3 letters or more); else the nearest
 * by edit distance (at most 2, and at most half the name's length less one, so `x` suggests
 * nothing), ties going to the earlier candidate. Undefined when nothing is close.
 */
export function suggestName(input: string, candidates: readonly string[]): string | undefined {
  const lower = input.toLowerCase();
  const sameCase = candidates.find((candidate) => candidate.toLowerCase() === lower);
  if (sameCase !== undefined) return sameCase;
  const extended = lower.length >= 3 ? candidates.find((candidate) => candidate.toLowerCase().startsWith(lower)) : undefined;
  if (extended !== undefined) return extended;
  const limit = Math.min(2, Math.floor((input.length - 1) / 2));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
