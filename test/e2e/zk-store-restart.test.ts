import { existsSync } from 'node:fs';
import t from 'tap';
import { ZkStore } from '../../src/store/zk/zk-store';
import { freshUrl, skip, ZK_OPTIONS, zooKeeperOf } from '../store/zk/zk-fixture';
import { tempDir, waitFor } from './e2e-kit';
import { e2eConfig, isAlive, startPacer, TaskProcesses, type JsonObject, type Pacer } from './pacer-kit';

/**
 * `--zk`: pacer on the local cluster with its state in a real ZooKeeper (started for this file;
 * skipped, saying so, without Debian's zookeeper package). The reply to a change comes only once
 * ZooKeeper holds it; a restart on the same ZooKeeper path recovers the app and re-adopts its task
 * (same task id, same process); no SQLite file is written.
 */
const zookeeper = zooKeeperOf(t);

interface AppView {
  readonly instances: number;
  readonly tasks: readonly { id: string; state: string }[];
  readonly deployments: readonly unknown[];
}

async function app(pacer: Pacer): Promise<AppView | undefined> {
  const { status, json } = await pacer.request('GET', '/v2/apps/zk/sleeper');
  return status === 200 ? (json.app as AppView) : undefined;
}

t.test('a pacer on --zk: durable replies, restart recovers and re-adopts', { skip }, async (t) => {
  const server = await zookeeper();
  const zk = freshUrl(server);
  const dir = tempDir(t);
  const config = e2eConfig(dir, { zk });
  const processes = new TaskProcesses(t);

  const first = await startPacer(t, config);
  const created = await first.request('POST', '/v2/apps', { id: '/zk/sleeper', cmd: 'sleep 600', cpus: 0.01, mem: 16, instances: 1 });
  t.equal(created.status, 201, 'POST /v2/apps → 201');
  const probe = await ZkStore.open(zk, ZK_OPTIONS);
  const inZk = probe.load();
  await probe.closeAsync();
  t.same(inZk.runSpecs.map((s) => s.id), ['/zk/sleeper'], 'ZooKeeper holds the app once the 201 is in (replies wait for it: test/runtime/durable-replies.test.ts)');
  t.ok(inZk.root !== undefined && inZk.deployments.length <= 1, 'and the root group with it');

  const running = await waitFor(async () => {
    const view = await app(first);
    return view !== undefined && view.tasks.length === 1 && view.tasks[0].state === 'TASK_RUNNING' && view.deployments.length === 0 && view;
  }, 'the task running, the deployment done');
  const pids = processes.record(first.running);
  await first.close();
  t.notOk(existsSync(config.storePath), 'no SQLite store was written');

  const second = await startPacer(t, config);
  const recovered = await app(second);
  t.equal(recovered?.instances, 1, 'the app is recovered from ZooKeeper');
  t.same(recovered?.tasks.map((x) => x.id), running.tasks.map((x) => x.id), 'the same task, not relaunched');
  t.same(new Map([...processes.record(second.running)]), pids, 'the same process, re-adopted');
  const deleted = await second.request('DELETE', '/v2/apps/zk/sleeper');
  t.equal(deleted.status, 200);
  await waitFor(() => [...pids.values()].every((pid) => !isAlive(pid)), 'the task process to exit');
  const { json } = await second.request('GET', '/v2/apps');
  t.same((json as JsonObject).apps, [], 'deleted');
  await second.close();
});
