import t from 'tap';
import type { Call, Event, TaskInfo } from '../../../../src/cluster/mesos/codec/mesos-model';
import { agentSpec, groupOf, masterScalars, masterTask } from '../../../builders/master-builders';
import { MasterHarness } from '../../../unit/master/master-harness';
import { FakeExecutors } from './fake-executors';

/*
 * The wire fake's agents answer a LAUNCH_GROUP whose executor id is taken with the master model's
 * rule (src/master/executor-book.ts), so the fake, the simulator and the local cluster cannot
 * disagree: the same history of one executor, played on the fake and on the model, gets the same
 * answer (state and reason) for a second group naming that executor.
 */

type History = 'never launched' | 'its tasks run' | 'its tasks ended, shutting down' | 'gone';

const cases: { history: History; want: [string, string] | undefined }[] = [
  { history: 'never launched', want: undefined },
  { history: 'its tasks run', want: ['TASK_ERROR', 'REASON_TASK_GROUP_INVALID'] },
  { history: 'its tasks ended, shutting down', want: ['TASK_DROPPED', 'REASON_EXECUTOR_TERMINATED'] },
  { history: 'gone', want: undefined },
];

function mesosGroup(executorId: string, taskId: string): Call {
  const info: TaskInfo = { name: taskId, taskId: { value: taskId }, agentId: { value: 'a' } };
  return {
    type: 'ACCEPT',
    accept: { offerIds: [{ value: 'O' }], operations: [{ type: 'LAUNCH_GROUP', launchGroup: { executor: { executorId: { value: executorId } }, taskGroup: { tasks: [info] } } }] },
  };
}

function terminal(taskId: string): Event {
  return { type: 'UPDATE', update: { status: { taskId: { value: taskId }, state: 'TASK_FAILED' } } };
}

/** The fake's answer to the second group after `history` (a shutdown that never ends unless `gone`). */
async function onFake(history: History): Promise<[string, string] | undefined> {
  const failures: Event[] = [];
  const fake = new FakeExecutors((e) => failures.push(e));
  fake.shutdownMs = history === 'gone' ? 0 : 3_600_000;
  if (history !== 'never launched') fake.onCall(mesosGroup('e1', 'p1'));
  if (history === 'its tasks ended, shutting down' || history === 'gone') fake.observe(terminal('p1'));
  if (history === 'gone') while (failures.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
  const answer = fake.onCall(mesosGroup('e1', 'p2'))[0]?.update?.status;
  fake.clear();
  return answer === undefined ? undefined : [answer.state, answer.reason ?? ''];
}

/** The master model's answer to the second group after `history`. */
function onModel(history: History): [string, string] | undefined {
  const h = new MasterHarness();
  h.master.addAgent(agentSpec('a'));
  h.master.start();
  h.runUntil(0);
  if (history !== 'never launched') {
    h.master.accept('O1', [groupOf('e1', [masterTask('p1', 'a', masterScalars(0.5, 10))])], 0);
    h.runUntil(1000);
  }
  if (history === 'its tasks ended, shutting down' || history === 'gone') h.report('p1', 'TASK_FAILED');
  if (history === 'gone') h.master.executorEnded(h.launched[0].executor);
  h.runUntil(2000);
  h.master.accept(h.lastOffer('a').offerId, [groupOf('e1', [masterTask('p2', 'a', masterScalars(0.5, 10))])], 0);
  const answer = h.statuses('p2')[0];
  return answer === undefined ? undefined : [answer.state, answer.reason ?? ''];
}

t.test('a task group naming a taken executor id: the fake agent answers as the master model', async (t) => {
  for (const c of cases) {
    const model = onModel(c.history);
    t.same(model, c.want, `model, ${c.history}`);
    t.same(await onFake(c.history), model, `fake = model, ${c.history}`);
  }
});
