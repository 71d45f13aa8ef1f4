import t from 'tap';
import { makeApp, versionAt } from '../../../builders/run-spec-builders';
import type { Group } from '../../../../src/scheduler/groups/group';
import { reservedGroupMessage } from '../../../../src/scheduler/groups/path-id';
import { reservedNewGroup } from '../../../../src/scheduler/groups/reserved-new-group';
import { emptyRoot, withRunSpec } from '../../../../src/scheduler/groups/root-group';

const OFF = { version: versionAt(1), newGroupEnforceRole: 'off' } as const;

/**
 * A root holding `/legacy/tasks/a`: a tree stored before the rule (withRunSpec, the primitive a
 * revert or rollback also uses, does not check it).
 */
function legacyRoot(): Group {
  const result = withRunSpec(emptyRoot(versionAt(0)), makeApp({ id: '/legacy/tasks/a' }), OFF);
  if (!result.ok) throw new Error(result.message);
  return result.root;
}

t.test('reservedNewGroup: the first missing parent group that ends in a reserved keyword', async (t) => {
  const root = legacyRoot();
  const cases: [string, string | undefined][] = [
    ['/a', undefined],
    ['/tasks', undefined], // its own last segment is the id rule's (validatePathId), not this one
    ['/a/b/c', undefined],
    ['/tasks-x/a', undefined],
    ['/a/versionsx/b', undefined],
    ['/q/tasks/a', '/q/tasks'],
    ['/versions/app', '/versions'],
    ['/restart/x', '/restart'],
    ['/a/versions/b/tasks/c', '/a/versions'],
    // An existing group counts as reachable enough: a stored tree keeps working.
    ['/legacy/tasks/b', undefined],
    ['/legacy/tasks/a', undefined],
    ['/legacy/tasks/restart/b', '/legacy/tasks/restart'],
    ['/legacy/versions/b', '/legacy/versions'],
  ];
  for (const [id, group] of cases) {
    const failure = reservedNewGroup(root, id);
    t.same(failure, group === undefined ? undefined : { ok: false, error: 'reserved-group', message: reservedGroupMessage(group) }, id);
  }
  t.equal(reservedGroupMessage('/q/tasks'), "must not create a group whose id ends in a reserved keyword (restart, tasks, versions): '/q/tasks'");
});
