import t from 'tap';
import { ErrorSink } from '../../../../src/marathon/convert/error-sink';
import { childPointer } from '../../../../src/marathon/convert/json-pointer';
import { groupRoleOf, pathIdProblem } from '../../../../src/marathon/convert/path-id';
import { allowedRoles, roleNameProblem } from '../../../../src/marathon/convert/role-rules';
import { appErrors, CTX, makeAppJson } from './fixtures/builders';

t.test('childPointer escapes ~ and / (RFC 6901)', async (t) => {
  t.equal(childPointer('', 'id'), '/id');
  t.equal(childPointer('/env', 'a/b~c'), '/env/a~1b~0c');
  t.equal(childPointer('/constraints', 0), '/constraints/0');
  t.strictSame(appErrors(makeAppJson({ labels: { 'a/b': 1 } })), [{ path: '/labels/a~1b', errors: ['error.expected.jsstring'] }]);
});

t.test('ErrorSink merges messages per path and writes the root as /', async (t) => {
  const sink = new ErrorSink();
  t.equal(sink.failed, false);
  sink.add('', 'a');
  sink.add('/x', 'b');
  sink.add('', 'c');
  sink.add('', 'a');
  t.equal(sink.failed, true);
  t.strictSame(sink.details(), [{ path: '/', errors: ['a', 'c'] }, { path: '/x', errors: ['b'] }]);
});

const ids: readonly (readonly [string, string | undefined])[] = [
  ['/foo', undefined],
  ['/prod/web.frontend/v-1', undefined],
  ['/a.b', undefined],
  ['/a/restart', 'must not end with any of the following reserved keywords: restart, tasks, versions, ., ..'],
  ['/a/..', 'must not end with any of the following reserved keywords: restart, tasks, versions, ., ..'],
  // Marathon's childOf rule, from the one owner of id rules (scheduler/groups/path-id.ts).
  ['/a/../b', "Identifier is not child of '/a/..'"],
  ['/a/./b', "Identifier is not child of '/a/.'"],
  ['/', 'Path must contain at least one path element'],
  [`/${'a'.repeat(128)}`, 'must not be longer than 128 characters'],
  ['/foo/', 'error.pattern'],
  ['/-a', 'error.pattern'],
  ['/a b', 'error.pattern'],
  ['foo', "id must be an absolute path starting with '/'"],
];

for (const [id, problem] of ids) {
  t.test(`path id ${JSON.stringify(id)}`, async (t) => t.equal(pathIdProblem(id), problem));
}

t.test('group role is the top-level group of a nested id', async (t) => {
  t.equal(groupRoleOf('/foo'), undefined);
  t.equal(groupRoleOf('/dev/app'), 'dev');
  t.equal(groupRoleOf('/dev/sub/app'), 'dev');
});

t.test('allowed roles (spec 2.7)', async (t) => {
  t.strictSame(allowedRoles('/foo', CTX), ['*']);
  t.strictSame(allowedRoles('/dev/a', CTX), ['*', 'dev']);
  t.strictSame(allowedRoles('/dev/a', { ...CTX, defaultRole: 'dev' }), ['dev']);
  t.strictSame(allowedRoles('/dev/a', { ...CTX, enforcedGroupRole: 'dev' }), ['dev']);
  t.strictSame(allowedRoles('/foo', { ...CTX, enforcedGroupRole: 'dev' }), ['*'], 'root apps have no group role');
});

t.test('allowed roles keep the previous role acceptable, except in the root (fact 111)', async (t) => {
  const table: [string, string, Partial<typeof CTX>, string[]][] = [
    ['enforced, previous *', '/dev/a', { enforcedGroupRole: 'dev', previousRole: '*' }, ['dev', '*']],
    ['enforced, previous is the group role', '/dev/a', { enforcedGroupRole: 'dev', previousRole: 'dev' }, ['dev']],
    ['not enforced, previous elsewhere', '/dev/a', { previousRole: 'old' }, ['*', 'dev', 'old']],
    ['not enforced, previous *', '/dev/a', { previousRole: '*' }, ['*', 'dev']],
    ['root level ignores it', '/foo', { previousRole: 'old' }, ['*']],
  ];
  for (const [name, id, ctx, expected] of table) t.strictSame(allowedRoles(id, { ...CTX, ...ctx }), expected, name);
});

t.test('role names (Mesos rules)', async (t) => {
  t.equal(roleNameProblem('dev'), undefined);
  t.equal(roleNameProblem('*'), undefined);
  t.equal(roleNameProblem(''), 'A role name must not be "".');
  t.equal(roleNameProblem('..'), 'A role name must not be "..".');
  t.equal(roleNameProblem('-x'), "A role name must not start with a '-'.");
  t.equal(roleNameProblem('a b'), 'A role name must not include a space (\\x20) character.');
});
