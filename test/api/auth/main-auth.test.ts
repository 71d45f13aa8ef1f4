import t from 'tap';
import { join } from 'node:path';
import { waitFor, within } from '../../e2e/e2e-kit';
import { runMain, spawnMain, startupPort } from '../../e2e/main-kit';
import { basic, tempDir, writeCredentials } from './auth-kit';

/** `npm start` (src/main.ts as a real process) with authentication: the flags, SIGHUP, refusals. */

t.test('main with a credentials file: 401 without, 200 with, /ping open, SIGHUP reloads', async (tt) => {
  const dir = tempDir(tt);
  const credentials = await writeCredentials(join(dir, 'credentials'), { admin: 'main-pw' });
  const main = spawnMain(tt, ['--cluster', 'sim', '--port', '0', '--speed', '1', '--http_credentials_file', credentials]);
  const port = await startupPort(main);
  const get = (path: string, headers: Record<string, string> = {}) => fetch(`http://127.0.0.1:${port}${path}`, { headers, signal: AbortSignal.timeout(30_000) });
  const denied = await get('/v2/apps');
  tt.equal(denied.status, 401);
  tt.equal(denied.headers.get('www-authenticate'), 'Basic realm="Mesosphere"');
  tt.same(await denied.json(), { message: 'Invalid username or password.' });
  tt.equal((await get('/v2/apps', { authorization: basic('admin', 'main-pw') })).status, 200);
  tt.equal(await (await get('/ping')).text(), 'pong');
  // SIGHUP re-reads the file even when nothing changed (the watcher would not), and says so.
  main.child.kill('SIGHUP');
  await waitFor(() => /reloaded the credentials file .*credentials \(1 entries\)/.test(main.stderr()), 'the reload line after SIGHUP', 60_000);
  tt.equal(main.child.exitCode, null, 'SIGHUP does not stop pacer');
  main.child.kill('SIGINT');
  tt.same(await within(main.exited, 'exit after SIGINT', 30_000), { code: 0, signal: null });
  tt.notMatch(main.stderr() + main.stdout(), /main-pw/, 'the password appears in no output');
});

t.test('main refuses a credentials file or certificate it cannot read, before serving (exit 1)', async (tt) => {
  const dir = tempDir(tt);
  const cases: ReadonlyArray<readonly [readonly string[], RegExp]> = [
    [['--http_credentials_file', join(dir, 'nope')], /pacer: cannot start: credentials file .*nope: cannot be read \(ENOENT\)/],
    [['--ssl_cert', join(dir, 'c.pem'), '--ssl_key', join(dir, 'k.pem')], /pacer: cannot start: --ssl_cert .*c\.pem cannot be read \(ENOENT\)/],
  ];
  for (const [args, message] of cases) {
    const run = await runMain(tt, ['--cluster', 'sim', '--port', '0', '--speed', '1', ...args]);
    tt.equal(run.code, 1, args.join(' '));
    tt.match(run.stderr, message, args.join(' '));
    tt.notMatch(run.stderr, /Marathon API on/, 'never served');
  }
});
