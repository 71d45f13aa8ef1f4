import { readFileSync } from 'node:fs';
import t, { type Test } from 'tap';
import { SqliteStore } from '../../../src/store/sqlite/sqlite-store';
import { makeOffer } from '../../builders/cluster-builders';
import { repoPath } from '../../harness/repo-path';
import { startSseServer, type SseServer } from '../events/sse-server-fixture';
import type { StoreDump } from '../../store/store-dump';
import { writeDumpToSqlite } from '../../store/store-dump';
import { tempStorePath } from '../../store/sqlite/store-fixture';

// Pod task ids carry the incarnation from the first launch (`<instance>.<container>.1`, as
// Marathon's core/task/Task.scala makes them); pacer before that wrote `<instance>.<container>`.
// test/fixtures/store/format-3.json was written by such a pacer: its /prod/db pod instances hold
// tasks `<instance>.db` and `<instance>.sidecar`. After an upgrade those tasks must still be
// recognised everywhere a task id arrives or is shown.

const INST = 'prod_db.instance-c5fea1d0-5a7e-4968-89d1-0f77e1fe702a';
const OTHER = 'prod_db.instance-f1cefba7-aa36-495a-989d-af970cefafd1';
const AGENT = 'agent-host-2';

async function upgraded(t: Test): Promise<SseServer> {
  const dump = JSON.parse(readFileSync(repoPath('test/fixtures/store/format-3.json'), 'utf8')) as StoreDump;
  const path = tempStorePath(t);
  writeDumpToSqlite(dump, path);
  const store = SqliteStore.open(path);
  const stored = store.load();
  store.close();
  const server = await startSseServer({ stored });
  t.teardown(() => server.app.close());
  return server;
}

async function get(t: Test, server: SseServer, path: string): Promise<any> { // eslint-disable-line @typescript-eslint/no-explicit-any -- bodies inspected field by field
  const res = await fetch(`${server.baseUrl}${path}`, { headers: { Accept: 'application/json' }, signal: AbortSignal.timeout(30_000) });
  t.equal(res.status, 200, `GET ${path}`);
  return res.json();
}

t.test('stored pod task ids without the incarnation are shown as they were stored', async (t) => {
  const server = await upgraded(t);
  const status = await get(t, server, '/v2/pods/prod/db::status');
  const inst = (status.instances as { id: string; containers: { containerId: string }[] }[]).find((i) => i.id === INST);
  t.same(inst?.containers.map((c) => c.containerId).sort(), [`${INST}.db`, `${INST}.sidecar`], 'GET ::status containerId');
});

t.test('a status update of a stored id reaches its instance; the relaunch gets incarnation 2 ids', async (t) => {
  const server = await upgraded(t);
  const h = server.harness;
  h.status(`${INST}.db`, 'TASK_FAILED', { agentId: AGENT });
  t.notOk(h.calls('kill').some((k) => k.taskId === `${INST}.db`), 'not killed as an unknown task');
  t.ok(h.calls('kill').some((k) => k.taskId === `${INST}.sidecar`), 'the other container of the failed instance is killed by its stored id');
  h.status(`${INST}.sidecar`, 'TASK_KILLED', { agentId: AGENT });
  h.advance(60_000); // past the pod's launch backoff
  const launched = h.offer(makeOffer({ cpus: 8, mem: 8192 }));
  t.same(launched.map((l) => l.taskId).sort(), [`${INST}.db.2`, `${INST}.sidecar.2`], 'relaunched as incarnation 2');
});

t.test('a pod instance kill reaches the stored ids; their TASK_KILLED relaunches the instance', async (t) => {
  const server = await upgraded(t);
  const h = server.harness;
  const res = await fetch(`${server.baseUrl}/v2/pods/prod/db::instances/${OTHER}`, { method: 'DELETE', signal: AbortSignal.timeout(30_000) });
  t.equal(res.status, 200);
  t.same(h.calls('kill').map((k) => k.taskId).filter((id) => id.startsWith('prod_db.')).sort(), [`${OTHER}.db`, `${OTHER}.sidecar`]);
  h.status(`${OTHER}.db`, 'TASK_KILLED', { agentId: AGENT });
  h.status(`${OTHER}.sidecar`, 'TASK_KILLED', { agentId: AGENT });
  const launched = h.offer(makeOffer({ cpus: 8, mem: 8192 }));
  t.same(launched.map((l) => l.taskId).sort(), [`${OTHER}.db.2`, `${OTHER}.sidecar.2`]);
  const status = await get(t, server, '/v2/pods/prod/db::status');
  const containers = (status.instances as { containers: { containerId: string }[] }[]).flatMap((i) => i.containers.map((c) => c.containerId)).sort();
  t.same(containers, [`${INST}.db`, `${INST}.sidecar`, `${OTHER}.db.2`, `${OTHER}.sidecar.2`], 'the untouched instance keeps its stored ids');
});
