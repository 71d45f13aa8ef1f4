import t from 'tap';
import { Instance, type InstanceFields, type Task } from '../../../../src/scheduler/model/instance';
import { appTaskId } from '../../../../src/scheduler/kernel/ids';
import { AssertionError } from '../../../../src/scheduler/kernel/assert';
import type { OfferedPool } from '../../../../src/scheduler/model/offer';

/**
 * The Instance class (model/instance.ts): an app's launched Task is made on its first read from
 * the facts `launchApp` kept, and is then the one Task every read and write sees; its JSON is the
 * plain record with its tasks.
 */

const RESOURCES = { cpusMilli: 100, memMilli: 32_000, diskMilli: 0, gpus: 0 };
const T0 = 1_767_225_600_000;

function scheduled(o: Partial<InstanceFields> = {}): Instance {
  return Instance.from({
    instanceId: 'web.instance-1', runSpecId: '/web', kind: 'app', runSpecVersion: 'v1', configVersion: 'v1', incarnation: 0,
    goal: 'Running', condition: 'Scheduled', conditionSinceMs: T0, role: '*', tasks: [], ...o,
  });
}

/** Launches `inst` as its next incarnation at `atMs`, as the tracker's place() does: the condition's time first. */
function launch(inst: Instance, hostPorts: readonly number[], atMs: number): void {
  inst.incarnation++;
  inst.condition = 'Provisioned';
  inst.conditionSinceMs = atMs;
  inst.launchApp(hostPorts, RESOURCES);
}

const madeCases: { name: string; hostPorts: readonly number[]; launches: number }[] = [
  { name: 'first launch, no ports', hostPorts: [], launches: 1 },
  { name: 'first launch, two host ports', hostPorts: [31_000, 31_005], launches: 1 },
  { name: 'third launch (relaunched twice)', hostPorts: [31_002], launches: 3 },
];

t.test('an app task is made on its first read, from the launch\'s facts', async (t) => {
  for (const c of madeCases) {
    const inst = scheduled();
    for (let i = 1; i <= c.launches; i++) launch(inst, c.hostPorts, T0 + i);
    const [task, ...rest] = inst.tasks;
    t.equal(rest.length, 0, `${c.name}: one task`);
    t.strictSame(task, {
      taskId: appTaskId(inst.instanceId, c.launches), containerName: undefined, state: undefined, condition: 'Provisioned',
      hostPorts: c.hostPorts, resources: RESOURCES, healthy: undefined, launchedAtMs: T0 + c.launches, startedAtMs: undefined,
      lastStatusMs: undefined, message: undefined, ipAddresses: undefined,
    }, `${c.name}: the Task a placement made before`);
    t.equal(inst.tasks[0], task, `${c.name}: every later read returns the same Task`);
  }
});

t.test('a write through the task stays: later reads see the same object', async (t) => {
  const inst = scheduled();
  launch(inst, [], T0);
  const task: Task = inst.tasks[0];
  task.state = 'TASK_RUNNING';
  task.condition = 'Running';
  t.equal(inst.tasks[0].state, 'TASK_RUNNING');
  t.equal(inst.tasks[0].condition, 'Running');
});

t.test('a relaunch makes a new task with the new incarnation\'s id; the old one is not reused', async (t) => {
  const inst = scheduled();
  launch(inst, [31_000], T0);
  const first = inst.tasks[0];
  inst.tasks = [];
  t.strictSame(inst.tasks, [], 'the placement cleared: no tasks');
  launch(inst, [31_001], T0 + 5);
  const second = inst.tasks[0];
  t.not(second, first);
  t.equal(second.taskId, `${inst.instanceId}._app.2`);
  t.strictSame(second.hostPorts, [31_001]);
  t.equal(second.launchedAtMs, T0 + 5);
});

t.test('tasks set directly (a pod\'s, or recovered) are returned as set', async (t) => {
  const tasks: Task[] = [{ taskId: 'p.instance-1.a', containerName: 'a', condition: 'Provisioned', hostPorts: [], resources: RESOURCES, launchedAtMs: T0 }];
  const recovered = scheduled({ kind: 'pod', tasks });
  t.equal(recovered.tasks, tasks, 'from the fields');
  const inst = scheduled({ kind: 'pod' });
  inst.tasks = tasks;
  t.equal(inst.tasks, tasks, 'through the setter');
});

t.test('its JSON is the plain record with its tasks; its own properties hold no launch facts', async (t) => {
  const inst = scheduled();
  launch(inst, [31_000], T0);
  const json = JSON.parse(JSON.stringify(inst)) as Record<string, unknown>;
  t.match(json, { instanceId: inst.instanceId, incarnation: 1, tasks: [{ taskId: `${inst.instanceId}._app.1`, hostPorts: [31_000] }] });
  t.notOk(Object.keys(inst).includes('tasks'), 'tasks is a getter on the prototype, not an own property');
  t.strictSame(Object.keys(inst).filter((k) => !(k in json) && (inst as unknown as Record<string, unknown>)[k] !== undefined), [],
    'every own property with a value is in the JSON');
  const copy = { ...inst, tasks: inst.tasks };
  t.equal(copy.tasks[0], inst.tasks[0], 'a copy names tasks');
});

