import t from 'tap';
import { emptyRoot, EMPTY_ROOT_VERSION } from '../../../../src/scheduler/groups/group-tree';
import { appTaskId, podTaskId } from '../../../../src/scheduler/kernel/ids';
import { Instance, type Task } from '../../../../src/scheduler/model/instance';
import { newRunSpecState } from '../../../../src/scheduler/state/new-run-spec-state';
import type { RunSpecState } from '../../../../src/scheduler/state/run-spec-state';
import { SchedulerState } from '../../../../src/scheduler/state/scheduler-state';
import { SWEEP_MIN_ENTRIES, TaskOwners } from '../../../../src/scheduler/state/task-owners';
import { makeApp, makePod } from '../../../builders/run-spec-builders';

/*
 * `SchedulerState.taskOwner` answers every status update: the instance whose current incarnation
 * owns a task id. It remembers its answers by task id (state/task-owners.ts); these check that a
 * remembered answer is never a wrong one — whatever happened to the instance since, whether the
 * task id is the same string object as the one asked before or a copy (an update parsed from the
 * wire) — and that what it remembers stays bounded.
 */

function task(taskId: string): Task {
  return { taskId, condition: 'Running', hostPorts: [], resources: { cpusMilli: 100, memMilli: 32_000, diskMilli: 0, gpus: 0 }, launchedAtMs: 0 };
}

function instanceOf(runSpecId: string, instanceId: string, kind: 'app' | 'pod', taskIds: string[]): Instance {
  return Instance.from({
    instanceId, runSpecId, kind, runSpecVersion: 'v', configVersion: 'v', goal: 'Running', condition: 'Running', conditionSinceMs: 0,
    role: '*', incarnation: 1, tasks: taskIds.map(task),
  });
}

/** A copy of `s` that is a different string object (as a task id parsed from an update is). */
function copyOf(s: string): string {
  return s.split('').join('');
}

interface World {
  state: SchedulerState;
  web: RunSpecState;
  db: RunSpecState;
  app: Instance;
  other: Instance;
  pod: Instance;
}

function world(): World {
  const state = new SchedulerState(emptyRoot(EMPTY_ROOT_VERSION), '*');
  const web = newRunSpecState(makeApp({ id: '/prod/web' }), 10);
  const db = newRunSpecState(makePod({ id: '/prod/db' }), 10);
  state.addRunSpec(web);
  state.addRunSpec(db);
  const appId = 'prod_web.instance-00000000-0000-4000-8000-000000000001';
  const otherId = 'prod_web.instance-00000000-0000-4000-8000-000000000002';
  const podId = 'prod_db.instance-00000000-0000-4000-8000-000000000003';
  const app = instanceOf('/prod/web', appId, 'app', [appTaskId(appId, 1)]);
  const other = instanceOf('/prod/web', otherId, 'app', [appTaskId(otherId, 1)]);
  const pod = instanceOf('/prod/db', podId, 'pod', [podTaskId(podId, 'main', 1), podTaskId(podId, 'sidecar', 1)]);
  web.instances.set(app.instanceId, app);
  web.instances.set(other.instanceId, other);
  db.instances.set(pod.instanceId, pod);
  return { state, web, db, app, other, pod };
}

/** Gives an instance its next incarnation's tasks (as a relaunch does: same instance id, new task ids). */
function relaunch(inst: Instance): void {
  inst.incarnation++;
  inst.tasks = inst.kind === 'app'
    ? [task(appTaskId(inst.instanceId, inst.incarnation))]
    : inst.tasks.map((t) => task(podTaskId(inst.instanceId, t.taskId.slice(inst.instanceId.length + 1).split('.')[0] ?? '', inst.incarnation)));
}

interface Case {
  name: string;
  /** What happens to the world between the first look-up of each task id and the second. */
  between: (w: World) => void;
  /** The task id to look up, and its expected owner (undefined: none). */
  asks: (w: World) => { taskId: string; owner: Instance | undefined }[];
}

