import { readFileSync } from 'node:fs';
import t from 'tap';
import { SqliteStore } from '../../../src/store/sqlite/sqlite-store';
import { repoPath } from '../../harness/repo-path';
import { startSseServer } from '../events/sse-server-fixture';
import { type StoreDump, writeDumpToSqlite } from '../../store/store-dump';
import { tempStorePath } from '../../store/sqlite/store-fixture';

// A stored last task failure (store format 7, test/fixtures/store/format-7.json: one of /prod/web)
// is what /v2/apps shows after a start on that store, as Marathon reads its TaskFailureRepository.
t.test('after a start on a store holding a task failure, /v2/apps embeds it as lastTaskFailure', async (t) => {
  const dump = JSON.parse(readFileSync(repoPath('test/fixtures/store/format-7.json'), 'utf8')) as StoreDump;
  const stored = dump.records.find((r) => r.kind === 'taskFailure');
  const path = tempStorePath(t);
  writeDumpToSqlite(dump, path);
  const store = SqliteStore.open(path);
  const loaded = store.load();
  store.close();
  const server = await startSseServer({ stored: loaded });
  t.teardown(() => server.app.close());
  for (const query of ['/v2/apps?embed=apps.lastTaskFailure', '/v2/apps?embed=apps.failures', '/v2/apps/prod/web']) {
    const res = await fetch(`${server.baseUrl}${query}`, { headers: { Accept: 'application/json' }, signal: AbortSignal.timeout(30_000) });
    t.equal(res.status, 200, query);
    const body = await res.json() as { apps?: { id: string; lastTaskFailure?: unknown }[]; app?: { lastTaskFailure?: unknown } };
    const web = body.app ?? body.apps?.find((a) => a.id === '/prod/web');
    t.same(web?.lastTaskFailure, stored?.record, `${query}: the stored failure`);
    if (body.apps !== undefined) t.ok(body.apps.filter((a) => a.id !== '/prod/web').every((a) => a.lastTaskFailure === undefined), 'no other app has one');
  }
});
