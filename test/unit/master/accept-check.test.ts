import t from 'tap';
import { AcceptCheck } from '../../../src/master/accept-check';
import type { ExecutorVerdict } from '../../../src/master/executor-book';
import type { MasterOperation } from '../../../src/master/master-types';
import type { OfferedPool } from '../../../src/scheduler/model/offer';
import { groupOf, launchOf, masterScalars, masterTask } from '../../builders/master-builders';

const offered: OfferedPool[] = [
  { cpusMilli: 2000, memMilli: 1_000_000, diskMilli: 100_000, gpus: 0, ports: [[5000, 5009]] },
  { reservedFor: 'web', cpusMilli: 1000, memMilli: 500_000, diskMilli: 0, gpus: 0, ports: [] },
];

function check(verdicts: Record<string, ExecutorVerdict> = {}): AcceptCheck {
  return new AcceptCheck(offered, 'a1', (id) => id === 'taken', (executorId) => verdicts[executorId] ?? 'new');
}

t.test('operations consume the offer in order; a refused one consumes nothing', async (t) => {
  const c = check();
  t.equal(c.take(launchOf(masterTask('t1', 'a1', masterScalars(1.5, 100), [5000]))), undefined, 'fits');
  t.match(c.take(launchOf(masterTask('t2', 'a1', masterScalars(1, 100)))), { state: 'TASK_ERROR', reason: 'REASON_TASK_INVALID', message: /cpusMilli 1000 exceeds the 500 left in pool \*/ });
  t.match(c.take(launchOf(masterTask('t3', 'a1', masterScalars(0.1, 10), [5000]))), { message: /ports \[\[5000,5000\]\] not offered in pool \*/ }, 'a port cannot be taken twice');
  t.equal(c.take(launchOf(masterTask('t4', 'a1', masterScalars(0.5, 10), [5001]))), undefined, 'the refused ones took nothing');
  t.match(c.take(launchOf(masterTask('t5', 'a1', masterScalars(0.1, 10)))), { message: /cpusMilli 100 exceeds the 0 left/ }, 'the unreserved pool is used up');
  t.equal(c.take(launchOf(masterTask('t6', 'a1', masterScalars(0.5, 10), [], 'web'), 'web')), undefined, 'the reserved pool is separate');
  t.match(c.take(launchOf(masterTask('t1', 'a1', masterScalars(0, 1), [], 'web'), 'web')), { message: /duplicate task id t1/ }, 'a task id of this ACCEPT');
});

t.test('what makes an operation invalid (TASK_ERROR with the reason)', async (t) => {
  const t1 = masterTask('t1', 'a1', masterScalars(0.2, 10), [5001]);
  const cases: { name: string; op: MasterOperation; want: RegExp; reason?: string; state?: string }[] = [
    { name: 'a task id in use on the cluster', op: launchOf(masterTask('taken', 'a1', masterScalars(0.1, 1))), want: /duplicate task id taken/ },
    { name: 'a task that uses no resources', op: launchOf(masterTask('x', 'a1', masterScalars(0, 0))), want: /task x uses no resources/ },
    { name: 'a task of a group that uses no resources', op: groupOf('e1', [t1, masterTask('y', 'a1', masterScalars(0, 0))]), want: /task y uses no resources/, reason: 'REASON_TASK_GROUP_INVALID' },
    { name: 'another agent', op: launchOf(masterTask('x', 'a2', masterScalars(0.1, 1))), want: /targets agent a2, offer is on a1/ },
    { name: 'no tasks', op: { kind: 'launchGroup', executorId: 'e', executorResources: groupOf('e', []).executorResources, tasks: [], allocation: [] }, want: /launch without tasks/, reason: 'REASON_TASK_GROUP_INVALID' },
    { name: 'less than the tasks need', op: { ...launchOf(t1), allocation: [{ ...launchOf(t1).allocation[0], cpusMilli: 100 }] }, want: /allocation has cpusMilli 100, the tasks need 200/ },
    { name: 'a negative amount', op: { ...launchOf(t1), allocation: [{ ...launchOf(t1).allocation[0], memMilli: -1 }] }, want: /negative memMilli/ },
    { name: 'a pool not offered', op: launchOf(masterTask('x', 'a1', masterScalars(0.1, 1), [], 'ops'), 'ops'), want: /pool role:ops, which was not offered/ },
    { name: 'reserved resources for another role', op: launchOf(masterTask('x', 'a1', masterScalars(0.1, 1)), 'web'), want: /reserved for web for a task of another role/ },
    { name: 'a host port outside the allocation', op: { ...launchOf(t1), allocation: [{ ...launchOf(t1).allocation[0], ports: [] }] }, want: /host port 5001 of t1 is not in the allocation/ },
    { name: 'a group without its executor resources', op: { ...groupOf('e1', [t1]), allocation: [{ ...t1.resources, ports: [[5001, 5001]] }] }, want: /the tasks need 300/, reason: 'REASON_TASK_GROUP_INVALID' },
    { name: 'an executor below Mesos\'s minimum cpus', op: { ...groupOf('e1', [t1]), executorResources: { ...groupOf('e1', [t1]).executorResources, cpusMilli: 9 } }, want: /executor e1 has cpusMilli 9, less than the minimum 10/, reason: 'REASON_TASK_GROUP_INVALID' },
    { name: 'an executor below Mesos\'s minimum mem', op: { ...groupOf('e1', [t1]), executorResources: { ...masterScalars(0.1, 31.999), diskMilli: 1 } }, want: /executor e1 has memMilli 31999, less than the minimum 32000/, reason: 'REASON_TASK_GROUP_INVALID' },
    { name: 'an executor without disk', op: { ...groupOf('e1', [t1]), executorResources: masterScalars(0.1, 32) }, want: /executor e1 has no disk/, reason: 'REASON_TASK_GROUP_INVALID' },
    { name: 'a running executor', op: groupOf('running', [t1]), want: /executor running already runs on the agent/, reason: 'REASON_TASK_GROUP_INVALID' },
    { name: 'an executor shutting down', op: groupOf('dying', [t1]), want: /Master wants to launch executor, but one already exists/, reason: 'REASON_EXECUTOR_TERMINATED', state: 'TASK_DROPPED' },
  ];
  for (const c of cases) {
    const refusal = check({ running: 'joins', dying: 'terminating' }).take(c.op);
    t.match(refusal, { state: c.state ?? 'TASK_ERROR', reason: c.reason ?? 'REASON_TASK_INVALID', message: c.want }, c.name);
  }
});
