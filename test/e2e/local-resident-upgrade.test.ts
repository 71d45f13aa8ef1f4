import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { volumeDir } from '../../src/cluster/local/volume-dirs';
import { persistenceIdOf } from '../../src/scheduler/model/reservation';
import { tempDir, waitFor, within } from './e2e-kit';
import { nodeArgsFor } from '../harness/node-entry';
import { repoPath } from '../harness/repo-path';
import { writeDumpToSqlite, type StoreDump } from '../store/store-dump';
import { callPacer, killerOf, startPacerChild } from './pacer-child';

/*
 * An upgrade over a local cluster whose state file was written by a pacer that did not record
 * dynamic reservations in it (before 2026-11-30): the resident instance's reservation and volume
 * are restored from the store, so its task, which ended while no pacer ran, is relaunched on that
 * reservation with the volume's data (an operator's upgrade trial of 2026-11-30 found it waiting
 * for that reservation for ever). The fixtures are what pacer f2753f6 wrote for one resident app
 * (`/res/db`, role `res`, a 1 MiB volume at `data`) running one task, then stopped with SIGTERM:
 * its store (test/fixtures/local-cluster/legacy-resident.store.json, dumped record by record)
 * and its local-cluster.json (the sandbox root written as `@SANDBOX_ROOT@`, the task's
 * environment cut to five variables); the task's recorded process is not running here.
 */

const APP = '/res/db';
const fixture = (name: string): string => readFileSync(repoPath('test/fixtures/local-cluster', name), 'utf8');

interface TaskView { readonly id: string; readonly state: string; readonly slaveId: string }

t.test('a resident instance relaunches on its reservation after an upgrade from a state file without reservations', async (t) => {
  const dir = tempDir(t, 'pacer-resident-upgrade-');
  const sandboxRoot = join(dir, 'sandboxes');
  mkdirSync(sandboxRoot, { recursive: true });
  const store = JSON.parse(fixture('legacy-resident.store.json')) as StoreDump;
  writeDumpToSqlite(store, join(dir, 'pacer.db'));
  writeFileSync(join(sandboxRoot, 'local-cluster.json'), fixture('legacy-resident.local-cluster.json').replaceAll('@SANDBOX_ROOT@', sandboxRoot));
  const oldTask = 'res_db.instance-57599dd3-cf95-4e54-b8e2-27c03acf191b._app.1';
  const instanceId = oldTask.replace(/\._app\.\d+$/, '');
  const volume = volumeDir(sandboxRoot, 'local-agent-1', persistenceIdOf(instanceId, 0));
  mkdirSync(volume, { recursive: true });
  writeFileSync(join(volume, 'x'), 'hi\n');
  const lines = (): number => readFileSync(join(volume, 'x'), 'utf8').split('\n').filter((l) => l !== '').length;

  const started: ChildProcess[] = [];
  const killEverything = killerOf(started, sandboxRoot);
  t.teardown(killEverything);
  const pacer = await startPacerChild(nodeArgsFor('src/main.ts'), dir, started);
  const relaunched = await waitFor(async () => {
    const { status, json } = await callPacer(pacer.base, 'GET', `/v2/apps${APP}/tasks`);
    const tasks = status === 200 ? json.tasks as TaskView[] : [];
    return tasks.length === 1 && tasks[0].state === 'TASK_RUNNING' && tasks[0].id !== oldTask ? tasks[0] : undefined;
  }, 'the resident task to be relaunched on its reservation', 60_000).catch((err: Error) => {
    throw new Error(`${err.message}; pacer's last log: ${pacer.stderr().slice(-2000)}`);
  });
  t.equal(relaunched.id.replace(/\._app\.\d+$/, ''), instanceId, 'the same instance: relaunched on its reservation');
  t.equal(relaunched.slaveId, 'local-agent-1', 'on the same agent');
  await waitFor(() => lines() === 2, 'the relaunch to append to the same volume (two lines)', 30_000);
  t.equal(lines(), 2, 'the file the task appends to has two lines');
  t.match(pacer.stderr(), /written before reservations were recorded; restoring the 1 reservation/, 'the restore is logged');
  const state = JSON.parse(readFileSync(join(sandboxRoot, 'local-cluster.json'), 'utf8')) as { reservations?: { reservationId: string }[] };
  t.same(state.reservations?.map((r) => r.reservationId), [instanceId], 'and recorded in the state file from now on');

  const deleted = await callPacer(pacer.base, 'DELETE', `/v2/apps${APP}`);
  t.equal(deleted.status, 200, 'delete accepted');
  await waitFor(() => !existsSync(volume), 'the delete to destroy the volume', 30_000);
  pacer.child.kill('SIGTERM');
  await within(pacer.exited, 'pacer to stop', 30_000);
  await killEverything();
});
