import { spawnSync } from 'node:child_process';
import t from 'tap';
import { failoverOptions } from '../../bench/failover';
import { HelpRequested, UsageError } from '../../bench/lib/bench-args';
import { nodeArgsFor } from '../harness/node-entry';
import { repoPath } from '../harness/repo-path';

// bench:failover's command line (bench/lib/bench-args.ts): `--timeout` in seconds, as in
// bench:launch and bench:scale-lag and as bench/README.md says; every value checked before any work.

t.test('defaults, and --timeout in seconds', async (t) => {
  t.strictSame(failoverOptions([]), { failovers: 20, sessionTimeoutMs: 3000, timeoutMs: 60_000 });
  t.strictSame(failoverOptions(['--failovers', '1', '--session', '5000', '--timeout', '90', '--zk', '127.0.0.1:2181']),
    { failovers: 1, sessionTimeoutMs: 5000, timeoutMs: 90_000, zk: '127.0.0.1:2181' });
  t.equal(failoverOptions(['--timeout', '2.5']).timeoutMs, 2500, 'a fraction of a second');
  t.equal(failoverOptions(['--zk', 'zk1:2181,zk2:2181,[::1]:2181']).zk, 'zk1:2181,zk2:2181,[::1]:2181', 'several servers');
});

t.test('a command line it cannot run is a usage error naming the option', async (t) => {
  const cases: readonly [string[], RegExp][] = [
    [['--failovers', '0'], /--failovers must be at least 1/],
    [['--failovers', 'many'], /--failovers must be a whole number/],
    [['--session', '500'], /--session must be from 1000 to 600000/],
    [['--timeout', '0'], /--timeout must be from 1 to 3600 \(got 0\)/],
    [['--timeout', '60000'], /--timeout must be from 1 to 3600 \(got 60000\)/], // an old command line in ms: refused, not 16 h
    [['--timeout', '60000', '--timeout', '1'], /--timeout is given more than once/],
    [['--zk', '127.0.0.1'], /--zk must be host:port/],
    [['--zk', '127.0.0.1:0'], /--zk must be host:port/],
    [['--zk', 'zk://127.0.0.1:2181/pacer'], /--zk must be host:port/],
    [['--bogus'], /Unknown option '--bogus'/],
  ];
  for (const [argv, message] of cases) {
    let caught: unknown;
    try {
      failoverOptions(argv);
    } catch (err) {
      caught = err;
    }
    t.ok(caught instanceof UsageError, `${argv.join(' ')}: a usage error`);
    t.match((caught as Error | undefined)?.message, message, argv.join(' '));
  }
  let help: unknown;
  try {
    failoverOptions(['--help']);
  } catch (err) {
    help = err;
  }
  t.ok(help instanceof HelpRequested, '--help asks for the usage');
});

t.test('from the command line: a bad value is one line and exit 2, --help lists the options and exits 0', { timeout: 180_000 }, async (t) => {
  const run = (args: string[]): ReturnType<typeof spawnSync> => spawnSync(process.execPath, [...nodeArgsFor('bench/failover.ts'), ...args], { cwd: repoPath('.'), encoding: 'utf8', timeout: 150_000 });
  const bad = run(['--timeout', 'soon']);
  t.equal(bad.status, 2);
  t.equal(bad.stderr, 'bench:failover: --timeout must be a number (got \'soon\') (--help lists the options)\n');
  t.equal(bad.stdout, '', 'nothing started');
  const help = run(['--help']);
  t.equal(help.status, 0);
  t.match(help.stdout, /usage: npm run bench:failover -- \[options\]/);
  for (const option of ['--failovers N', '--session N', '--timeout X', '--zk TEXT']) t.match(help.stdout, option);
  t.match(help.stdout, /seconds one failover may take .*default 60\)/);
});
