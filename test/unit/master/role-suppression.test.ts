import t from 'tap';
import { RoleSuppression } from '../../../src/master/role-suppression';

type Step = ['suppress' | 'revive' | 'know', string[]];

t.test('the unreserved pool is offered while a named role is unsuppressed (§2.6, §2.7)', async (t) => {
  const cases: { name: string; steps: Step[]; unreserved: boolean; suppressed?: Record<string, boolean> }[] = [
    { name: 'nothing said', steps: [], unreserved: true, suppressed: { a: false } },
    { name: 'suppress all, no role named', steps: [['suppress', []]], unreserved: false, suppressed: { a: true } },
    { name: 'suppress all, then revive all', steps: [['suppress', []], ['revive', []]], unreserved: true },
    { name: 'the only named role suppressed', steps: [['know', ['a']], ['suppress', ['a']]], unreserved: false, suppressed: { a: true, b: false } },
    { name: 'one of two named roles suppressed', steps: [['know', ['a', 'b']], ['suppress', ['a']]], unreserved: true },
    {
      name: 'suppress all, then revive one: the others stay suppressed',
      steps: [['know', ['a', 'b']], ['suppress', []], ['revive', ['a']]],
      unreserved: true, suppressed: { a: false, b: true },
    },
    { name: 'revive names a role', steps: [['suppress', []], ['revive', ['c']]], unreserved: true, suppressed: { c: false } },
  ];
  for (const c of cases) {
    const roles = new RoleSuppression();
    for (const [op, names] of c.steps) roles[op](names);
    t.equal(roles.unreservedOffered(), c.unreserved, `${c.name}: unreserved offered`);
    for (const [role, want] of Object.entries(c.suppressed ?? {})) t.equal(roles.isSuppressed(role), want, `${c.name}: ${role} suppressed`);
  }
});

t.test('know() tells whether a role was new', async (t) => {
  const roles = new RoleSuppression();
  t.equal(roles.know(['a']), true);
  t.equal(roles.know(['a']), false);
  t.equal(roles.know([]), false);
});
