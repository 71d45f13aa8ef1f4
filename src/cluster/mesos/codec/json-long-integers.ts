/** Digits from which a JSON integer may not be a safe integer (2^53 − 1 has 16). */
const UNSAFE_DIGITS = 16;
const LONG_DIGIT_RUN = /\d{16}/;

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** `.`, `e`, `E`, `+`, `-` or a digit: the rest of a JSON number after its integer part. */
function isNumberTail(code: number): boolean {
  return isDigit(code) || code === 46 || code === 101 || code === 69 || code === 43 || code === 45;
}

/**
 * JSON text with every integer literal of 16 or more digits (no fraction, no exponent) turned into
 * a string literal of the same digits, so `JSON.parse` keeps it exact: Mesos writes int64 as JSON
 * numbers (spec §1.2) and a `TimeInfo` (≈1.8e18 ns) is beyond a double's 2^53. The codec reads a
 * numeric string as the same integer (Mesos accepts both forms), and a double field as the same
 * double, so nothing else changes. Text inside strings is left alone; one linear pass, and none
 * when no run of 16 digits occurs at all. Malformed JSON stays malformed (JSON.parse reports it).
 */
export function quoteLongIntegers(text: string): string {
  if (!LONG_DIGIT_RUN.test(text)) return text;
  let out = '';
  let copied = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const code = text.charCodeAt(i);
    if (code === 34) {
      i++;
      while (i < n && text.charCodeAt(i) !== 34) i += text.charCodeAt(i) === 92 ? 2 : 1;
      i++;
    } else if (isDigit(code) || code === 45) {
      const start = i;
      if (code === 45) i++;
      const digitsStart = i;
      while (i < n && isDigit(text.charCodeAt(i))) i++;
      const integerEnd = i;
      while (i < n && isNumberTail(text.charCodeAt(i))) i++;
      if (i === integerEnd && integerEnd - digitsStart >= UNSAFE_DIGITS) {
        out += `${text.slice(copied, start)}"${text.slice(start, integerEnd)}"`;
        copied = integerEnd;
      }
    } else {
      i++;
    }
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/**
 * JSON text of a wire message as `JSON.stringify` writes it (compact), except that a `bigint`
 * (an int64 beyond 2^53, see int64.ts) is written as its exact JSON number, as Mesos writes int64.
 */
export function jsonTextWithLongs(value: unknown): string {
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : jsonTextWithLongs(item))).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const members = Object.entries(value).filter(([, member]) => member !== undefined);
    return `{${members.map(([key, member]) => `${JSON.stringify(key)}:${jsonTextWithLongs(member)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
