import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { volumeDir } from '../../src/cluster/local/volume-dirs';
import { persistenceIdOf } from '../../src/scheduler/model/reservation';
import { tempDir, waitFor, within } from './e2e-kit';
import { nodeArgsFor } from '../harness/node-entry';
import { callPacer, killerOf, startPacerChild, type PacerChild } from './pacer-child';

/*
 * A resident app on the default (local) cluster keeps its dynamic reservation and persistent
 * volume across restarts of a real pacer process killed with SIGKILL (the outside trial's repro
 * of 2026-11-30): its task, killed after a restart, is relaunched on the same
 * reservation and finds its volume (the file it appends to has two lines); after another restart
 * deleting the app finishes its deployment and removes the volume's directory. Every wait is on a
 * condition with a bound; every process the test started is killed at the end, also on failure.
 */

const APP = '/res/db';

interface TaskView { readonly id: string; readonly state: string; readonly slaveId: string }

/** The app's one running task, once there is exactly one (and it is not `other`). */
async function runningTask(base: string, other?: string): Promise<TaskView | undefined> {
  const { status, json } = await callPacer(base, 'GET', `/v2/apps${APP}/tasks`);
  if (status !== 200) return undefined;
  const tasks = json.tasks as TaskView[];
  return tasks.length === 1 && tasks[0].state === 'TASK_RUNNING' && tasks[0].id !== other ? tasks[0] : undefined;
}

t.test('a resident app keeps its reservation and volume across SIGKILL restarts of pacer on the local cluster', async (t) => {
  const dir = tempDir(t, 'pacer-resident-');
  const sandboxRoot = join(dir, 'sandboxes');
  const started: ChildProcess[] = [];
  const killEverything = killerOf(started, sandboxRoot);
  t.teardown(killEverything);
  const entry = nodeArgsFor('src/main.ts');
  const restart = async (pacer: PacerChild): Promise<PacerChild> => {
    pacer.child.kill('SIGKILL');
    await within(pacer.exited, 'the killed pacer to exit', 30_000);
    return startPacerChild(entry, dir, started);
  };

  let pacer = await startPacerChild(entry, dir, started);
  const created = await callPacer(pacer.base, 'POST', '/v2/apps', {
    id: APP, cmd: 'echo hi >> data/x; sleep 600', cpus: 0.01, mem: 2, instances: 1, role: 'res',
    container: { type: 'MESOS', volumes: [{ containerPath: 'data', mode: 'RW', persistent: { size: 1 } }] },
    residency: { taskLostBehavior: 'WAIT_FOREVER' }, upgradeStrategy: { minimumHealthCapacity: 0, maximumOverCapacity: 0 },
  });
  t.equal(created.status, 201, 'created');
  const first = await waitFor(() => runningTask(pacer.base), 'the resident task to run', 60_000);
  const instanceId = first.id.replace(/\._app\.\d+$/, '');
  const volume = volumeDir(sandboxRoot, first.slaveId, persistenceIdOf(instanceId, 0));
  const lines = (): number => (existsSync(join(volume, 'x')) ? readFileSync(join(volume, 'x'), 'utf8').split('\n').filter((l) => l !== '').length : 0);
  await waitFor(() => lines() === 1, 'the first line in the volume', 30_000);

  pacer = await restart(pacer);
  const adopted = await waitFor(() => runningTask(pacer.base), 'the task to be running after the restart', 60_000);
  t.equal(adopted.id, first.id, 'the same task, adopted');

  const killed = await callPacer(pacer.base, 'DELETE', `/v2/apps${APP}/tasks/${encodeURIComponent(first.id)}`);
  t.equal(killed.status, 200, 'task kill accepted');
  const relaunched = await waitFor(() => runningTask(pacer.base, first.id), 'the task to be relaunched on its reservation', 60_000).catch((err: Error) => {
    throw new Error(`${err.message}; pacer's last log: ${pacer.stderr().slice(-2000)}`);
  });
  t.equal(relaunched.id.replace(/\._app\.\d+$/, ''), instanceId, 'the same instance: relaunched on its reservation');
  t.equal(relaunched.slaveId, first.slaveId, 'on the same agent');
  await waitFor(() => lines() === 2, 'the relaunch to append to the same volume (two lines)', 30_000);
  t.equal(lines(), 2, 'the file the task appends to has two lines');

  pacer = await restart(pacer);
  await waitFor(() => runningTask(pacer.base), 'the task to be running after the second restart', 60_000);
  const deleted = await callPacer(pacer.base, 'DELETE', `/v2/apps${APP}`);
  t.equal(deleted.status, 200, 'delete accepted');
  await waitFor(() => deploymentsDone(pacer.base), 'the stop deployment to finish', 60_000).catch(async (err: Error) => {
    const left = await fetch(`${pacer.base}/v2/deployments`).then((r) => r.text());
    throw new Error(`${err.message}: ${left}`);
  });
  t.equal((await callPacer(pacer.base, 'GET', `/v2/apps${APP}`)).status, 404, 'the app is gone');
  await waitFor(() => !existsSync(volume), 'the volume directory to be removed', 30_000);
  t.notOk(existsSync(volume), 'the volume directory is removed');
  pacer.child.kill('SIGTERM');
  await within(pacer.exited, 'pacer to stop', 30_000);
  await killEverything();
});

/** Whether pacer has no deployment left. */
async function deploymentsDone(base: string): Promise<boolean> {
  const res = await fetch(`${base}/v2/deployments`, { signal: AbortSignal.timeout(30_000) });
  return ((await res.json()) as unknown[]).length === 0;
}
