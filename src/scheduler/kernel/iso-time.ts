/**
 * Formats epoch milliseconds as ISO 8601 UTC with milliseconds (`2021-07-27T14:40:33.123Z`), the
 * shape Marathon uses for every timestamp. Pure arithmetic, so the core needs no `Date`.
 * The last result is cached: a batch of events usually shares one timestamp.
 */
export function isoTime(epochMs: number): string {
  if (epochMs === lastMs) return lastIso;
  lastMs = epochMs;
  lastIso = format(epochMs);
  return lastIso;
}

let lastMs = Number.NaN;
let lastIso = '';

const MS_PER_DAY = 86_400_000;

function format(epochMs: number): string {
  const ms = Math.floor(epochMs);
  const days = Math.floor(ms / MS_PER_DAY);
  let rest = ms - days * MS_PER_DAY;
  const hh = Math.floor(rest / 3_600_000);
  rest -= hh * 3_600_000;
  const mm = Math.floor(rest / 60_000);
  rest -= mm * 60_000;
  const ss = Math.floor(rest / 1000);
  const milli = rest - ss * 1000;
  const [y, m, d] = civilFromDays(days);
  return `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}T${pad(hh, 2)}:${pad(mm, 2)}:${pad(ss, 2)}.${pad(milli, 3)}Z`;
}

/** Howard Hinnant's days-to-civil algorithm (proleptic Gregorian calendar). */
function civilFromDays(z: number): [number, number, number] {
  z += 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return [y, m, d];
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}
