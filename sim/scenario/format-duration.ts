/** Formats milliseconds the way scenario files write durations: `0s`, `250ms`, `1m30s`, `1h0m5s` → `1h5s`. */
export function formatDurationMs(ms: number): string {
  if (ms === 0) return '0s';
  const parts: string[] = [];
  let rest = ms;
  for (const [unit, size] of [['h', 3_600_000], ['m', 60_000], ['s', 1000]] as const) {
    const amount = Math.floor(rest / size);
    if (amount > 0) parts.push(`${amount}${unit}`);
    rest -= amount * size;
  }
  if (rest > 0) parts.push(`${rest}ms`);
  return parts.join('');
}