const cases: Case[] = [
  {
    name: 'found: an app task and both tasks of a pod',
    between: () => undefined,
    asks: (w) => [
      { taskId: appTaskId(w.app.instanceId, 1), owner: w.app },
      { taskId: appTaskId(w.other.instanceId, 1), owner: w.other },
      { taskId: podTaskId(w.pod.instanceId, 'main', 1), owner: w.pod },
      { taskId: podTaskId(w.pod.instanceId, 'sidecar', 1), owner: w.pod },
    ],
  },
  {
    name: 'not found: unknown run spec, unknown instance, unknown incarnation, unknown container, not a task id',
    between: () => undefined,
    asks: (w) => [
      { taskId: appTaskId('prod_api.instance-00000000-0000-4000-8000-000000000001', 1), owner: undefined },
      { taskId: appTaskId('prod_web.instance-00000000-0000-4000-8000-00000000dead', 1), owner: undefined },
      { taskId: appTaskId(w.app.instanceId, 2), owner: undefined },
      { taskId: podTaskId(w.pod.instanceId, 'nope', 1), owner: undefined },
      { taskId: 'stray-task', owner: undefined },
      { taskId: '', owner: undefined },
    ],
  },
  {
    name: 'relaunched: the old incarnation\'s task ids are no longer owned, the new ones are',
    between: (w) => {
      relaunch(w.app);
      relaunch(w.pod);
    },
    asks: (w) => [
      { taskId: appTaskId(w.app.instanceId, 1), owner: undefined },
      { taskId: appTaskId(w.app.instanceId, 2), owner: w.app },
      { taskId: podTaskId(w.pod.instanceId, 'main', 1), owner: undefined },
      { taskId: podTaskId(w.pod.instanceId, 'main', 2), owner: w.pod },
      { taskId: podTaskId(w.pod.instanceId, 'sidecar', 2), owner: w.pod },
      { taskId: appTaskId(w.other.instanceId, 1), owner: w.other },
    ],
  },
  {
    name: 'relaunch pending: tasks taken away (Scheduled again), none owned',
    between: (w) => {
      w.app.tasks = [];
    },
    asks: (w) => [{ taskId: appTaskId(w.app.instanceId, 1), owner: undefined }],
  },
  {
    name: 'expunged instances: their tasks are owned by none, the others still are',
    between: (w) => {
      w.state.removeInstance(w.web, w.app);
      w.state.removeInstance(w.db, w.pod);
    },
    asks: (w) => [
      { taskId: appTaskId(w.app.instanceId, 1), owner: undefined },
      { taskId: podTaskId(w.pod.instanceId, 'main', 1), owner: undefined },
      { taskId: appTaskId(w.other.instanceId, 1), owner: w.other },
    ],
  },
  {
    name: 'relaunched, then expunged: the old incarnation\'s task is owned by none',
    between: (w) => {
      relaunch(w.app);
      w.state.removeInstance(w.web, w.app);
    },
    asks: (w) => [
      { taskId: appTaskId(w.app.instanceId, 1), owner: undefined },
      { taskId: appTaskId(w.app.instanceId, 2), owner: undefined },
    ],
  },
  {
    name: 'the run spec forgotten and re-created with an instance of the same id: the new object owns the task',
    between: (w) => {
      w.state.forgetRunSpec(w.web);
      const again = newRunSpecState(makeApp({ id: '/prod/web' }), 10);
      w.state.addRunSpec(again);
      const app2 = instanceOf('/prod/web', w.app.instanceId, 'app', [appTaskId(w.app.instanceId, 1)]);
      again.instances.set(app2.instanceId, app2);
      w.app = app2;
    },
    asks: (w) => [
      { taskId: appTaskId(w.app.instanceId, 1), owner: w.app },
      { taskId: appTaskId(w.other.instanceId, 1), owner: undefined },
    ],
  },
];

