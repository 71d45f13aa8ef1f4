import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { isGroupAlive, isProcessAlive } from '../../../src/cluster/local/process-identity';
import { sandboxOf } from '../../../src/cluster/local/sandbox-of';
import { StateFile, type LocalClusterState } from '../../../src/cluster/local/state-file';
import { makeApp, makePod } from '../../builders/run-spec-builders';
import { nodeArgsFor } from '../../harness/node-entry';
import { REPO_ROOT } from '../../harness/repo-path';
import { PATIENCE_MS } from '../../harness/wait';
import { appLaunch, makeFixture, podLaunch, waitFor, type LocalFixture } from './local-fixture';

/** Launch `cmd` on the current driver and wait for its `ready` file; returns the task id and pid. */
async function launchReady(f: LocalFixture, cmd: string): Promise<{ taskId: string; pid: number }> {
  const offer = await f.startAndOffer();
  const { op, task } = appLaunch(offer, makeApp({ cmd, cpus: 1, hostPorts: [0] }));
  f.cluster.accept(offer.offerId, [op], 0);
  await f.waitStatus(task.taskId, 'TASK_RUNNING');
  await f.sandboxFile(task.taskId, 'ready');
  return { taskId: task.taskId, pid: f.cluster.tasks()[0].pid as number };
}

/** Stop the driver and start a new one on the same state file, as a pacer restart does. */
function restart(f: LocalFixture): void {
  f.cluster.stop();
  f.cluster = f.newCluster();
  f.cluster.start();
}

/** The recorded state as the next start reads it (snapshot plus journal). */
function stateOf(f: LocalFixture): LocalClusterState {
  return new StateFile(`${f.options.sandboxRoot}/local-cluster.json`).load() as LocalClusterState;
}

t.test('a task survives a restart: re-adopted, reconciled as running, and killable', async (t) => {
  const f = makeFixture(t);
  const { taskId, pid } = await launchReady(f, 'echo > ready; sleep 30');
  const frameworkId = f.cluster.frameworkId;
  const recorded = stateOf(f).executors[0].tasks[0];
  t.match(recorded, { taskId, pid, state: 'TASK_RUNNING', startTime: /^\d+$/ }, 'the state file records the process');
  const seen = f.inputs.length;
  const seenOffers = f.offers().length;
  restart(f);
  t.ok(isProcessAlive(pid, recorded.startTime), 'stop() left the process running');
  t.equal(f.cluster.frameworkId, frameworkId, 'the framework id is stable');
  const offer = await f.nextOffer(seenOffers);
  t.equal(offer.pools[0].cpusMilli, 3000, 'the adopted task\'s resources stay used');
  t.match(f.inputs[seen], { type: 'subscribed', frameworkId });
  f.cluster.reconcile([{ taskId, agentId: 'agent-1' }]);
  const answer = await waitFor(() => f.statuses(taskId).slice(2).find((s) => s.reason === 'REASON_RECONCILIATION'));
  t.match(answer, { state: 'TASK_RUNNING', agentId: 'agent-1' });
  f.cluster.kill(taskId, 'agent-1', 3000);
  await f.waitStatus(taskId, 'TASK_KILLED');
  t.notOk(isProcessAlive(pid, recorded.startTime), 'the process is gone');
  t.same(stateOf(f).executors, [], 'and forgotten');
});

t.test('a task that died while pacer was away is reported TASK_GONE once', async (t) => {
  const f = makeFixture(t);
  const { taskId, pid } = await launchReady(f, 'echo > ready; sleep 30');
  f.cluster.stop();
  process.kill(-pid, 'SIGKILL');
  await waitFor(() => !isProcessAlive(pid, undefined), PATIENCE_MS, 'the process to die');
  f.cluster = f.newCluster();
  let seenOffers = f.offers().length;
  f.cluster.start();
  const gone = await f.waitStatus(taskId, 'TASK_GONE');
  t.match(gone, { reason: 'REASON_EXECUTOR_REREGISTRATION_TIMEOUT', agentId: 'agent-1', message: /gone/ });
  const offer = await f.nextOffer(seenOffers);
  t.equal(offer.pools[0].cpusMilli, 4000, 'its resources are free');
  seenOffers = f.offers().length;
  restart(f);
  await f.nextOffer(seenOffers);
  t.equal(f.states(taskId).filter((s) => s === 'TASK_GONE').length, 1, 'reported once');
});

