import t from 'tap';
import type { Scheduler } from '../../../src/scheduler/scheduler';
import type { SqliteStore } from '../../../src/store/sqlite/sqlite-store';
import { makeOffer } from '../../builders/cluster-builders';
import { makeApp, makePod, versionAt } from '../../builders/run-spec-builders';
import { START_MS } from '../../harness/core-harness';
import { launchedTasks, type RecordingDriver } from '../../harness/recording-driver';
import { exactDiff, openStore, tempStorePath, schedulerOnStore } from './store-fixture';

/** A real core whose Store port is the SQLite store (no MemoryStore in between). */
function coreOn(store: SqliteStore): { scheduler: Scheduler; driver: RecordingDriver } {
  return schedulerOnStore(store, 'restart', () => START_MS);
}

function runAll(scheduler: Scheduler, driver: RecordingDriver, from: number): void {
  for (const task of launchedTasks(driver.calls.slice(from))) {
    for (const state of ['TASK_STAGING', 'TASK_STARTING', 'TASK_RUNNING'] as const) {
      scheduler.handle({ type: 'status', status: { taskId: task.taskId, state, agentId: task.agentId } });
    }
  }
}

t.test('a core restarted on the same file resumes with the run specs, root, instances and deployments it had', async (t) => {
  const path = tempStorePath(t);
  const firstStore = openStore(t, path);
  const first = coreOn(firstStore);
  first.scheduler.handle({ type: 'putRunSpec', spec: makeApp({ id: '/prod/web', instances: 3 }) });
  first.scheduler.handle({ type: 'putRunSpec', spec: makePod({ id: '/prod/db', version: versionAt(1) }) });
  first.scheduler.handle({ type: 'offers', offers: [makeOffer()] });
  runAll(first.scheduler, first.driver, 0);
  first.scheduler.handle({ type: 'putRunSpec', spec: makeApp({ id: '/batch/big', cpus: 100, version: versionAt(2) }) });
  firstStore.close(); // the process stops

  const second = coreOn(openStore(t, path));
  const ids = ['/batch/big', '/prod/db', '/prod/web'];
  t.same(second.scheduler.runSpecs().map((s) => s.id).sort(), ids);
  t.equal(exactDiff(second.scheduler.root(), first.scheduler.root()), undefined, 'the root group, Maps in order');
  for (const id of ids) {
    t.equal(exactDiff(second.scheduler.runSpec(id), first.scheduler.runSpec(id)), undefined, `run spec ${id}`);
    t.same(second.scheduler.versions(id), first.scheduler.versions(id), `versions of ${id}`);
    const placed = (s: Scheduler) => s.instances(id).filter((i) => i.condition !== 'Scheduled').map((i) => [i.instanceId, i.condition]).sort();
    t.same(placed(second.scheduler), placed(first.scheduler), `placed instances of ${id}`);
  }
  t.ok(first.scheduler.instances('/prod/web').every((i) => i.condition === 'Running'), 'the web instances were running');
  t.same(
    second.scheduler.deployments().map((d) => d.deployment.plan.id),
    first.scheduler.deployments().map((d) => d.deployment.plan.id),
    'the running deployment resumes',
  );
  t.equal(second.scheduler.deployments().length, 1);
});
