import t from 'tap';
import type { Test } from 'tap';
import { getGroups, getGroupText } from '../../../src/api/v2/groups/group-read-handlers';
import { makePod } from '../../builders/run-spec-builders';
import { appBody, groupKit, type GroupKit } from './group-test-kit';

/*
 * `GET /v2/groups` with the default embeds (and the web UI's groups view: group.groups,
 * group.apps, group.pods) is answered from texts kept per group object (group-info-json.ts
 * groupDefinitionText): 10,000 apps' ~6 MB were serialized from objects at every read. The text
 * must be the object answer's JSON byte for byte, through every kind of change, for every group
 * path; a group with a pod below it (a pod's view is its live status) keeps the object answer.
 */

const QUERIES = ['', 'embed=group.groups&embed=group.apps&embed=group.pods', 'embed=group.pods,group.apps,group.groups'];

async function checkAll(t: Test, kit: GroupKit, after: string, paths: readonly string[], withText: readonly string[]): Promise<void> {
  for (const path of paths) {
    for (const qs of QUERIES) {
      const query: Record<string, string[]> = {};
      for (const [k, v] of new URLSearchParams(qs)) (query[k] ??= []).push(v);
      const reference = JSON.stringify(getGroups(kit.deps, path, query));
      const text = getGroupText(kit.deps, path, query);
      if (withText.includes(path)) t.equal(text, reference, `after ${after}: ${path || '/'}?${qs}: the kept text is the object's JSON`);
      else t.equal(text, undefined, `after ${after}: ${path || '/'}?${qs}: a pod below: the object answer`);
      const res = await kit.request('GET', `/v2/groups${path === '' ? '' : `/${path}`}${qs === '' ? '' : `?${qs}`}`);
      t.equal(res.statusCode, 200);
      t.equal(res.body, reference, `after ${after}: GET ${path || '/'}?${qs} answers it`);
      t.match(String(res.headers['content-type']), /^application\/json/);
    }
  }
}

t.test('the kept group texts are the object answers byte for byte through changes', async (t) => {
  const kit = groupKit(t);
  await checkAll(t, kit, 'nothing', [''], ['']);
  t.equal((await kit.request('POST', '/v2/groups', {
    id: '/prod', dependencies: ['/db'], apps: [appBody('web', { labels: { tier: 'web', q: '"\u2028' } })],
    groups: [{ id: 'api', apps: [appBody('v1'), appBody('v2', { instances: 0 })] }],
  })).statusCode, 201);
  t.equal((await kit.request('POST', '/v2/groups', { id: '/db', apps: [appBody('pg')] })).statusCode, 201);
  kit.settle();
  const paths = ['', 'prod', 'prod/api', 'db'];
  await checkAll(t, kit, 'two groups', paths, paths);
  await checkAll(t, kit, 'two groups (again, kept)', paths, paths);
  t.equal((await kit.request('PUT', '/v2/apps/prod/api/v1', appBody('v1', { id: '/prod/api/v1', cmd: 'sleep 7' }))).statusCode, 200);
  kit.settle();
  await checkAll(t, kit, 'an app changed', paths, paths);
  t.equal((await kit.request('PATCH', '/v2/groups/prod', { enforceRole: true })).statusCode, 200);
  await checkAll(t, kit, 'enforceRole', paths, paths);
  t.equal(kit.harness.put(makePod({ id: '/pg/p' })).ok, true);
  await checkAll(t, kit, 'a pod', [...paths, 'pg'], ['prod', 'prod/api', 'db']);
  t.equal((await kit.request('DELETE', '/v2/groups/prod/api')).statusCode, 200);
  kit.settle();
  await checkAll(t, kit, 'a group deleted', ['prod', 'db'], ['prod', 'db']);
});

t.test('what has no kept text: an unknown group, versions, other embeds', async (t) => {
  const kit = groupKit(t);
  t.equal(getGroupText(kit.deps, '', {}) !== undefined, true, 'an empty root has a text');
  t.equal(getGroupText(kit.deps, 'missing', {}), undefined, 'an unknown group: the object path (its 404)');
  t.equal((await kit.request('GET', '/v2/groups/missing')).statusCode, 404);
  t.equal(getGroupText(kit.deps, 'prod/versions', {}), undefined, 'versions: the object path');
  t.equal(getGroupText(kit.deps, '', { embed: ['group.apps'] }), undefined, 'other embeds: the object path');
  t.equal(getGroupText(kit.deps, '', { embed: ['group.groups', 'group.apps', 'group.pods', 'group.apps.counts'] }), undefined, 'per-app embeds: the object path');
});
