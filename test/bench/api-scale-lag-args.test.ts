import t, { type Test } from 'tap';
import { DEFAULT_API_BENCH_OPTIONS, readApiBenchArgs } from '../../bench/api';
import { HelpRequested, UsageError } from '../../bench/lib/bench-args';
import { DEFAULT_SCALE_LAG_OPTIONS, readScaleLagArgs } from '../../bench/scale-lag';

// bench:api's and bench:scale-lag's command lines through bench/lib/bench-args.ts: the defaults,
// every command line bench/README.md and README.md show, and a bad value as one usage error.

const throwsKind = (t: Test, f: () => unknown, kind: typeof UsageError | typeof HelpRequested, message: RegExp, name: string): void => {
  let caught: unknown;
  try {
    f();
  } catch (err) {
    caught = err;
  }
  t.ok(caught instanceof kind && message.test((caught as Error).message), `${name}: ${String(caught)}`);
};

t.test('bench:api: no options are the defaults', async (t) => {
  t.strictSame(readApiBenchArgs([]), { ...DEFAULT_API_BENCH_OPTIONS, pingRounds: 1, settleMs: 0, tasksRightAfter: false });
});

t.test('bench:api: the documented command lines', async (t) => {
  const small = readApiBenchArgs(['--apps', '100', '--instances', '10', '--more-apps', '900', '--creates', '200', '--subscribers', '100', '--events', '200', '--seconds', '2', '--core-samples', '100']);
  t.match(small, { apps: 100, instances: 10, moreApps: 900, creates: 200, subscribers: 100, events: 200, seconds: 2, coreSamples: 100, only: 'all' });
  t.match(readApiBenchArgs(['--seconds', '5', '--connections', '50']), { seconds: 5, connections: 50 });
  t.match(readApiBenchArgs(['--only', 'lists', '--settle-ms', '3000']), { only: 'lists', settleMs: 3000 });
  t.match(readApiBenchArgs(['--only', 'lists', '--tasks-right-after']), { only: 'lists', tasksRightAfter: true });
  t.match(readApiBenchArgs(['--only', 'ping', '--rounds', '7', '--seconds', '5']), { only: 'ping', pingRounds: 7, seconds: 5 });
  t.match(readApiBenchArgs(['--list-changes', '0', '--agents', '50']), { listChanges: 0, agents: 50 });
});

t.test('bench:api: a bad value is one usage error; --help is the usage', async (t) => {
  throwsKind(t, () => readApiBenchArgs(['--only', 'bogus']), UsageError, /^--only must be one of all, lists, ping \(got 'bogus'\)$/, '--only bogus');
  throwsKind(t, () => readApiBenchArgs(['--seconds', 'abc']), UsageError, /^--seconds must be a whole number/, '--seconds abc');
  throwsKind(t, () => readApiBenchArgs(['--creates', '0']), UsageError, /^--creates must be at least 1/, '--creates 0');
  throwsKind(t, () => readApiBenchArgs(['--bogus', '1']), UsageError, /--bogus/, '--bogus');
  throwsKind(t, () => readApiBenchArgs(['--help']), HelpRequested, /^usage: npm run bench:api -- \[options\][^]*--agents N[^]*--core-samples N[^]*--list-changes N/, '--help');
});

t.test('bench:scale-lag: defaults, the documented command lines, bad values, --help', async (t) => {
  t.strictSame(readScaleLagArgs([]), DEFAULT_SCALE_LAG_OPTIONS);
  t.match(readScaleLagArgs(['--instances', '20000', '--agents', '200', '--speed', '10']), { instances: 20000, agents: 200, speed: 10 });
  t.match(readScaleLagArgs(['--launches_per_input', '2000', '--instances_per_input', '2000']), { launchesPerInput: 2000, instancesPerInput: 2000 });
  t.match(readScaleLagArgs(['--speed', '0.5', '--timeout', '2.5', '--ping-every', '10']), { speed: 0.5, timeoutS: 2.5, pingEveryMs: 10 });
  throwsKind(t, () => readScaleLagArgs(['--instances', '0']), UsageError, /^--instances must be at least 1 \(got 0\)$/, '--instances 0');
  throwsKind(t, () => readScaleLagArgs(['--speed', '0']), UsageError, /^--speed must be at least 0.01/, '--speed 0');
  throwsKind(t, () => readScaleLagArgs(['--help']), HelpRequested, /^usage: npm run bench:scale-lag -- \[options\][^]*--launches_per_offer_batch N/, '--help');
});
