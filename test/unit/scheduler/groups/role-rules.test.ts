import t from 'tap';
import { makeApp, makePod, versionAt } from '../../../builders/run-spec-builders';
import {
  EMPTY_ACCEPTED_ROLES_MESSAGE, roleNameProblem, validateAcceptedResourceRoles,
} from '../../../../src/scheduler/groups/accepted-resource-roles';
import type { Group } from '../../../../src/scheduler/groups/group';
import type { GroupResult } from '../../../../src/scheduler/groups/group-result';
import {
  allowedRoles, defaultRoleFor, enforcesRole, groupRoleOf, residentRoleChangeMessage, residentRoleErrors,
  roleNotAllowedMessage, validateRole,
} from '../../../../src/scheduler/groups/role-rules';
import { emptyRoot, withRunSpec, setEnforceRole } from '../../../../src/scheduler/groups/root-group';
import type { NewGroupEnforceRole } from '../../../../src/scheduler/groups/change-options';

function ok(r: GroupResult): Group {
  if (!r.ok) throw new Error(`${r.error}: ${r.message}`);
  return r.root;
}

const EMPTY = emptyRoot(versionAt(0));
/** `/dev` exists (with `/dev/existing`); enforceRole as given. */
function devRoot(enforce: boolean): Group {
  const root = ok(withRunSpec(EMPTY, makeApp({ id: '/dev/existing', role: 'custom' }), { version: versionAt(1), newGroupEnforceRole: 'off' }));
  return ok(setEnforceRole(root, '/dev', enforce));
}

t.test('groupRoleOf: the top-level group name (spec 2.7 rule 3)', async (t) => {
  t.equal(groupRoleOf('/dev/app'), 'dev');
  t.equal(groupRoleOf('/dev/a/b/c'), 'dev');
  t.equal(groupRoleOf('/app'), undefined, 'root-level run specs have no group role');
});

t.test('allowed and default roles (facts 109–112)', async (t) => {
  type Case = [string, Group, string, string, NewGroupEnforceRole, string | undefined, string[], string];
  const cases: Case[] = [
    ['root level: only the default role', EMPTY, '/app', '*', 'off', undefined, ['*'], '*'],
    ['root level ignores --new_group_enforce_role', EMPTY, '/app', '*', 'top', undefined, ['*'], '*'],
    ['root level: an old role is not kept (RoleSettings)', EMPTY, '/app', '*', 'off', 'old', ['*'], '*'],
    ['root level with --mesos_role', EMPTY, '/app', 'mesos', 'off', undefined, ['mesos'], 'mesos'],
    ['group, not enforced', devRoot(false), '/dev/app', '*', 'off', undefined, ['*', 'dev'], '*'],
    ['group, not enforced, existing role kept', devRoot(false), '/dev/existing', '*', 'off', 'custom', ['*', 'dev', 'custom'], '*'],
    ['group, enforced', devRoot(true), '/dev/app', '*', 'off', undefined, ['dev'], 'dev'],
    ['group, enforced, existing role kept', devRoot(true), '/dev/existing', '*', 'off', 'custom', ['dev', 'custom'], 'dev'],
    ['enforced group ignores the option', devRoot(false), '/dev/app', '*', 'top', undefined, ['*', 'dev'], '*'],
    ['new top-level group, option off', EMPTY, '/dev/apps/sleeper', '*', 'off', undefined, ['*', 'dev'], '*'],
    ['new top-level group, option top', EMPTY, '/dev/apps/sleeper', '*', 'top', undefined, ['dev'], 'dev'],
    ['default role equal to the group role', devRoot(false), '/dev/app', 'dev', 'off', undefined, ['dev'], 'dev'],
    ['previous equal to an allowed role', devRoot(false), '/dev/app', '*', 'off', 'dev', ['*', 'dev'], '*'],
  ];
  for (const [name, root, id, def, option, previousRole, allowed, defaultRole] of cases) {
    const opts = { newGroupEnforceRole: option, ...(previousRole !== undefined ? { previousRole } : {}) };
    t.same(allowedRoles(root, id, def, opts), allowed, `${name}: allowed`);
    t.equal(defaultRoleFor(root, id, def, option), defaultRole, `${name}: default`);
  }
  t.equal(enforcesRole(devRoot(true), '/dev/x'), true);
  t.equal(enforcesRole(EMPTY, '/dev/x'), false, 'option defaults to off');
  t.same(allowedRoles(EMPTY, '/dev/x', '*'), ['*', 'dev'], 'options default to none');
});

