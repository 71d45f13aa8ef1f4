import t from 'tap';
import { createHash } from 'node:crypto';
import { parseCredentialsFile } from '../../../src/api/auth/credentials-file';
import { parseHttpCredentials } from '../../../src/api/auth/http-credentials';
import { formatPasswordHash, hashPassword, parsePasswordHash, verifyPassword, type ScryptHash } from '../../../src/api/auth/password-hash';
import { parseTokensFile, tokenDigest } from '../../../src/api/auth/tokens-file';
import { BasicVerifier } from '../../../src/api/auth/basic-verifier';
import { TokenVerifier } from '../../../src/api/auth/token-verifier';
import { FAST_SCRYPT } from './auth-kit';

t.test('--http_credentials: Marathon\'s user:password, and a comma list', async (tt) => {
  const cases: ReadonlyArray<readonly [string, unknown]> = [
    ['admin:secret', [{ user: 'admin', password: 'secret' }]],
    ['admin:sec:ret', [{ user: 'admin', password: 'sec:ret' }]],
    ['a:1,b:2', [{ user: 'a', password: '1' }, { user: 'b', password: '2' }]],
    ['admin:pa,ss', [{ user: 'admin', password: 'pa,ss' }]],
    ['a:1,,b:2', [{ user: 'a', password: '1,' }, { user: 'b', password: '2' }]],
    ['admin', { error: 'pair 1: expected user:password (a non-empty user without \':\' and a non-empty password)' }],
    [':secret', { error: 'pair 1: expected user:password (a non-empty user without \':\' and a non-empty password)' }],
    ['admin:', { error: 'pair 1: expected user:password (a non-empty user without \':\' and a non-empty password)' }],
    ['a:1,a:2', { error: 'pair 2: user "a" is given twice' }],
  ];
  for (const [value, expected] of cases) tt.same(parseHttpCredentials(value), expected, value);
});

