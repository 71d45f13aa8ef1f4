import t from 'tap';
import { startPacerProcess, stderrReason } from '../../bench/lib/pacer-process';
import { within } from '../harness/wait';

// How a benchmark says why pacer did not start (bench/lib/pacer-process.ts): pacer's own error
// line first, whatever else it printed (its usage text, its log) after, cut short.

t.test('pacer\'s own error line leads, before its usage text', async (t) => {
  const usage = ['', 'usage: npm start -- [options]', '', ...Array.from({ length: 40 }, (_, i) => `  --option_${i} VALUE    what option ${i} does  [PACER_OPTION_${i}]`), '  --help    this text', ''];
  const reason = stderrReason(['pacer: unknown option --bogus_flag', ...usage].join('\n'));
  t.match(reason, /^pacer: unknown option --bogus_flag \(its last lines: /);
  t.match(reason, /--option_39 VALUE .* \| --help {4}this text\)$/, 'then its last lines, trimmed');
  t.notMatch(reason, /option_37/, 'only a few of them');
});

t.test('a `pacer:` line after the log leads (a start that failed after the API listened)', async (t) => {
  const stderr = [
    '{"level":30,"time":1,"component":"api","msg":"Server listening at http://127.0.0.1:39141"}',
    'pacer: cannot start: cannot join the leader election at zk://127.0.0.1:1/x: no ZooKeeper server accepted a session within 10000 ms',
    '',
  ].join('\n');
  t.equal(stderrReason(stderr), 'pacer: cannot start: cannot join the leader election at zk://127.0.0.1:1/x: no ZooKeeper server accepted a session within 10000 ms'
    + ' (its last lines: {"level":30,"time":1,"component":"api","msg":"Server listening at http://127.0.0.1:39141"})');
});

t.test('without a `pacer:` line, the first line that is not empty leads', async (t) => {
  t.equal(stderrReason('\n\nnode:internal/modules/cjs/loader:1228\n  throw err;\nError: Cannot find module \'x\'\n'),
    'node:internal/modules/cjs/loader:1228 (its last lines: throw err; | Error: Cannot find module \'x\')');
  t.equal(stderrReason('one line only\n'), 'one line only', 'no tail when there is nothing else');
  t.equal(stderrReason(''), '(nothing on stderr)');
  t.equal(stderrReason('\n  \n'), '(nothing on stderr)');
});

t.test('long lines of the tail are cut short', async (t) => {
  const reason = stderrReason(`pacer: cannot start: x\n${'y'.repeat(5000)}\n`);
  t.ok(reason.length < 300, `${reason.length} characters`);
  t.match(reason, /^pacer: cannot start: x \(its last lines: y{200}…\)$/);
});

t.test('a pacer that refuses its flags: the reason is its error line', { timeout: 180_000 }, async (t) => {
  const pacer = startPacerProcess({ args: ['--port', '0', '--bogus_flag', '1'], startTimeoutMs: 120_000 });
  t.teardown(() => pacer.stop('SIGKILL')); // should it ever start after all
  const err = await within(pacer.address.then(() => undefined, (e: unknown) => e as Error), 'pacer\'s exit', 150_000);
  t.match(err?.message, /^pacer exited before serving \(exit 2\): pacer: unknown option --bogus_flag \(its last lines: /);
});