t.test('validateRole: exact /role bodies', async (t) => {
  const cases: [string, Group, ReturnType<typeof makeApp> | ReturnType<typeof makePod>, string, string[] | undefined][] = [
    ['fact 109: root app with foo', EMPTY, makeApp({ id: '/app', role: 'foo' }), '*', ['got foo, expected one of: [*]']],
    ['root app with *', EMPTY, makeApp({ id: '/app', role: '*' }), '*', undefined],
    ['fact 110: foo in /dev', devRoot(false), makeApp({ id: '/dev/app', role: 'foo' }), '*', ['got foo, expected one of: [*, dev]']],
    ['fact 110: dev in /dev', devRoot(false), makeApp({ id: '/dev/app', role: 'dev' }), '*', undefined],
    ['fact 111: * in enforced /dev', devRoot(true), makeApp({ id: '/dev/x', role: '*' }), '*', ['got *, expected one of: [dev]']],
    ['pod in enforced /dev', devRoot(true), makePod({ id: '/dev/p', role: 'other' }), '*', ['got other, expected one of: [dev]']],
    ['pod at root with --mesos_role', EMPTY, makePod({ id: '/p', role: '*' }), 'mesos', ['got *, expected one of: [mesos]']],
  ];
  for (const [name, root, spec, def, errors] of cases) {
    t.same(validateRole(root, spec, def), errors === undefined ? undefined : { path: '/role', errors }, name);
  }
});

t.test('fact 111: an existing service keeps its old role until it changes it', async (t) => {
  const root = devRoot(true);
  const existing = makeApp({ id: '/dev/existing', role: 'custom' });
  t.equal(validateRole(root, makeApp({ id: '/dev/existing', role: 'custom', instances: 4 }), '*', existing), undefined, 'old role accepted again');
  t.equal(validateRole(root, makeApp({ id: '/dev/existing', role: 'dev' }), '*', existing), undefined, 'moving to the group role');
  const moved = makeApp({ id: '/dev/existing', role: 'dev' });
  t.same(validateRole(root, makeApp({ id: '/dev/existing', role: 'custom' }), '*', moved),
    { path: '/role', errors: ['got custom, expected one of: [dev]'] }, 'going back is rejected');
  t.same(validateRole(devRoot(false), makeApp({ id: '/dev/existing', role: 'differentCustomRole' }), '*', existing),
    { path: '/role', errors: ['got differentCustomRole, expected one of: [*, dev, custom]'] }, 'AppsResourceTest order: default, group, existing');
});

t.test('--new_group_enforce_role top while the group is created with the app (fact 112)', async (t) => {
  const spec = makeApp({ id: '/dev/apps/sleeper', role: '*' });
  t.equal(validateRole(EMPTY, spec, '*'), undefined, 'off: * allowed');
  t.same(validateRole(EMPTY, spec, '*', undefined, { newGroupEnforceRole: 'top' }), { path: '/role', errors: ['got *, expected one of: [dev]'] });
});

t.test('resident rules (fact 114)', async (t) => {
  const root = devRoot(false);
  t.same(validateRole(root, makeApp({ id: '/dev/r', role: '*', resident: true }), '*'),
    { path: '/role', errors: ['Resident apps cannot have the role *'] });
  t.same(validateRole(root, makePod({ id: '/dev/r', role: '*', resident: true }), '*'),
    { path: '/role', errors: ['Resident pods cannot have the role *'] });
  t.same(validateRole(EMPTY, makeApp({ id: '/r', role: 'x', resident: true }), '*'),
    { path: '/role', errors: ['got x, expected one of: [*]'] }, 'a root-level resident app needs a non-* default role');

  const before = makeApp({ id: '/dev/r', role: 'dev', resident: true });
  const after = makeApp({ id: '/dev/r', role: '*', resident: true });
  const change = residentRoleChangeMessage('dev', '*');
  t.equal(change, 'It is not possible to change the role for existing reservations. If you proceed with this change, all existing '
    + 'instances will continue to run under the previous role, dev. Only new instances will be allocated with the new role, *. '
    + 'In order to continue, retry your request with ?force=true');
  t.same(validateRole(root, after, '*', before), { path: '/role', errors: ['Resident apps cannot have the role *', change] },
    'all /role errors in one entry');
  const toOther = makeApp({ id: '/dev/r', role: 'other', resident: true });
  const fromOther = makeApp({ id: '/dev/r', role: 'other', resident: true });
  t.same(validateRole(root, makeApp({ id: '/dev/r', role: 'dev', resident: true }), '*', fromOther),
    { path: '/role', errors: [residentRoleChangeMessage('other', 'dev')] });
  t.equal(validateRole(root, makeApp({ id: '/dev/r', role: 'dev', resident: true }), '*', fromOther, { force: true }), undefined,
    'with ?force=true the change is accepted');
  t.same(residentRoleErrors(toOther, toOther, false), [], 'same role: no change');
  t.same(residentRoleErrors(makeApp({ role: '*' }), before, false), [], 'not resident: no resident rules');
  const pod = makePod({ id: '/dev/p', role: 'dev', resident: true });
  t.same(residentRoleErrors(makePod({ id: '/dev/p', role: 'x', resident: true }), pod, false), [residentRoleChangeMessage('dev', 'x')]);
});

