import t from 'tap';
import { join } from 'node:path';
import { BasicVerifier } from '../../../src/api/auth/basic-verifier';
import { hashPassword, parsePasswordHash, type ScryptHash } from '../../../src/api/auth/password-hash';
import { ScryptGate } from '../../../src/api/auth/scrypt-gate';
import { makeApi } from '../api-fixture';
import { serveWithAuth } from './served-api';
import { basic, FAST_SCRYPT, openAuth, pollUntil, tempDir, writeCredentials } from './auth-kit';

/**
 * Verifications of the same (user, password, hash) that arrive while its scrypt run goes on share
 * that run and its result (README, "Who may call"; basic-verifier.ts): a client opening many
 * connections at once with a password not yet remembered costs one run, and is not answered 503
 * for filling the gate with copies of its own check. Runs are counted by the gate's `started`.
 */

const N = 40; // more than the gate's one run and 32 waiting places

async function verifierOf(users: Readonly<Record<string, string>>): Promise<{ verifier: BasicVerifier; gate: ScryptGate }> {
  const hashes = new Map<string, ScryptHash>();
  for (const [user, password] of Object.entries(users)) hashes.set(user, parsePasswordHash(await hashPassword(password, FAST_SCRYPT))!);
  const gate = new ScryptGate();
  return { verifier: new BasicVerifier([], { content: hashes }, gate), gate };
}

function times<T>(n: number, make: () => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: n }, make));
}

t.test('N concurrent verifications of the same credentials: one scrypt run, its result for all', async (tt) => {
  const { verifier, gate } = await verifierOf({ alice: 'alice-pw', bob: 'bob-pw' });
  // Each case starts when the previous one ended: `runs` is how many the whole burst cost.
  const cases: ReadonlyArray<{ readonly name: string; readonly user: string; readonly password: string; readonly ok: boolean; readonly runs: number }> = [
    { name: 'the right password', user: 'alice', password: 'alice-pw', ok: true, runs: 1 },
    { name: 'the same again: remembered', user: 'alice', password: 'alice-pw', ok: true, runs: 0 },
    { name: 'a wrong password', user: 'alice', password: 'wrong', ok: false, runs: 1 },
    { name: 'the same wrong one later: a failure is not remembered', user: 'alice', password: 'wrong', ok: false, runs: 1 },
    { name: 'an unknown user, as a known one costs', user: 'nobody', password: 'x', ok: false, runs: 1 },
  ];
  for (const c of cases) {
    const before = gate.started;
    const answers = await times(N, () => verifier.verify(c.user, c.password));
    tt.same(new Set(answers), new Set([c.ok]), `${c.name}: every one ${String(c.ok)}`);
    tt.equal(gate.started - before, c.runs, `${c.name}: ${c.runs} scrypt run(s)`);
  }
  tt.same(gate.load, { running: 0, waiting: 0 });
});

t.test('different credentials still run separately', async (tt) => {
  const { verifier, gate } = await verifierOf({ alice: 'alice-pw', bob: 'bob-pw' });
  const pairs: ReadonlyArray<readonly [string, string, boolean]> = [
    ['alice', 'alice-pw', true], ['alice', 'other', false], ['bob', 'bob-pw', true], ['bob', 'alice-pw', false], ['nobody', 'alice-pw', false], ['nobody', 'x', false],
  ];
  const answers = await Promise.all(pairs.flatMap(([user, password]) => [verifier.verify(user, password), verifier.verify(user, password)]));
  tt.same(answers, pairs.flatMap(([, , ok]) => [ok, ok]));
  tt.equal(gate.started, pairs.length, 'one run per distinct (user, password), not one per verification');
});

t.test('a check the gate had no room for is busy for every verification that shared it', async (tt) => {
  const { verifier, gate } = await verifierOf({ alice: 'alice-pw' });
  let release: () => void = () => undefined;
  const holding = new Promise<void>((resolve) => { release = resolve; });
  const held = Array.from({ length: 33 }, () => gate.run(() => holding));
  await Promise.resolve();
  tt.same(await times(5, () => verifier.verify('alice', 'alice-pw')), ['busy', 'busy', 'busy', 'busy', 'busy']);
  tt.equal(gate.started, 1, 'no run but the held one');
  release();
  await Promise.all(held);
  const started = gate.started;
  tt.same(await times(5, () => verifier.verify('alice', 'alice-pw')), [true, true, true, true, true], 'busy is not remembered: checked once the gate has room');
  tt.equal(gate.started, started + 1);
});

/**
 * Runs `burst` with the gate's one run held by the test until `n` verifications have arrived, so
 * that every one of them meets the first one's check under way (whatever the timing); the
 * answers, and the scrypt runs the burst cost.
 */
async function burst<T>(auth: ReturnType<typeof openAuth>, n: number, send: () => Promise<T>): Promise<{ answers: T[]; runs: number }> {
  const basicVerifier = auth.basic;
  if (basicVerifier === undefined) throw new Error('no basic verifier');
  let arrived = 0;
  const verify = basicVerifier.verify.bind(basicVerifier);
  basicVerifier.verify = (user, password) => { arrived++; return verify(user, password); };
  let release: () => void = () => undefined;
  const holding = basicVerifier.gate.run(() => new Promise<void>((resolve) => { release = resolve; }));
  const before = basicVerifier.gate.started;
  const answers = times(n, send);
  await pollUntil(async () => arrived >= n, `${n} verifications`);
  release();
  await holding;
  const result = { answers: await answers, runs: basicVerifier.gate.started - before };
  basicVerifier.verify = verify;
  return result;
}

t.test('the API: N requests at once with the same credentials, one scrypt run, none answered 503', async (tt) => {
  const auth = openAuth({ credentialsFile: await writeCredentials(join(tempDir(tt), 'credentials'), { alice: 'alice-pw' }), loginFailures: 2 * N });
  const api = makeApi({ auth });
  tt.teardown(async () => { auth.close(); await api.app.close(); });
  const send = (authorization: string) => async (): Promise<number> => (await api.app.inject({ url: '/v2/apps', headers: { authorization } })).statusCode;
  const wrong = await burst(auth, N, send(basic('alice', 'wrong')));
  tt.same(new Set(wrong.answers), new Set([401]), 'a wrong password: 401 for all');
  tt.equal(wrong.runs, 1);
  const right = await burst(auth, N, send(basic('alice', 'alice-pw')));
  tt.same(new Set(right.answers), new Set([200]), 'the right one: 200 for all, none 503');
  tt.equal(right.runs, 1);
});

t.test('a real HTTP client opening many connections at once with the right password: one scrypt run', async (tt) => {
  const auth = openAuth({ credentialsFile: await writeCredentials(join(tempDir(tt), 'credentials'), { alice: 'alice-pw' }) });
  const address = await serveWithAuth(tt, auth);
  const url = `http://${address}/v2/apps`;
  // Requests in flight at once each take a connection of their own.
  const { answers, runs } = await burst(auth, 20, async () => {
    const res = await fetch(url, { headers: { authorization: basic('alice', 'alice-pw') } });
    await res.arrayBuffer();
    return res.status;
  });
  tt.same(new Set(answers), new Set([200]));
  tt.equal(runs, 1);
});