t.test('an adopted task that exits is noticed by polling', async (t) => {
  const f = makeFixture(t);
  // It exits when told (a `go` file), after the restart: a fixed `sleep 0.5` ended before the new
  // driver adopted it on a loaded machine (then TASK_GONE, and this test waited 60 s for TASK_FAILED).
  const { taskId } = await launchReady(f, 'echo > ready; while [ ! -e go ]; do sleep 0.05; done');
  restart(f);
  writeFileSync(join(sandboxOf(f.options.sandboxRoot, taskId), 'go'), '1');
  const failed = await f.waitStatus(taskId, 'TASK_FAILED');
  t.match(failed.message, /exit status is unknown/);
});

t.test('a kill under way at the restart resumes with its deadline', async (t) => {
  const f = makeFixture(t);
  const { taskId, pid } = await launchReady(f, 'trap "" TERM; echo > ready; while true; do sleep 0.05; done');
  f.cluster.kill(taskId, 'agent-1', 500);
  restart(f);
  await f.waitStatus(taskId, 'TASK_KILLED');
  t.notOk(isProcessAlive(pid, undefined), 'SIGKILL came from the new driver');
});

t.test('shutdown() kills every task and leaves no process behind', async (t) => {
  const f = makeFixture(t);
  const offer = await f.startAndOffer();
  const app = appLaunch(offer, makeApp({ cmd: 'trap "" TERM; sleep 30', cpus: 1 }));
  const pod = podLaunch(offer, makePod({ containers: [{ name: 'a', command: 'sleep 30' }, { name: 'b', command: 'sleep 30 & sleep 30' }] }));
  f.cluster.accept(offer.offerId, [app.op, pod.op], 0);
  for (const task of [app.task, ...pod.tasks]) await f.waitStatus(task.taskId, 'TASK_RUNNING');
  const pids = f.cluster.tasks().map((x) => x.pid as number);
  t.equal(pids.length, 3);
  await f.cluster.shutdown();
  for (const pid of pids) {
    t.notOk(isProcessAlive(pid, undefined), `process ${pid} is gone`);
    t.notOk(isGroupAlive(pid), 'and so is its process group');
  }
  t.same(stateOf(f).executors, [], 'the state file is empty');
});

t.test('the same driver may stop and start again: its tasks are adopted, their resources counted once', async (t) => {
  const f = makeFixture(t);
  const { taskId } = await launchReady(f, 'echo > ready; sleep 30');
  f.cluster.stop();
  const seenOffers = f.offers().length;
  f.cluster.start();
  const offer = await f.nextOffer(seenOffers);
  t.equal(offer.pools[0].cpusMilli, 3000);
  t.same(f.cluster.tasks().map((x) => [x.taskId, x.state]), [[taskId, 'TASK_RUNNING']]);
});

t.test('tasks outlive the pacer process that launched them', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'pacer-local-'));
  const out = execFileSync(process.execPath, [...nodeArgsFor('test/cluster/local/launch-then-exit.ts'), dir], { cwd: REPO_ROOT, timeout: PATIENCE_MS, encoding: 'utf8' });
  const { taskId, pid } = JSON.parse(out.trim().split('\n').pop() as string) as { taskId: string; pid: number };
  t.ok(isProcessAlive(pid, undefined), 'the task still runs after its pacer exited');
  const f = makeFixture(t, {}, dir);
  f.cluster.start();
  f.cluster.reconcile([{ taskId, agentId: 'agent-1' }]);
  const answer = await f.waitStatus(taskId, 'TASK_RUNNING');
  t.equal(answer.reason, 'REASON_RECONCILIATION');
  f.cluster.kill(taskId, 'agent-1', 3000);
  await f.waitStatus(taskId, 'TASK_KILLED');
  await waitFor(() => !isGroupAlive(pid), PATIENCE_MS, 'the process group to end');
});
