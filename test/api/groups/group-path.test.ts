import t from 'tap';
import { type GroupGetTarget, groupGetTarget } from '../../../src/api/v2/groups/group-path';
import { followRootVersions } from '../../../src/api/v2/groups/root-versions';
import { groupKit } from './group-test-kit';

t.test('GET paths below /v2/groups, matched in Marathon\'s order', async (t) => {
  const table: [string, GroupGetTarget][] = [
    ['', { kind: 'group', groupId: '/' }],
    ['prod/web', { kind: 'group', groupId: '/prod/web' }],
    ['prod/web/', { kind: 'group', groupId: '/prod/web' }],
    ['apps', { kind: 'apps', groupId: '/' }],
    ['prod/apps', { kind: 'apps', groupId: '/prod' }],
    ['versions', { kind: 'versions', groupId: '/' }],
    ['prod/versions', { kind: 'versions', groupId: '/prod' }],
    ['versions/2026-01-01T00:00:00.000Z', { kind: 'version', groupId: '/', version: '2026-01-01T00:00:00.000Z' }],
    ['prod/web/versions/2026-01-01T00:00:00.000Z', { kind: 'version', groupId: '/prod/web', version: '2026-01-01T00:00:00.000Z' }],
  ];
  for (const [rest, expected] of table) t.same(groupGetTarget(rest), expected, rest);
});

t.test('root versions: the current root, then each accepted change, at most maxVersions', async (t) => {
  const kit = groupKit(t);
  const versions = followRootVersions(kit.deps.scheduler, 2);
  t.teardown(() => versions.close());
  const initial = kit.deps.scheduler.root().version;
  t.same(versions.list(), [initial]);
  const a = await kit.request('POST', '/v2/groups', { id: '/a' });
  const b = await kit.request('POST', '/v2/groups', { id: '/b' });
  const va = String((a.json as { version: string }).version);
  const vb = String((b.json as { version: string }).version);
  t.same(versions.list(), [vb, va], 'newest first, the oldest dropped');
  t.ok(versions.get(vb)?.groups.has('/b'));
  t.equal(versions.get(initial), undefined);
  versions.close();
  await kit.request('POST', '/v2/groups', { id: '/c' });
  t.same(versions.list(), [vb, va], 'closed: no longer follows');
});
