import t, { type Test } from 'tap';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { makeApi } from '../api-fixture';
import { readAuthorization } from '../../../src/api/auth/authorization-header';
import { openAuth, tempDir, writeTokens } from './auth-kit';
import { request } from './tls-client';

/**
 * The `Authorization` header's syntax (RFC 7235 §2.1, RFC 9110 §11.4: `auth-scheme [ 1*SP token68 ]`,
 * the scheme case-insensitive; RFC 7617 Basic, RFC 6750 §2.1 `"Bearer" 1*SP b64token`), through
 * fastify.inject() and a real HTTP client: every case of the scheme and one or more spaces are
 * accepted for Basic and Bearer alike; a header that breaks the grammar is a 401 that says so.
 */

const TOKEN = 'tok-0123456789abcdef-ops';
const B64 = Buffer.from('admin:flag-pass').toString('base64');
const WRONG_B64 = Buffer.from('admin:nope').toString('base64');
const INVALID = 'Invalid username or password.';
const MALFORMED = 'Malformed Authorization header: expected Basic or Bearer (in any case), one or more spaces, then the credentials as one token (RFC 7235)';

/** [header, status, message of a 401]. */
const CASES: ReadonlyArray<readonly [string, 200 | 401, string?]> = [
  [`Basic ${B64}`, 200],
  [`basic ${B64}`, 200],
  [`BASIC ${B64}`, 200],
  [`bAsIc ${B64}`, 200],
  [`Basic  ${B64}`, 200],
  [`basic   ${B64}`, 200],
  [`Bearer ${TOKEN}`, 200],
  [`bearer ${TOKEN}`, 200],
  [`BEARER ${TOKEN}`, 200],
  [`Bearer  ${TOKEN}`, 200],
  [`bEaReR    ${TOKEN}`, 200],
  // Wrong credentials in a well-formed header, and a scheme pacer does not take: Marathon's 401.
  [`Basic ${WRONG_B64}`, 401, INVALID],
  [`bearer ${TOKEN}x`, 401, INVALID],
  ['Digest username="admin"', 401, INVALID],
  ['Negotiate YIIB', 401, INVALID],
  // Outside the grammar: a tab where 1*SP is required, nothing or more than one token after the
  // scheme, characters outside token68, no space at all.
  [`Basic\t${B64}`, 401, MALFORMED],
  [`Bearer\t${TOKEN}`, 401, MALFORMED],
  [`Basic \t${B64}`, 401, MALFORMED],
  [`Basic ${B64} extra`, 401, MALFORMED],
  [`Bearer ${TOKEN} ${TOKEN}`, 401, MALFORMED],
  ['Basic', 401, MALFORMED],
  ['bearer', 401, MALFORMED],
  ['Basic %%%', 401, MALFORMED],
  [`Bearer ${TOKEN}!`, 401, MALFORMED],
  [`Bearer =${TOKEN}`, 401, MALFORMED],
  [`Basic${B64}`, 401, INVALID], // one token: a scheme of its own, with no credentials
  [`Basic=${B64}`, 401, MALFORMED],
  [`Basic ${B64}, Bearer ${TOKEN}`, 401, MALFORMED],
  ['Basic é', 401, MALFORMED],
];

function secured(tt: Test) {
  const auth = openAuth({ httpCredentials: 'admin:flag-pass', tokensFile: writeTokens(join(tempDir(tt), 'tokens'), { ops: TOKEN }) });
  const api = makeApi({ auth });
  tt.teardown(async () => {
    auth.close();
    await api.app.close();
  });
  return api;
}

function check(tt: Test, header: string, status: number, body: string, expected: readonly [string, 200 | 401, string?]): void {
  const [, want, message] = expected;
  const where = JSON.stringify(header);
  tt.equal(status, want, where);
  if (want === 401) tt.same(JSON.parse(body), { message }, where);
}

t.test('fastify.inject(): the scheme in any case, one or more spaces; anything else a clear 401', async (tt) => {
  const api = secured(tt);
  for (const expected of CASES) {
    const res = await api.app.inject({ url: '/v2/info', headers: { authorization: expected[0] } });
    check(tt, expected[0], res.statusCode, res.body, expected);
    if (res.statusCode === 401) tt.same(res.headers['www-authenticate'], ['Basic realm="Mesosphere"', 'Bearer realm="Mesosphere"']);
  }
});

t.test('a real HTTP client: the same answers over a socket', async (tt) => {
  const api = secured(tt);
  await api.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = api.app.server.address() as AddressInfo;
  for (const expected of CASES) {
    const res = await request(`http://127.0.0.1:${port}/v2/info`, { headers: { authorization: expected[0] } });
    check(tt, expected[0], res.status, res.body, expected);
  }
  // Spaces and tabs around the value are the field's own whitespace (RFC 9110 §5.5), not the
  // credentials': Node's parser drops them.
  for (const header of [` Basic ${B64}`, `bearer ${TOKEN}\t`, `\tBEARER  ${TOKEN} `]) {
    const res = await request(`http://127.0.0.1:${port}/v2/info`, { headers: { authorization: header } });
    tt.equal(res.status, 200, JSON.stringify(header));
  }
});

t.test('readAuthorization: the scheme, its token, or why not', async (tt) => {
  const cases: ReadonlyArray<readonly [string | string[] | undefined, unknown]> = [
    [undefined, { kind: 'absent' }],
    [['Basic a', 'Basic b'], { kind: 'malformed' }],
    ['', { kind: 'malformed' }],
    [' \t', { kind: 'malformed' }],
    ['BaSiC  dXNlcjpwdw==', { kind: 'credentials', scheme: 'basic', token: 'dXNlcjpwdw==' }],
    [' bearer a.b-c_d~e+f/g== \t', { kind: 'credentials', scheme: 'bearer', token: 'a.b-c_d~e+f/g==' }],
    ['Bearer a=b', { kind: 'malformed' }],
    ['Bearer a\nb', { kind: 'malformed' }],
    ['Digest', { kind: 'other-scheme' }],
    ['Digest realm="x", nonce="y"', { kind: 'other-scheme' }],
    ['(Basic) x', { kind: 'malformed' }],
  ];
  for (const [value, expected] of cases) tt.same(readAuthorization(value), expected, JSON.stringify(value));
});
