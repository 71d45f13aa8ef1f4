import t, { type Test } from 'tap';
import { join } from 'node:path';
import type { AuthLog } from '../../../src/api/auth/api-authentication';
import type { AuthOptions } from '../../../src/api/auth/auth-options';
import { defaultConfig, type PacerConfig } from '../../../src/runtime/config';
import { apiEdges } from '../../../src/runtime/runtime-parts';
import { captureLog } from '../../harness/log-capture';
import { makeApi } from '../api-fixture';
import { serveWithAuth } from './served-api';
import { basic, bearer, openAuth, tempDir, writeCredentials, writeTokens } from './auth-kit';

/**
 * Failed logins are limited per client address (README, "Who may call"; docs/limits.md): beyond
 * `--http_auth_failures` within `--http_auth_failure_window` an address gets 429 with
 * `Retry-After`, answered before any check (no scrypt run); scrypt runs are bounded by a gate
 * (503 beyond it). The guard's clock is the test's: nothing here waits for the wall clock.
 */

const TOKEN = 'ops-token-0123456789';

async function setUp(tt: Test, options: Partial<AuthOptions> & { log?: AuthLog } = {}): Promise<{ api: ReturnType<typeof makeApi>; auth: ReturnType<typeof openAuth>; clock: { nowMs: number } }> {
  const dir = tempDir(tt);
  const clock = { nowMs: 5_000 };
  const { log, ...rest } = options;
  const auth = openAuth({
    credentialsFile: await writeCredentials(join(dir, 'credentials'), { alice: 'alice-pw' }),
    tokensFile: writeTokens(join(dir, 'tokens'), { ops: TOKEN }),
    loginFailures: 3, loginFailureWindowMs: 10_000, nowMs: () => clock.nowMs, ...rest,
  }, log);
  const api = makeApi({ auth });
  tt.teardown(async () => { auth.close(); await api.app.close(); });
  return { api, auth, clock };
}

function scryptRuns(auth: ReturnType<typeof openAuth>): number {
  return auth.basic?.gate.started ?? Number.NaN;
}

t.test('after N failed logins an address gets 429 with Retry-After, without a scrypt run, until its window ends', async (tt) => {
  const { api, auth, clock } = await setUp(tt);
  const get = (authorization: string | undefined, remoteAddress = '192.0.2.1') =>
    api.app.inject({ url: '/v2/apps', remoteAddress, headers: authorization === undefined ? {} : { authorization } });
  // Each wrong guess kind counts: a wrong password, an unknown user, a wrong token.
  for (const authorization of [basic('alice', 'guess-1'), basic('mallory', 'guess-2'), bearer('wrong-token-0123456789')]) {
    tt.equal((await get(authorization)).statusCode, 401, authorization);
  }
  tt.equal(scryptRuns(auth), 2, 'the two Basic guesses each ran scrypt');
  const limited = await get(basic('alice', 'guess-4'));
  tt.equal(limited.statusCode, 429);
  tt.equal(limited.headers['retry-after'], '10');
  tt.same(limited.json(), { message: 'Too many failed logins from this address (3 within 10 s); try again in 10 s' });
  tt.equal(limited.headers['www-authenticate'], undefined, 'not a challenge: credentials are not what is wrong');
  tt.equal(scryptRuns(auth), 2, 'the refused attempt ran no scrypt');
  // The right password and a valid token are refused too: any answer that checked them would tell
  // a right guess from a wrong one.
  for (const authorization of [basic('alice', 'alice-pw'), bearer(TOKEN)]) tt.equal((await get(authorization)).statusCode, 429, authorization);
  tt.equal((await get(undefined)).statusCode, 401, 'no credentials: still the challenge');
  tt.equal((await api.app.inject({ url: '/ping', remoteAddress: '192.0.2.1' })).statusCode, 200, 'open paths stay open');
  tt.equal((await get(basic('alice', 'alice-pw'), '192.0.2.2')).statusCode, 200, 'another address is not affected');
  tt.equal((await get(basic('alice', 'guess'), '::ffff:192.0.2.1')).statusCode, 429, 'the IPv4-mapped form of the address is the same address');

  clock.nowMs += 9_001;
  const last = await get(basic('alice', 'alice-pw'));
  tt.equal(last.statusCode, 429);
  tt.equal(last.headers['retry-after'], '1', 'Retry-After counts down, rounded up');
  clock.nowMs += 999;
  const runs = scryptRuns(auth);
  tt.equal((await get(basic('alice', 'alice-pw'))).statusCode, 200, 'the window ended: the right password is served');
  tt.equal((await get(basic('alice', 'alice-pw'))).statusCode, 200);
  tt.equal(scryptRuns(auth), runs, 'a password verified on another address is remembered: no scrypt run');
  tt.equal((await get(basic('alice', 'wrong'))).statusCode, 401, 'a new window: the first failure is a 401 again');
});

