import t from 'tap';
import { type GroupGetTarget, groupGetTarget } from '../../../src/api/v2/groups/group-path';
import { makeApi } from '../api-fixture';
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

t.test('group versions come from the core\'s root history and survive a restart', async (t) => {
  const kit = groupKit(t);
  const initial = kit.deps.scheduler.root().version;
  const a = await kit.request('POST', '/v2/groups', { id: '/a' });
  const b = await kit.request('POST', '/v2/groups', { id: '/b' });
  const va = String((a.json as { version: string }).version);
  const vb = String((b.json as { version: string }).version);
  t.same((await kit.request('GET', '/v2/groups/versions')).json, [vb, va, initial], 'newest first');
  t.same((await kit.request('GET', '/v2/groups/a/versions')).json, [vb, va], 'only roots holding /a');

  const restarted = makeApi({ stored: kit.harness.store.load(), startMs: kit.harness.nowMs + 60_000 });
  t.teardown(() => restarted.app.close());
  const get = async (url: string): Promise<unknown> => JSON.parse((await restarted.app.inject({ method: 'GET', url })).body);
  t.same(await get('/v2/groups/versions'), [vb, va], 'the stored versions, without the unstored starting root');
  t.match(await get(`/v2/groups/versions/${va}`), { id: '/', groups: [{ id: '/a' }] }, 'one version still readable');
  const revert = await restarted.app.inject({ method: 'PUT', url: '/v2/groups', payload: { version: va } });
  t.equal(revert.statusCode, 200, 'and a revert to it works');
  t.same(restarted.harness.scheduler.root().groups.has('/b'), false, '/b is gone after the revert');
});
