import t from 'tap';
import { DEFAULT_WHAT_IF_LIMITS, parseSimulate } from '../../../src/whatif/what-if-limits';

/**
 * `simulate` of a what-if question (docs/what-if.md): the milliseconds of an ISO 8601 duration of
 * hours, minutes and seconds, or a message that names what is wrong with the value.
 */
const MAX = DEFAULT_WHAT_IF_LIMITS.maxSimulateMs;

const cases: readonly { readonly value: unknown; readonly ms?: number; readonly message?: string }[] = [
  { value: 'PT30M', ms: 1_800_000 },
  { value: 'PT1H30M', ms: 5_400_000 },
  { value: 'PT90S', ms: 90_000 },
  { value: 'PT0.5S', ms: 500 },
  { value: 'PT24H', ms: MAX },
  { value: 'PT0S', message: 'simulate must be longer than zero' },
  { value: 'PT25H', message: 'simulate may be at most PT24H (docs/limits.md); got "PT25H"' },
  // Too many digits for the bounded pattern: still named as too long, not as "not a duration".
  { value: 'PT9999999H', message: 'simulate may be at most PT24H (docs/limits.md); got "PT9999999H"' },
  { value: 'PT99999999999999999999H', message: 'simulate may be at most PT24H (docs/limits.md); got "PT99999999999999999999H"' },
  { value: 'PT999999999M', message: 'simulate may be at most PT24H (docs/limits.md); got "PT999999999M"' },
  { value: 'PT0000000001H', message: 'simulate must be an ISO 8601 duration such as PT30M, PT1H30M or PT90S; got "PT0000000001H" (too many digits)' },
  { value: 'PT0.0001S', message: 'simulate is counted in milliseconds: at most 3 digits after the point; got "PT0.0001S"' },
  { value: 'P1D', message: 'simulate must be an ISO 8601 duration such as PT30M, PT1H30M or PT90S; got "P1D"' },
  { value: '30m', message: 'simulate must be an ISO 8601 duration such as PT30M, PT1H30M or PT90S; got "30m"' },
  { value: 'PT', message: 'simulate must be an ISO 8601 duration such as PT30M, PT1H30M or PT90S; got "PT"' },
  { value: 'PT-1M', message: 'simulate must be an ISO 8601 duration such as PT30M, PT1H30M or PT90S; got "PT-1M"' },
  { value: ['PT1M', 'PT2M'], message: 'simulate must be given once, as an ISO 8601 duration such as PT30M' },
];

for (const c of cases) {
  t.test(`simulate=${JSON.stringify(c.value)}`, async (t) => {
    const r = parseSimulate(c.value, MAX);
    t.strictSame(r, c.ms !== undefined ? { ok: true, ms: c.ms } : { ok: false, message: c.message });
  });
}