t.test('an address that reaches the limit is one warn line of the auth log, once per window, without user names or passwords', async (tt) => {
  const lines: string[] = [];
  const { api, clock } = await setUp(tt, { log: (line, level) => void lines.push(`${level ?? 'info'}: ${line}`) });
  const status = async (authorization: string, remoteAddress = '192.0.2.1'): Promise<number> =>
    (await api.app.inject({ url: '/v2/apps', remoteAddress, headers: { authorization } })).statusCode;
  const guesses = [basic('alice', 'guess-secret-1'), basic('mallory', 'guess-secret-2'), bearer('wrong-token-secret-0123')];
  // More guesses arrive together with them: those already being checked as the limit is reached
  // fail too (401), the later ones are refused (429); either way the address is blocked once.
  const answers = await Promise.all([...guesses, basic('alice', 'guess-secret-3'), basic('alice', 'guess-secret-4')].map((a) => status(a)));
  tt.ok(answers.every((s) => s === 401 || s === 429), `${answers.join(' ')}`);
  for (let i = 0; i < 5; i++) tt.equal(await status(basic('alice', 'alice-pw')), 429);
  tt.equal(await status(basic('alice', 'wrong'), '2001:db8:1:2::7'), 401, 'another address, below the limit');
  tt.same(lines, ['warn: client address 192.0.2.1 reached 3 failed logins within 10 s: its requests with credentials are answered 429 for the next 10 s']);
  clock.nowMs += 10_000;
  for (let i = 0; i < 3; i++) tt.equal(await status(basic('alice', 'guess')), 401);
  for (let i = 0; i < 3; i++) tt.equal(await status(bearer('wrong-token-secret-0123'), '2001:db8:1:2::8'), 401);
  tt.equal(lines.length, 3, 'a new window of the address, and the IPv6 /64, each one more line');
  tt.match(lines[1], /^warn: client address 192\.0\.2\.1 reached 3 failed logins within 10 s/);
  tt.match(lines[2], /^warn: client address 2001:db8:1:2::\/64 reached 3 failed logins within 10 s/, 'an IPv6 address by its /64, as it is counted');
  tt.notMatch(lines.join('\n'), /alice|mallory|secret|guess|Basic|Bearer/, 'no user name, password or token');
});

t.test('pacer\'s own log: the blocked address is a warn record of component auth', async (tt) => {
  const captured = captureLog('json', 'info');
  const config: PacerConfig = { ...defaultConfig(process.cwd()), httpCredentials: 'admin:admin-pw', httpAuthFailures: 1 };
  const { auth } = apiEdges(config, captured.log);
  tt.teardown(() => auth?.close());
  auth?.guard?.recordFailure('192.0.2.9');
  auth?.guard?.recordFailure('192.0.2.9');
  tt.match(captured.records(), [{ level: 40, component: 'auth', msg: /^client address 192\.0\.2\.9 reached 1 failed logins within 60 s: .* 429 for the next 60 s$/ }]);
  tt.equal(captured.records().length, 1);
});