t.test('roleNotAllowedMessage', async (t) => {
  t.equal(roleNotAllowedMessage('foo', ['*', 'dev']), 'got foo, expected one of: [*, dev]');
});

t.test('acceptedResourceRoles (spec 2.7 rule 7, fact 113)', async (t) => {
  type Spec = ReturnType<typeof makeApp> | ReturnType<typeof makePod>;
  const cases: [string, Spec, { path: string; errors: string[] } | undefined][] = [
    ['not given', makeApp({ role: '*' }), undefined],
    ['[*] with role *', makeApp({ role: '*', acceptedResourceRoles: ['*'] }), undefined],
    ['[foo] with role *', makeApp({ role: '*', acceptedResourceRoles: ['foo'] }),
      { path: '/acceptedResourceRoles', errors: ['acceptedResourceRoles can only contain *'] }],
    ['[foo] with role dev', makeApp({ id: '/dev/a', role: 'dev', acceptedResourceRoles: ['foo'] }),
      { path: '/acceptedResourceRoles', errors: ['acceptedResourceRoles can only contain * and dev'] }],
    ['[*, dev] with role dev', makeApp({ id: '/dev/a', role: 'dev', acceptedResourceRoles: ['*', 'dev'] }), undefined],
    ['[dev] with role dev', makeApp({ id: '/dev/a', role: 'dev', acceptedResourceRoles: ['dev'] }), undefined],
    ['[*, dev, x] with role dev', makeApp({ id: '/dev/a', role: 'dev', acceptedResourceRoles: ['*', 'dev', 'x'] }),
      { path: '/acceptedResourceRoles', errors: ['acceptedResourceRoles can only contain * and dev'] }],
    ['roles sorted in the message', makeApp({ id: '/a/b', role: '!bang', acceptedResourceRoles: ['x'] }),
      { path: '/acceptedResourceRoles', errors: ['acceptedResourceRoles can only contain !bang and *'] }],
    // An app's list given empty is refused by the converter (test/unit/marathon/convert/app-from-wire.test.ts);
    // in the model an empty list is the default.
    ['empty: the default', makeApp({ acceptedResourceRoles: [] }), undefined],
    ['bad role name', makeApp({ role: '*', acceptedResourceRoles: ['a/b'] }),
      { path: '/acceptedResourceRoles', errors: ['A role name must not include a slash (\\x2f) character.', 'acceptedResourceRoles can only contain *'] }],
    ['resident with [dev]', makeApp({ id: '/dev/r', role: 'dev', resident: true, acceptedResourceRoles: ['dev'] }),
      { path: '/acceptedResourceRoles', errors: ['A resident app must have `acceptedResourceRoles = ["*"]`.'] }],
    ['resident with [*]', makeApp({ id: '/dev/r', role: 'dev', resident: true, acceptedResourceRoles: ['*'] }), undefined],
    ['pod [foo] with role *', makePod({ role: '*', acceptedResourceRoles: ['foo'] }),
      { path: '/scheduling/placement/acceptedResourceRoles', errors: ['acceptedResourceRoles can only contain *'] }],
    ['pod empty list is the default', makePod({ role: '*' }), undefined],
    ['resident pod with [*, dev]', makePod({ id: '/dev/p', role: 'dev', resident: true, acceptedResourceRoles: ['*', 'dev'] }),
      { path: '/scheduling/placement/acceptedResourceRoles', errors: ['A resident pod must have `acceptedResourceRoles = ["*"]`.'] }],
  ];
  for (const [name, spec, want] of cases) t.same(validateAcceptedResourceRoles(spec), want, name);
  t.equal(EMPTY_ACCEPTED_ROLES_MESSAGE, 'must not be empty');
});

t.test('roleNameProblem: Marathon ResourceRole messages', async (t) => {
  const cases: [string, string | undefined][] = [
    ['dev', undefined], ['*', undefined], ['a.b-c', undefined],
    ['', 'A role name must not be "".'], ['.', 'A role name must not be ".".'], ['..', 'A role name must not be "..".'],
    ['-x', "A role name must not start with a '-'."],
    ['a b', 'A role name must not include a space (\\x20) character.'],
    ['a\tb', 'A role name must not include a horizontal tab (\\x09) character.'],
    ['a\nb', 'A role name must not include a line feed (\\x0a) character.'],
    ['a\x7fb', 'A role name must not include a backspace (\\x7f) character.'],
  ];
  for (const [role, want] of cases) t.equal(roleNameProblem(role), want, JSON.stringify(role));
});
