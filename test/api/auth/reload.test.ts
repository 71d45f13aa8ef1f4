import t from 'tap';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeApi } from '../api-fixture';
import { basic, bearer, credentialsText, openAuth, pollUntil, tempDir, writeCredentials, writeTokens } from './auth-kit';

const OLD_TOKEN = 'old-token-0123456789';
const NEW_TOKEN = 'new-token-0123456789';

async function status(app: ReturnType<typeof makeApi>['app'], authorization: string): Promise<number> {
  return (await app.inject({ url: '/v2/apps', headers: { authorization } })).statusCode;
}

t.test('reload() reads both files again; a broken edit keeps the previous content and says so', async (tt) => {
  const dir = tempDir(tt);
  const credentials = await writeCredentials(join(dir, 'credentials'), { alice: 'old-pw' });
  const tokens = writeTokens(join(dir, 'tokens'), { ops: OLD_TOKEN });
  const log: string[] = [];
  const auth = openAuth({ credentialsFile: credentials, tokensFile: tokens }, log);
  const api = makeApi({ auth });
  tt.teardown(async () => { auth.close(); await api.app.close(); });
  tt.equal(await status(api.app, basic('alice', 'old-pw')), 200);
  tt.equal(await status(api.app, bearer(OLD_TOKEN)), 200);

  await writeCredentials(credentials, { alice: 'new-pw', bob: 'bob-pw' });
  writeTokens(tokens, { ops: NEW_TOKEN });
  tt.equal(await status(api.app, basic('alice', 'new-pw')), 401, 'nothing changes before the reload');
  auth.reload();
  tt.equal(await status(api.app, basic('alice', 'old-pw')), 401);
  tt.equal(await status(api.app, basic('alice', 'new-pw')), 200);
  tt.equal(await status(api.app, basic('bob', 'bob-pw')), 200);
  tt.equal(await status(api.app, bearer(OLD_TOKEN)), 401);
  tt.equal(await status(api.app, bearer(NEW_TOKEN)), 200);
  tt.match(log, [/reloaded the credentials file .*credentials \(2 entries\)/, /reloaded the tokens file .*tokens \(1 entries\)/]);

  writeFileSync(credentials, 'alice:not-a-hash-secret\n');
  rmSync(tokens);
  auth.reload();
  tt.equal(await status(api.app, basic('alice', 'new-pw')), 200, 'the previous credentials stay in force');
  tt.equal(await status(api.app, bearer(NEW_TOKEN)), 200, 'the previous tokens stay in force');
  tt.match(log.slice(-2), [/credentials file .*: line 1: the password of "alice" is not a PHC scrypt hash.*; keeping the previous one/, /tokens file .*: cannot be read \(ENOENT\); keeping the previous one/]);
  tt.notMatch(log.join('\n'), /not-a-hash-secret/, 'the broken line is not logged');
});

t.test('a watched file is reloaded when it changes on disk (an editor\'s rename too)', async (tt) => {
  const dir = tempDir(tt);
  const credentials = await writeCredentials(join(dir, 'credentials'), { alice: 'old-pw' });
  const auth = openAuth({ credentialsFile: credentials });
  auth.watch(20);
  const api = makeApi({ auth });
  tt.teardown(async () => { auth.close(); await api.app.close(); });
  tt.equal(await status(api.app, basic('alice', 'old-pw')), 200);
  const replacement = join(dir, 'credentials.new');
  writeFileSync(replacement, await credentialsText({ alice: 'new-pw' }));
  renameSync(replacement, credentials);
  await pollUntil(async () => (await status(api.app, basic('alice', 'new-pw'))) === 200, 'the new password to be accepted');
  tt.equal(await status(api.app, basic('alice', 'old-pw')), 401);
});

t.test('start-up refuses a credentials or tokens file it cannot use, naming it', async (tt) => {
  const dir = tempDir(tt);
  tt.throws(() => openAuth({ credentialsFile: join(dir, 'missing') }), /credentials file .*missing: cannot be read \(ENOENT\)/);
  writeFileSync(join(dir, 'tokens'), 'ops:short\n');
  tt.throws(() => openAuth({ tokensFile: join(dir, 'tokens') }), /tokens file .*tokens: line 1: the token of "ops" is shorter than 16 characters/);
  tt.throws(() => openAuth({ httpCredentials: 'nocolon' }), /--http_credentials: pair 1: expected user:password/);
});