t.test('successes do not count, and refused attempts do not lengthen the window', async (tt) => {
  const { api, clock } = await setUp(tt);
  const status = async (authorization: string): Promise<number> => (await api.app.inject({ url: '/v2/apps', headers: { authorization } })).statusCode;
  const answers: number[] = [];
  for (const authorization of [basic('alice', 'x'), basic('alice', 'alice-pw'), basic('alice', 'x'), bearer(TOKEN), basic('alice', 'alice-pw'), basic('alice', 'x'), basic('alice', 'alice-pw')]) {
    answers.push(await status(authorization));
  }
  tt.same(answers, [401, 200, 401, 200, 200, 401, 429], 'the third failure, not the sixth attempt, reaches the limit');
  clock.nowMs += 5_000;
  for (let i = 0; i < 20; i++) await status(basic('alice', 'x'));
  clock.nowMs += 5_000;
  tt.equal(await status(basic('alice', 'alice-pw')), 200, 'the window still ends 10 s after its first failure');
});

t.test('--http_auth_failures 0: failed logins are not limited', async (tt) => {
  const { api, auth } = await setUp(tt, { loginFailures: 0 });
  tt.equal(auth.guard, undefined);
  for (let i = 0; i < 5; i++) tt.equal((await api.app.inject({ url: '/v2/apps', headers: { authorization: basic('alice', 'x') } })).statusCode, 401);
});

t.test('password checks beyond the scrypt gate\'s runs and queue are answered 503 at once, not counted as failures', async (tt) => {
  const { api, auth } = await setUp(tt, { loginFailures: 1 });
  const gate = auth.basic?.gate;
  if (gate === undefined) throw new Error('no basic verifier');
  // Occupy the one run and the 32 places of the queue with work the test ends.
  let release: () => void = () => undefined;
  const holding = new Promise<void>((resolve) => { release = resolve; });
  const held = Array.from({ length: 33 }, () => gate.run(() => holding));
  await Promise.resolve();
  tt.same(gate.load, { running: 1, waiting: 32 });
  const busy = await api.app.inject({ url: '/v2/apps', headers: { authorization: basic('alice', 'alice-pw') } });
  tt.equal(busy.statusCode, 503);
  tt.equal(busy.headers['retry-after'], '1');
  tt.same(busy.json(), { message: 'Too many logins are being checked at once; try again in a second' });
  tt.equal((await api.app.inject({ url: '/v2/apps', headers: { authorization: bearer(TOKEN) } })).statusCode, 200, 'a token needs no scrypt run: served');
  release();
  await Promise.all(held);
  tt.equal((await api.app.inject({ url: '/v2/apps', headers: { authorization: basic('alice', 'alice-pw') } })).statusCode, 200, 'the 503 was not counted as a failure (the limit here is 1)');
});

t.test('a real HTTP client gets the 429 with Retry-After and the JSON message', async (tt) => {
  const dir = tempDir(tt);
  const auth = openAuth({ credentialsFile: await writeCredentials(join(dir, 'credentials'), { alice: 'alice-pw' }), loginFailures: 2, loginFailureWindowMs: 60_000 });
  const address = await serveWithAuth(tt, auth);
  const url = `http://${address}/v2/apps`;
  const statuses: number[] = [];
  for (let i = 0; i < 2; i++) statuses.push((await fetch(url, { headers: { authorization: basic('alice', `guess-${i}`) } })).status);
  tt.same(statuses, [401, 401]);
  const limited = await fetch(url, { method: 'POST', headers: { authorization: basic('alice', 'alice-pw'), 'content-type': 'application/json' }, body: '{"id":"/x","cmd":"sleep 1"}' });
  tt.equal(limited.status, 429);
  const retryAfterS = Number(limited.headers.get('retry-after'));
  tt.ok(Number.isInteger(retryAfterS) && retryAfterS >= 1 && retryAfterS <= 60, `Retry-After ${retryAfterS}: whole seconds left of the 60 s window`);
  tt.match(limited.headers.get('content-type'), /^application\/json/);
  tt.match(await limited.json(), { message: /^Too many failed logins from this address \(2 within 60 s\); try again in \d+ s$/ });
  tt.equal(auth.basic?.gate.started, 2, 'the refused request ran no scrypt');
});
