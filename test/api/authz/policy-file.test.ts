import t from 'tap';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { parsePolicyFile } from '../../../src/api/authz/policy-file';
import { Access, Policy } from '../../../src/api/authz/policy';
import { ApiAuthentication } from '../../../src/api/auth/api-authentication';
import { tempDir } from '../auth/auth-kit';

function policyOf(text: string): Policy {
  const parsed = parsePolicyFile(text);
  if (!(parsed instanceof Policy)) throw new Error(parsed.error);
  return parsed;
}

t.test('a policy file is YAML or JSON; errors name the principal and the entry', async (tt) => {
  const CASES: readonly [string, string, RegExp][] = [
    ['not YAML', 'principals: [', /not YAML or JSON/],
    ['no principals', 'users: {}', /expected an object with "principals"/],
    ['an unknown top-level key', 'principals: {}\nroles: {}', /unknown top-level key "roles"/],
    ['a principal without a list', 'principals:\n  a: /x', /principal "a": expected a list/],
    ['a relative path', 'principals:\n  a: [{ path: x, actions: [view] }]', /principal "a", entry 1: path must be an absolute group path/],
    ['an invalid path', 'principals:\n  a: [{ path: /Bad_Id, actions: [view] }]', /principal "a", entry 1: path "\/Bad_Id"/],
    ['no actions', 'principals:\n  a: [{ path: /x, actions: [] }]', /actions must be a non-empty list/],
    ['an unknown action', 'principals:\n  a: [{ path: /x, actions: [view] }, { path: /y, actions: [KillTask] }]', /principal "a", entry 2: unknown action "KillTask"/],
    ['an unknown key', 'principals:\n  a: [{ path: /x, actions: [view], paths: [/y] }]', /unknown key "paths"/],
  ];
  for (const [what, text, error] of CASES) {
    const parsed = parsePolicyFile(text);
    tt.match(parsed instanceof Policy ? 'parsed' : parsed.error, error, what);
  }
  const json = policyOf('{"principals": {"a": [{"path": "/x", "actions": ["ViewRunSpec"]}]}}');
  tt.ok(new Access('a', json).may('ViewRunSpec', '/x/y'), 'JSON is read too');
});

t.test('grants: a path prefix is a path, aliases expand to Marathon\'s actions, "*" applies to everyone, resources need /', async (tt) => {
  const policy = policyOf(`
principals:
  a:
    - { path: /team-a/, actions: [update] }
    - { path: /shared, actions: [ViewRunSpec] }
  ops:
    - { path: /, actions: [view] }
  "*":
    - { path: /public, actions: [view] }
`);
  const a = new Access('a', policy);
  const CASES: readonly [Access, Parameters<Access['may']>[0], string, boolean][] = [
    [a, 'UpdateRunSpec', '/team-a', true],
    [a, 'UpdateRunSpec', '/team-a/web', true],
    [a, 'UpdateGroup', '/team-a/sub', true],
    [a, 'UpdateRunSpec', '/team-ab', false],
    [a, 'UpdateRunSpec', '/', false],
    [a, 'DeleteRunSpec', '/team-a/web', false],
    [a, 'ViewRunSpec', '/team-a/web', false],
    [a, 'ViewRunSpec', '/shared/x', true],
    [a, 'ViewGroup', '/shared', false],
    [a, 'ViewRunSpec', '/public/x', true],
    [a, 'UpdateResource', '/', false],
    [new Access('ops', policy), 'ViewResource', '/', true],
    [new Access('ops', policy), 'UpdateResource', '/', false],
    [new Access('stranger', policy), 'ViewGroup', '/public', true],
    [new Access('stranger', policy), 'ViewGroup', '/team-a', false],
  ];
  for (const [access, action, path, expected] of CASES) tt.equal(access.may(action, path), expected, `${access.principal} ${action} ${path}`);
  tt.ok(a.seesGroup('/'), 'the root leads to what a may view');
  tt.ok(a.seesGroup('/shared'));
  tt.notOk(a.seesGroup('/other'));
  tt.ok(new Access('ops', policy).seesEverything());
  tt.notOk(a.seesEverything());
});

t.test('--authorization_file needs a credential source; an unusable file stops start-up naming it', async (tt) => {
  const dir = tempDir(tt);
  const path = join(dir, 'policy.yaml');
  writeFileSync(path, 'principals: {}\n');
  tt.throws(() => ApiAuthentication.open({ realm: 'R', openPaths: [], authorizationFile: path }, () => undefined), /--authorization_file needs authenticated callers/);
  writeFileSync(path, 'principals:\n  a: [{ path: /x, actions: [fly] }]\n');
  tt.throws(() => ApiAuthentication.open({ realm: 'R', openPaths: [], httpCredentials: 'a:b', authorizationFile: path }, () => undefined), /authorization file .*policy\.yaml: principal "a", entry 1: unknown action "fly"/);
});
