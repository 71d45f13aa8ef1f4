import t from 'tap';
import { makeOffer } from '../../../builders/cluster-builders';
import { makeApp, versionAt } from '../../../builders/run-spec-builders';
import { Harness } from '../../../harness/core-harness';

/**
 * `Scheduler.instancesToken`: a new object after every input that created, removed or changed one
 * of a run spec's instances (condition, goal, health), the same object otherwise — what the API's
 * lists keep their per-app renderings against (src/api/v2/tasks/list-tasks.ts).
 */
t.test('instancesToken: new after each change of the run spec\'s instances, the same without one', async (t) => {
  const h = new Harness();
  t.equal(h.scheduler.instancesToken('/app'), undefined, 'unknown run spec: none');
  h.put(makeApp({ id: '/other', instances: 0 }));
  t.equal(h.scheduler.instancesToken('/other'), undefined, 'no instance ever: none');

  const steps: { readonly name: string; readonly run: () => void; readonly changes: boolean }[] = [
    { name: 'instances created', run: () => void h.put(makeApp({ instances: 2 })), changes: true },
    { name: 'an offer places them', run: () => void h.offer(makeOffer()), changes: true },
    { name: 'TASK_STAGING', run: () => h.status(h.instances('/app')[0].tasks[0].taskId, 'TASK_STAGING'), changes: true },
    { name: 'the same status again', run: () => h.status(h.instances('/app')[0].tasks[0].taskId, 'TASK_STAGING'), changes: false },
    { name: 'TASK_RUNNING', run: () => h.status(h.instances('/app')[0].tasks[0].taskId, 'TASK_RUNNING'), changes: true },
    { name: 'another run spec changes', run: () => void h.put(makeApp({ id: '/other', instances: 1, version: versionAt(1) })), changes: false },
    { name: 'scaled down (a kill)', run: () => void h.scale('/app', 1, { force: true }), changes: true },
  ];
  let before = h.scheduler.instancesToken('/app');
  for (const step of steps) {
    step.run();
    const after = h.scheduler.instancesToken('/app');
    t.not(after, undefined, `${step.name}: a token`);
    if (step.changes) t.not(after, before, `${step.name}: a new token`);
    else t.equal(after, before, `${step.name}: the same token`);
    before = after;
  }
  h.delete('/app', { force: true });
  for (const inst of h.instances('/app')) for (const task of inst.tasks) h.status(task.taskId, 'TASK_KILLED');
  t.equal(h.scheduler.runSpec('/app'), undefined, 'the app is gone');
  t.equal(h.scheduler.instancesToken('/app'), undefined, 'its token went with it');
});