t.test('the fields a placement touches come first in the layout, those it does not last', async (t) => {
  // V8 lays an object's fields out in the order they are added, which Object.keys gives (the
  // private fields — the rare ones' record, the shared target and the launch facts — sit between
  // goal and instanceId). The order keeps what a placement reads and writes in the instance's
  // first cache lines (model/instance.ts); a field added or moved belongs in the right part.
  t.strictSame(Object.keys(scheduled()), ['incarnation', 'agent', 'condition', 'conditionSinceMs', 'goal', 'instanceId', 'startedAtMs']);
});

t.test('the eight fields most instances never set live in a record made at the first write of one', async (t) => {
  type Rare = 'reservation' | 'killReason' | 'allocation' | 'healthy' | 'ready' | 'proven' | 'unreachableSinceMs' | 'killRequestedAtMs';
  const pool = { role: '*', resources: RESOURCES } as unknown as OfferedPool;
  const cases: readonly [Rare, unknown][] = [
    ['reservation', { agentId: 'agent-1', role: 'db', volumes: [] }], ['killReason', 'scale-down'], ['allocation', [pool]], ['healthy', false], ['ready', true],
    ['proven', true], ['unreachableSinceMs', T0 + 7], ['killRequestedAtMs', T0 + 9],
  ];
  for (const [field, value] of cases) {
    const inst = scheduled();
    const fields = inst as unknown as Record<Rare, unknown>;
    t.equal(fields[field], undefined, `${field}: undefined at first`);
    fields[field] = value;
    t.equal(fields[field], value, `${field}: written and read back`);
    for (const [other] of cases) if (other !== field) t.equal(fields[other], undefined, `${field}: ${other} still undefined`);
    t.same((JSON.parse(JSON.stringify(inst)) as Record<string, unknown>)[field], value, `${field}: in the JSON`);
    t.equal((Instance.from(inst.toJSON()) as unknown as Record<Rare, unknown>)[field], value, `${field}: through the plain record`);
    fields[field] = undefined;
    t.equal(fields[field], undefined, `${field}: cleared`);
  }
  const fromRecord = Instance.from({ ...scheduled().toJSON(), healthy: true, killReason: 'user' });
  t.equal(fromRecord.healthy, true, 'a record with rare fields gives them');
  t.equal(fromRecord.killReason, 'user');
  t.equal(fromRecord.ready, undefined);
});

t.test('an instance with neither tasks nor a launched app task is a bug: reading its tasks asserts', async (t) => {
  // Only reachable by handing the constructor no tasks, which its type forbids.
  const broken = Instance.from({ ...scheduled().toJSON(), tasks: undefined as unknown as Task[] });
  t.throws(() => broken.tasks, AssertionError);
});

t.test('peekTasks and the JSON read an app task without making the instance keep it; once made, they give the kept one', async (t) => {
  const inst = scheduled();
  launch(inst, [31_000], T0);
  const peeked = inst.peekTasks();
  t.strictSame(peeked, inst.toJSON().tasks, 'the JSON\'s tasks are what peekTasks gives');
  t.not(inst.peekTasks()[0], peeked[0], 'not kept: each peek makes its own');
  t.strictSame(inst.peekTasks(), peeked, 'but equal');
  const kept = inst.tasks;
  t.strictSame(kept, peeked, 'the task kept is the task peeked');
  t.equal(inst.peekTasks(), kept, 'once made, peekTasks gives the kept list');
  t.equal(inst.toJSON().tasks, kept, 'and so does the JSON');
});

t.test('the task\'s launch time is the condition\'s time at the launch: keepTasks makes it before that time changes', async (t) => {
  const kept = scheduled();
  launch(kept, [], T0);
  kept.keepTasks();
  kept.condition = 'Running';
  kept.conditionSinceMs = T0 + 9_000;
  t.equal(kept.tasks[0].launchedAtMs, T0, 'made before the change: the launch time');
  kept.keepTasks();
  t.equal(kept.tasks[0], kept.tasks[0], 'keepTasks on a task made already changes nothing');
  t.equal(kept.tasks[0].launchedAtMs, T0);
  const late = scheduled();
  launch(late, [], T0);
  late.conditionSinceMs = T0 + 9_000;
  t.equal(late.tasks[0].launchedAtMs, T0 + 9_000, 'made after the time changed without keepTasks: why the tracker calls it first');
});
