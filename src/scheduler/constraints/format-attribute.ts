import type { AgentAttribute } from '../model/agent';

/**
 * Formats an agent attribute as the string that placement constraints compare (spec 2.8): the
 * resource manager's text format.
 *
 * - text: the text as is;
 * - scalar: see {@link formatScalar} (`0.8`, `2`, `1.5`, `0.0015` → `0.002`);
 * - ranges: `[b-e,b-e]` sorted by begin, no spaces (a one-port range is still `b-e`);
 * - set: `{a,b}` items sorted, no spaces.
 * Sorting follows Marathon, so an agent reporting `{b,a}` matches a constraint written `{a,b}`.
 *
 * Why strings: users write constraint values and regular expressions against this text, so two
 * agents are "the same value" exactly when their formatted strings are equal.
 *
 * Not in the hot path by itself: {@link agentAttributeValues} (agent-attribute-values.ts) formats
 * each agent's attributes once and caches them.
 */
export function formatAttributeValue(attr: AgentAttribute): string {
  switch (attr.type) {
    case 'text':
      return attr.text;
    case 'scalar':
      return formatScalar(attr.scalar);
    case 'ranges': {
      const ranges = [...attr.ranges].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      let out = '[';
      for (let i = 0; i < ranges.length; i++) {
        const range = ranges[i];
        if (i > 0) out += ',';
        out += `${range[0]}-${range[1]}`;
      }
      return `${out}]`;
    }
    case 'set':
      return `{${[...attr.set].sort().join(',')}}`;
  }
}

const FRACTION_DIGITS = 3;

/**
 * A scalar rounded to the nearest thousandth with half-even rounding, trailing zeros (and then a
 * trailing '.') dropped: `0.8`, `2`, `1.5`, `0.0005` → `0`, `0.0015` → `0.002`, `0.0025` → `0.002`.
 *
 * The tie is decided on the number's shortest round-trip decimal text (what `String(x)` prints),
 * not on its binary value: `0.0025` is stored as 0.00250000000000000005…, which a binary-exact
 * rounding would push up to `0.003`, whereas a user reading `0.0025` expects the half-even tie.
 * Negative results that round to zero print `0` (never `-0`). Non-finite values print as
 * `String(x)`; the resource manager never reports them.
 */
export function formatScalar(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  const text = String(Math.abs(x));

  // Split `d.ddde±n` into a digit string and the position of the decimal point within it.
  let mantissa = text;
  let exponent = 0;
  const e = text.indexOf('e');
  if (e >= 0) {
    mantissa = text.slice(0, e);
    exponent = Number(text.slice(e + 1));
  }
  const dot = mantissa.indexOf('.');
  let digits = dot < 0 ? mantissa : mantissa.slice(0, dot) + mantissa.slice(dot + 1);
  let integerDigits = (dot < 0 ? mantissa.length : dot) + exponent;
  if (integerDigits < 1) {
    digits = '0'.repeat(1 - integerDigits) + digits;
    integerDigits = 1;
  }
  const keptLength = integerDigits + FRACTION_DIGITS;
  if (digits.length < keptLength) digits = digits.padEnd(keptLength, '0');

  // `kept` is the value in thousandths, truncated; `dropped` the digits beyond the thousandth.
  let kept = BigInt(digits.slice(0, keptLength));
  const dropped = digits.slice(keptLength);
  if (dropped.length > 0) {
    const first = dropped.charCodeAt(0) - 48;
    const beyondHalf = /[1-9]/.test(dropped.slice(1));
    if (first > 5 || (first === 5 && (beyondHalf || kept % 2n === 1n))) kept += 1n;
  }
  if (kept === 0n) return '0';

  const thousandths = kept.toString().padStart(FRACTION_DIGITS + 1, '0');
  const integerPart = thousandths.slice(0, -FRACTION_DIGITS);
  const fraction = thousandths.slice(-FRACTION_DIGITS).replace(/0+$/, '');
  const sign = x < 0 ? '-' : '';
  return fraction.length > 0 ? `${sign}${integerPart}.${fraction}` : `${sign}${integerPart}`;
}