for (const c of cases) {
  t.test(c.name, async (t) => {
    const w = world();
    // Every task id of the world is looked up once before the change (so its answer is remembered).
    const before = [w.app, w.other, w.pod].flatMap((inst) => inst.tasks.map((task) => task.taskId));
    for (const taskId of before) t.ok(w.state.taskOwner(taskId) !== undefined, `${taskId} owned before`);
    c.between(w);
    for (const { taskId, owner } of c.asks(w)) {
      const expected = owner?.instanceId ?? 'none';
      // Asked three times each: first answer, remembered answer, and by a copy of the string.
      for (const [how, id] of [['first', taskId], ['again', taskId], ['a copy', copyOf(taskId)]] as const) {
        const got = w.state.taskOwner(id);
        t.equal(got, owner, `${taskId} (${how}): ${got?.instanceId ?? 'none'}, expected ${expected}`);
      }
    }
  });
}

t.test('the remembered task ids stay bounded: old incarnations are swept', async (t) => {
  const state = new SchedulerState(emptyRoot(EMPTY_ROOT_VERSION), '*');
  const web = newRunSpecState(makeApp({ id: '/web' }), 10);
  state.addRunSpec(web);
  const instances: Instance[] = [];
  for (let n = 0; n < 100; n++) {
    const id = `web.instance-${String(n).padStart(8, '0')}`;
    const inst = instanceOf('/web', id, 'app', [appTaskId(id, 1)]);
    web.instances.set(id, inst);
    instances.push(inst);
  }
  // 100 instances relaunched 200 times each, every task reporting once per incarnation: 20,000 task ids.
  let max = 0;
  for (let round = 0; round < 200; round++) {
    for (const inst of instances) {
      const taskId = (inst.tasks[0] as Task).taskId;
      if (state.taskOwner(taskId) !== inst) t.fail(`${taskId} not owned by its instance`);
      relaunch(inst);
    }
    max = Math.max(max, state.rememberedTaskOwners);
  }
  t.ok(max <= Math.max(SWEEP_MIN_ENTRIES, 2 * instances.length) + 1, `at most ${max} task ids remembered for 100 live tasks after 20,000 reported`);
  for (const inst of instances) t.equal(state.taskOwner((inst.tasks[0] as Task).taskId), inst, `${inst.instanceId}'s current task is owned`);
});

t.test('an expunged instance is let go at once (its entries dropped, not kept until a sweep)', async (t) => {
  const state = new SchedulerState(emptyRoot(EMPTY_ROOT_VERSION), '*');
  const web = newRunSpecState(makeApp({ id: '/web' }), 10);
  state.addRunSpec(web);
  const inst = instanceOf('/web', 'web.instance-1', 'app', [appTaskId('web.instance-1', 1)]);
  web.instances.set(inst.instanceId, inst);
  t.equal(state.taskOwner(appTaskId('web.instance-1', 1)), inst);
  t.equal(state.rememberedTaskOwners, 1, 'one task id remembered');
  state.removeInstance(web, inst);
  t.equal(state.rememberedTaskOwners, 0, 'none after the expunge');
  const pod = instanceOf('/web', 'web.instance-2', 'pod', [podTaskId('web.instance-2', 'a', 1), podTaskId('web.instance-2', 'b', 1)]);
  web.instances.set(pod.instanceId, pod);
  for (const task of pod.tasks) t.equal(state.taskOwner(task.taskId), pod);
  t.equal(state.rememberedTaskOwners, 2, 'both of a pod\'s tasks remembered');
  state.forgetRunSpec(web);
  t.equal(state.rememberedTaskOwners, 0, 'none after its run spec is forgotten');
});

t.test('TaskOwners answers only what its check allows', async (t) => {
  let current = true;
  const owners = new TaskOwners(() => current);
  const inst = instanceOf('/web', 'web.instance-1', 'app', [appTaskId('web.instance-1', 1)]);
  const taskId = appTaskId('web.instance-1', 1);
  t.equal(owners.get(taskId), undefined, 'nothing before it is remembered');
  owners.remember(taskId, inst);
  t.equal(owners.get(taskId), inst, 'remembered');
  t.equal(owners.get(copyOf(taskId)), inst, 'by a copy of the string too');
  current = false;
  t.equal(owners.get(taskId), undefined, 'not once the instance is no longer current');
  t.equal(owners.size, 0, 'and the stale entry is dropped');
});
