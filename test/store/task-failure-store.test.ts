import t from 'tap';
import type { Scheduler } from '../../src/scheduler/scheduler';
import type { TaskState } from '../../src/scheduler/model/task-state';
import { TASK_FAILURE_BOUNDS, type TaskFailure } from '../../src/scheduler/model/task-failure';
import type { Store } from '../../src/scheduler/ports/store';
import { makeOffer } from '../builders/cluster-builders';
import { makeApp } from '../builders/run-spec-builders';
import { START_MS } from '../harness/core-harness';
import { MemoryStore } from '../harness/memory-store';
import { launchedTasks, type RecordingDriver } from '../harness/recording-driver';
import { openStore, schedulerOnStore, tempStorePath, withRawDb } from './sqlite/store-fixture';

/**
 * A run spec's `lastTaskFailure` is stored (store format 7, Marathon's TaskFailureRepository): it
 * survives a restart, goes with its app, is written once per run spec per input, is bounded, and a
 * damaged or oversized stored one is set aside without stopping the start.
 */

function coreOn(store: Store): { scheduler: Scheduler; driver: RecordingDriver } {
  return schedulerOnStore(store, 'task-failure', () => START_MS);
}

/** `/web` with `instances` tasks launched and running; their task ids. */
function running(core: { scheduler: Scheduler; driver: RecordingDriver }, instances = 2): string[] {
  core.scheduler.handle({ type: 'putRunSpec', spec: makeApp({ id: '/web', instances }) });
  core.scheduler.handle({ type: 'offers', offers: [makeOffer({ cpus: 16, mem: 16_384 })] });
  const tasks = launchedTasks(core.driver.calls);
  for (const task of tasks) status(core.scheduler, task.taskId, 'TASK_RUNNING', task.agentId);
  return tasks.map((task) => task.taskId);
}

function status(scheduler: Scheduler, taskId: string, state: TaskState, agentId = 'agent-1', message?: string): void {
  scheduler.handle({ type: 'status', status: { taskId, state, agentId, ...(message === undefined ? {} : { message }) } });
}

t.test('the last task failure survives a restart (SQLite), as /v2/apps renders it', async (t) => {
  const path = tempStorePath(t);
  const firstStore = openStore(t, path);
  const first = coreOn(firstStore);
  const [task] = running(first);
  status(first.scheduler, task, 'TASK_FAILED', undefined, 'Command exited with status 1');
  const failure = first.scheduler.lastTaskFailure('/web');
  t.match(failure, { appId: '/web', taskId: task, state: 'TASK_FAILED', message: 'Command exited with status 1' });
  firstStore.close(); // the process stops

  const second = coreOn(openStore(t, path));
  t.same(second.scheduler.lastTaskFailure('/web'), failure, 'the same failure after the restart');
  t.same(second.scheduler.setAsideRecords(), []);
});

t.test('one store write per failing status update, none for others; the newest failure wins', async (t) => {
  const store = new MemoryStore();
  const core = coreOn(store);
  const tasks = running(core, 3);
  const failureWrites = (): TaskFailure[] => store.writes.flatMap((w) => (w.type === 'saveTaskFailure' ? [w.failure] : []));
  t.same(failureWrites(), [], 'no failure, no write');
  status(core.scheduler, tasks[0], 'TASK_FAILED');
  status(core.scheduler, tasks[1], 'TASK_LOST');
  status(core.scheduler, tasks[2], 'TASK_FINISHED');
  t.same(failureWrites().map((f) => [f.taskId, f.state]), [[tasks[0], 'TASK_FAILED'], [tasks[1], 'TASK_LOST']], 'one write per failure');
  t.same(store.taskFailures.get('/web'), core.scheduler.lastTaskFailure('/web'), 'the store holds the newest');
  status(core.scheduler, tasks[1], 'TASK_LOST');
  t.equal(failureWrites().length, 2, 'a repeated update of the same state is no new failure, no write');
});

t.test('deleting an app deletes its stored failure; a restart shows none', async (t) => {
  const path = tempStorePath(t);
  const firstStore = openStore(t, path);
  const first = coreOn(firstStore);
  const tasks = running(first);
  status(first.scheduler, tasks[0], 'TASK_FAILED');
  t.equal(firstStore.load().taskFailures?.length, 1, 'stored');
  first.scheduler.handle({ type: 'deleteRunSpec', runSpecId: '/web' });
  for (const task of launchedTasks(first.driver.calls)) status(first.scheduler, task.taskId, 'TASK_KILLED');
  t.equal(first.scheduler.runSpec('/web'), undefined, 'the delete finished');
  t.equal(firstStore.load().taskFailures, undefined, 'its failure is deleted with it');
  firstStore.close();

  const second = coreOn(openStore(t, path));
  second.scheduler.handle({ type: 'putRunSpec', spec: makeApp({ id: '/web', instances: 0 }) });
  t.equal(second.scheduler.lastTaskFailure('/web'), undefined, 'an app made again under the same id starts without one');
});

t.test('a message is cut to its bound before it is stored; the API shows what a restart loads', async (t) => {
  const path = tempStorePath(t);
  const firstStore = openStore(t, path);
  const first = coreOn(firstStore);
  const [task] = running(first);
  status(first.scheduler, task, 'TASK_FAILED', undefined, 'x'.repeat(100_000));
  t.equal(first.scheduler.lastTaskFailure('/web')?.message.length, TASK_FAILURE_BOUNDS.message);
  firstStore.close();
  const second = coreOn(openStore(t, path));
  t.same(second.scheduler.lastTaskFailure('/web'), first.scheduler.lastTaskFailure('/web'));
  t.same(second.scheduler.setAsideRecords(), []);
});

t.test('a damaged or oversized stored failure is set aside with its reason, an orphan one deleted, and pacer starts', async (t) => {
  const path = tempStorePath(t);
  const firstStore = openStore(t, path);
  running(coreOn(firstStore));
  firstStore.close();
  const good: TaskFailure = { appId: '/web', taskId: 't', state: 'TASK_FAILED', message: '', host: 'h', version: 'v', timestamp: 'ts' };
  withRawDb(path, (db) => {
    const put = db.prepare('INSERT INTO task_failures (id, body) VALUES (?, ?)');
    put.run('/web', JSON.stringify({ ...good, message: 'm'.repeat(TASK_FAILURE_BOUNDS.message + 1) }));
    put.run('/damaged', '{"appId":"/damaged"');
    put.run('/wrong', JSON.stringify({ ...good, appId: '/wrong', state: 'TASK_EXPLODED' }));
    put.run('/gone', JSON.stringify({ ...good, appId: '/gone' }));
  });
  const store = openStore(t, path);
  const core = coreOn(store);
  t.match(core.scheduler.setAsideRecords(), [
    { kind: 'taskFailure', key: '/damaged', reason: /does not decode/ },
    { kind: 'taskFailure', key: '/web', reason: 'does not match StoredTaskFailureV1: /message must NOT have more than 4096 characters' },
    { kind: 'taskFailure', key: '/wrong', reason: /\/state must be equal to one of the allowed values/ },
  ]);
  t.equal(core.scheduler.runSpec('/web')?.id, '/web', 'the app runs');
  t.equal(core.scheduler.lastTaskFailure('/web'), undefined);
  t.same(store.setAsideRows().map((r) => r.key), ['/damaged', '/web', '/wrong'], 'kept in set_aside');
  t.equal(store.load().taskFailures, undefined, "the orphan (its app is not stored) is deleted, as Marathon deletes a terminated app's failure");
});
