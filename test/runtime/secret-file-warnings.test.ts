import t from 'tap';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultConfig, type PacerConfig } from '../../src/runtime/config';
import { secretFileWarnings } from '../../src/runtime/secret-file-warnings';
import { tempDir } from '../api/auth/auth-kit';
import { spawnMain, startupPort } from '../e2e/main-kit';
import { waitFor } from '../harness/wait';

const base: PacerConfig = defaultConfig('/tmp');

t.test('secretFileWarnings: group or other bits on a secret file warn, 0600/0400 do not', async (tt) => {
  const cases: ReadonlyArray<{ mode: number | undefined; warns: boolean }> = [
    { mode: 0o100600, warns: false }, { mode: 0o100400, warns: false }, { mode: 0o100644, warns: true },
    { mode: 0o100640, warns: true }, { mode: 0o100604, warns: true }, { mode: undefined, warns: false },
  ];
  for (const c of cases) {
    const config: PacerConfig = { ...base, sslKey: '/k.pem', httpTokensFile: '/tokens', httpCredentialsFile: '/creds', mesosAuthenticationSecretFile: '/secret' };
    const lines = secretFileWarnings(config, () => c.mode);
    tt.equal(lines.length, c.warns ? 4 : 0, String(c.mode?.toString(8)));
  }
  tt.same(secretFileWarnings({ ...base, sslKey: '/k.pem' }, () => 0o100644), ['--ssl_key /k.pem may be read by other users of this host (mode 0644): chmod 600 it']);
  tt.same(secretFileWarnings(base, () => 0o100644), [], 'no secret file configured');
});

t.test('main warns at start about a tokens file other users may read', async (tt) => {
  const dir = tempDir(tt);
  const tokens = join(dir, 'tokens');
  writeFileSync(tokens, 'ops:OpsTokenOpsTokenOpsToken\n');
  chmodSync(tokens, 0o644);
  const main = spawnMain(tt, ['--cluster', 'sim', '--port', '0', '--speed', '1', '--http_tokens_file', tokens]);
  await startupPort(main);
  await waitFor(() => /--http_tokens_file .*tokens may be read by other users of this host \(mode 0644\)/.test(main.stderr()), 'the warning', 30_000);
  tt.notMatch(main.stderr(), /OpsTokenOps/, 'the token is not shown');
  main.child.kill('SIGINT');
});