t.test('scrypt hashes: PHC strings, round trip, verification, bounds', async (tt) => {
  const encoded = await hashPassword('correct horse', FAST_SCRYPT);
  tt.match(encoded, /^\$scrypt\$ln=10,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
  const parsed = parsePasswordHash(encoded);
  if (parsed === undefined) throw new Error('unparsed');
  tt.equal(formatPasswordHash(parsed), encoded);
  tt.equal(await verifyPassword('correct horse', parsed), true);
  tt.equal(await verifyPassword('correct horsE', parsed), false);
  tt.equal(await verifyPassword('', parsed), false);
  const salted = parsePasswordHash(await hashPassword('correct horse', FAST_SCRYPT));
  tt.not(salted?.salt.toString('hex'), parsed.salt.toString('hex'), 'a fresh salt per hash');
  // A hash made by another tool verifies too: this one is Python's
  // base64(hashlib.scrypt(b'pacer', salt=b'0123456789abcdef', n=1024, r=8, p=1, dklen=32)).
  const salt = Buffer.from('0123456789abcdef');
  const known = `$scrypt$ln=10,r=8,p=1$${salt.toString('base64').replace(/=+$/, '')}$` +
    'ORdN/ZAqqpGRAZPazmdGu9+7GXnfoDTS3BVGSXe/gvg';
  const vector = parsePasswordHash(known);
  tt.ok(vector !== undefined, 'the vector parses');
  if (vector !== undefined) tt.equal(await verifyPassword('pacer', vector), true, 'Python\'s scrypt vector');
  for (const bad of ['', 'plain', '$scrypt$ln=9,r=8,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA', '$scrypt$ln=21,r=8,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA',
    '$2y$10$abcdefghijklmnopqrstuuKfq6pZ8h0ZbqVwF9hP2sA3WQ7i', '$scrypt$ln=10,r=8,p=1$c2Fs$aGFzaGhhc2hoYXNoaGFzaA']) {
    tt.equal(parsePasswordHash(bad), undefined, bad);
  }
});

t.test('credentials file: user:hash lines, comments, errors by line without the content', async (tt) => {
  const hash = await hashPassword('pw', FAST_SCRYPT);
  const users = parseCredentialsFile(`# team\n\nalice:${hash}\r\n  bob:${hash}  \n`);
  tt.ok(users instanceof Map);
  tt.same([...(users as Map<string, unknown>).keys()], ['alice', 'bob']);
  const cases: ReadonlyArray<readonly [string, string]> = [
    ['alice:plaintext-password', 'line 1: the password of "alice" is not a PHC scrypt hash within bounds (make one with npm run passwd -- USER)'],
    [`ok:${hash}\nnocolon`, 'line 2: expected user:$scrypt$ln=…,r=…,p=…$salt$hash (make one with npm run passwd -- USER)'],
    [`a:${hash}\na:${hash}`, 'line 2: user "a" is given twice'],
  ];
  for (const [text, error] of cases) {
    const result = parseCredentialsFile(text);
    tt.same(result, { error }, error);
    tt.notMatch(JSON.stringify(result), /plaintext-password/, 'the line is never quoted');
  }
});

t.test('tokens file: principal:token or principal:sha256:<hex>; short tokens refused', async (tt) => {
  const token = 'a-long-enough-token-1';
  const hex = createHash('sha256').update('another-long-token-2').digest('hex');
  const entries = parseTokensFile(`# ops\nops:${token}\nci:sha256:${hex}\nops:third-token-for-rotation\n`);
  if (!Array.isArray(entries)) throw new Error(entries.error);
  tt.same(entries.map((e) => e.principal), ['ops', 'ci', 'ops']);
  tt.same(entries[0].sha256, tokenDigest(token));
  tt.same(entries[1].sha256, tokenDigest('another-long-token-2'));
  const cases: ReadonlyArray<readonly [string, string]> = [
    ['ops:short', 'line 1: the token of "ops" is shorter than 16 characters'],
    ['justatokenwithoutprincipal', 'line 1: expected principal:token or principal:sha256:<hex>'],
    [`a:${token}\nb:${token}`, 'line 2: the token of "b" is also given on an earlier line'],
    // A token an Authorization: Bearer header could never carry (RFC 6750 b64token).
    ['ops:a-long-enough-token with a space', 'line 1: the token of "ops" has characters a bearer token cannot carry (letters, digits, -._~+/, then = only at the end)'],
    ['ops:a-long-enough-token-with!', 'line 1: the token of "ops" has characters a bearer token cannot carry (letters, digits, -._~+/, then = only at the end)'],
    ['ops:a-long-enough=token-within', 'line 1: the token of "ops" has characters a bearer token cannot carry (letters, digits, -._~+/, then = only at the end)'],
  ];
  for (const [text, error] of cases) tt.same(parseTokensFile(text), { error }, error);

  const verifier = new TokenVerifier({ content: entries });
  tt.equal(verifier.principalOf(token), 'ops');
  tt.equal(verifier.principalOf('another-long-token-2'), 'ci');
  tt.equal(verifier.principalOf('third-token-for-rotation'), 'ops');
  tt.equal(verifier.principalOf(`${token}x`), undefined);
  tt.equal(verifier.principalOf(''), undefined);
});

t.test('basic verifier: flag pairs, file users, unknown users, a changed hash is not remembered', async (tt) => {
  const users = new Map([['alice', parsePasswordHash(await hashPassword('alice-pw', FAST_SCRYPT))!]]);
  const file: { content: ReadonlyMap<string, ScryptHash> } = { content: users };
  const verifier = new BasicVerifier([{ user: 'admin', password: 'admin-pw' }], file);
  const cases: ReadonlyArray<readonly [string, string, boolean]> = [
    ['admin', 'admin-pw', true], ['admin', 'admin-pW', false], ['admin', '', false],
    ['alice', 'alice-pw', true], ['alice', 'alice-pw', true], ['alice', 'admin-pw', false],
    ['nobody', 'alice-pw', false], ['', '', false],
  ];
  for (const [user, password, ok] of cases) tt.equal(await verifier.verify(user, password), ok, `${user}:${password}`);
  file.content = new Map([['alice', parsePasswordHash(await hashPassword('new-pw', FAST_SCRYPT))!]]);
  tt.equal(await verifier.verify('alice', 'alice-pw'), false, 'the old password, once remembered, no longer works');
  tt.equal(await verifier.verify('alice', 'new-pw'), true);
  const flagOnly = new BasicVerifier([{ user: 'admin', password: 'admin-pw' }], undefined);
  tt.equal(await flagOnly.verify('alice', 'alice-pw'), false);
});
