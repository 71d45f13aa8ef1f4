import t from 'tap';
import { refuseFilterMs, refuseMsOfFilters } from '../../../src/master/refuse-filter';

t.test('refuse filters read as a Mesos master reads them (§2.3)', async (t) => {
  const cases: { refuseMs: number; want: number; why: string }[] = [
    { refuseMs: 0, want: 0, why: '0 installs no filter' },
    { refuseMs: -1, want: 5000, why: 'negative means the 5 s default' },
    { refuseMs: 120_000, want: 120_000, why: 'as given' },
    { refuseMs: 400 * 24 * 3600 * 1000, want: 365 * 24 * 3600 * 1000, why: 'capped at 365 days' },
  ];
  for (const c of cases) t.equal(refuseFilterMs(c.refuseMs), c.want, c.why);
});

t.test('refuse_seconds on the wire: absent is the 5 s default, not "no filter" (§2.3)', async (t) => {
  const cases: { refuseSeconds: number | undefined; want: number }[] = [
    { refuseSeconds: undefined, want: 5000 },
    { refuseSeconds: 0, want: 0 },
    { refuseSeconds: 0.25, want: 250 },
    { refuseSeconds: 120, want: 120_000 },
  ];
  for (const c of cases) t.equal(refuseMsOfFilters(c.refuseSeconds), c.want, String(c.refuseSeconds));
});
