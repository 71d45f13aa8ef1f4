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

const ISO_UTC = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?Z$/;

/**
 * Epoch milliseconds of a UTC timestamp in the shape {@link isoTime} writes
 * (`2021-07-27T14:40:33.123Z`; the fraction may be shorter or absent), or undefined for any other
 * text. Pure arithmetic, the inverse of {@link isoTime}: the core compares versions without `Date`.
 */
export function parseIsoTime(text: string): number | undefined {
  const m = ISO_UTC.exec(text);
  if (m === null) return undefined;
  const [y, mo, d, hh, mm, ss] = m.slice(1, 7).map(Number);
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || hh > 23 || mm > 59 || ss > 59) return undefined;
  const milli = m[7] === undefined ? 0 : Number(m[7].padEnd(3, '0'));
  return daysFromCivil(y, mo, d) * MS_PER_DAY + hh * 3_600_000 + mm * 60_000 + ss * 1000 + milli;
}

/** Howard Hinnant's days-from-civil algorithm, the inverse of {@link civilFromDays}. */
function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}
