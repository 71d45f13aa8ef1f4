import t from 'tap';
import { existsSync, readFileSync } from 'node:fs';
import { hiddenArgv } from '../../src/runtime/config';
import { processTitle } from '../../src/runtime/process-title';
import { spawnMain, startupPort } from '../e2e/main-kit';
import { waitFor } from '../harness/wait';

/**
 * Secrets given as command-line flags are readable by every user of the host (`ps`,
 * `/proc/<pid>/cmdline`): pacer hides them from its process title at start and says how to
 * give them privately (Marathon shows them as given).
 */

t.test('hiddenArgv: the words of secret flags hidden, the rest as given', async (tt) => {
  const cases: ReadonlyArray<{ argv: string[]; out: string[]; hidden: string[] }> = [
    { argv: ['--cluster', 'sim', '--port', '0'], out: ['--cluster', 'sim', '--port', '0'], hidden: [] },
    { argv: ['--http_credentials', 'bob:pw', '--port', '0'], out: ['--http_credentials', '(hidden)', '--port', '0'], hidden: ['--http_credentials'] },
    { argv: ['--http-credentials=bob:pw'], out: ['--http-credentials=(hidden)'], hidden: ['--http_credentials'] },
    { argv: ['--zk', 'zk://u:p@h:2181/pacer'], out: ['--zk', 'zk://xxxxxxxx@h:2181/pacer'], hidden: ['--zk'] },
    { argv: ['--zk', 'zk://h:2181/pacer'], out: ['--zk', 'zk://h:2181/pacer'], hidden: [] },
    { argv: ['--master=http://u:p@m:5050', '--disable_http', '--http_realm', 'r'], out: ['--master=http://xxxxxxxx@m:5050', '--disable_http', '--http_realm', 'r'], hidden: ['--master'] },
    { argv: ['--http_credentials'], out: ['--http_credentials'], hidden: [] },
  ];
  for (const c of cases) tt.same(hiddenArgv(c.argv), { argv: c.out, hidden: c.hidden }, c.argv.join(' '));
});

t.test('main: --http_credentials is not in /proc/<pid>/cmdline once started, and a warning says why', { skip: existsSync('/proc/self/cmdline') ? false : 'no /proc here' }, async (tt) => {
  const main = spawnMain(tt, ['--cluster', 'sim', '--port', '0', '--speed', '1', '--http_credentials', 'bob:argv-secret-pw']);
  await startupPort(main);
  const pid = main.child.pid as number;
  const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0+/g, ' ');
  tt.notMatch(cmdline, /argv-secret-pw/, 'the password is not in the command line');
  tt.match(cmdline, /--http_credentials \(hidden\)/);
  await waitFor(() => /--http_credentials was given on the command line/.test(main.stderr()), 'the warning', 30_000);
  tt.notMatch(main.stderr() + main.stdout(), /argv-secret-pw/);
  main.child.kill('SIGINT');
});

t.test('processTitle: the program and script as a command line names them, so Linux does not cut the title', async (tt) => {
  const cases = [
    { name: 'script under the working directory', argv0: 'node', script: '/home/op/pacer/dist/src/main.js', cwd: '/home/op/pacer', want: 'node dist/src/main.js --http_credentials (hidden)' },
    { name: 'script elsewhere: its absolute path is shorter', argv0: 'node', script: '/opt/pacer/dist/src/main.js', cwd: '/home/op/a/b/c', want: 'node /opt/pacer/dist/src/main.js --http_credentials (hidden)' },
  ];
  for (const c of cases) tt.equal(processTitle(c.argv0, c.script, ['--http_credentials', '(hidden)'], c.cwd), c.want, c.name);
  const typed = 'node dist/src/main.js --http_credentials bob:s3cretpass';
  tt.ok(processTitle('node', '/home/op/pacer/dist/src/main.js', ['--http_credentials', '(hidden)'], '/home/op/pacer').length <= typed.length, 'no longer than the command line it replaces');
});
