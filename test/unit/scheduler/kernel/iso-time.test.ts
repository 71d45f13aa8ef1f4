import t from 'tap';
import { versionAfter } from '../../../../src/scheduler/groups/version-after';
import { isoTime, parseIsoTime } from '../../../../src/scheduler/kernel/iso-time';

t.test('parseIsoTime is the inverse of isoTime (and agrees with Date)', async (t) => {
  const samples = [0, 1, -1000, 951_782_400_000, 1_709_164_800_000, 1_767_225_600_123, 4_102_444_799_999];
  for (const ms of samples) {
    t.equal(parseIsoTime(isoTime(ms)), ms, isoTime(ms));
    t.equal(isoTime(ms), new Date(ms).toISOString());
  }
});

t.test('parseIsoTime: shorter fractions, none, and text that is not a UTC timestamp', async (t) => {
  const table: [string, number | undefined][] = [
    ['2026-01-01T00:00:00Z', Date.UTC(2026, 0, 1)],
    ['2026-01-01T00:00:00.5Z', Date.UTC(2026, 0, 1) + 500],
    ['2026-01-01T00:00:00.05Z', Date.UTC(2026, 0, 1) + 50],
    ['2026-01-01T00:00:00.000+01:00', undefined],
    ['2026-13-01T00:00:00.000Z', undefined],
    ['2026-01-01 00:00:00.000Z', undefined],
    ['v1', undefined],
  ];
  for (const [text, expected] of table) t.equal(parseIsoTime(text), expected, text);
});

t.test('versionAfter: now, or 1 ms after the latest earlier version it has not passed', async (t) => {
  const now = Date.UTC(2026, 0, 1, 0, 0, 10);
  const table: [string, readonly string[], string][] = [
    ['nothing earlier', [], '2026-01-01T00:00:10.000Z'],
    ['earlier versions in the past', ['2026-01-01T00:00:09.999Z'], '2026-01-01T00:00:10.000Z'],
    ['the same millisecond', ['2026-01-01T00:00:10.000Z'], '2026-01-01T00:00:10.001Z'],
    ['ahead of the clock', ['2026-01-01T00:00:12.000Z', '2026-01-01T00:00:11.000Z'], '2026-01-01T00:00:12.001Z'],
    ['unparsable ones are ignored', ['v9'], '2026-01-01T00:00:10.000Z'],
  ];
  for (const [name, earlier, expected] of table) t.equal(versionAfter(now, ...earlier), expected, name);
});
