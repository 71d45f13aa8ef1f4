import t from 'tap';
import { makeOffer } from '../../builders/cluster-builders';
import { containerBody, createPod, list, podApi, podBody, send, T0, type J } from './pod-api-builders';
import { lastKnownState } from '../../../src/api/render/termination-history-json';

// Marathon's rule (AppInfoBaseData.podStatus, 1.11): `terminationHistory` holds the pod's last task
// failure while one of its instances still holds the failed task — here, while the other
// container of the instance is killed after it — and is empty once the instance is relaunched.

const TWO = podBody({ containers: [containerBody({ name: 'web' }), containerBody({ name: 'side' })] });
/** Launched, no status update yet (the builders' `launch` runs the tasks at once). */
const placed = (api: ReturnType<typeof podApi>) => api.harness.offer(makeOffer());
const history = async (api: ReturnType<typeof podApi>): Promise<J[]> => list((await send(api.app, 'GET', '/v2/pods/p::status')).json.terminationHistory);

t.test('a failed container is the history while its instance kills the other; the relaunch empties it', async (t) => {
  const api = podApi(t);
  await createPod(api, TWO);
  const tasks = placed(api);
  t.equal(tasks.length, 2);
  const [web, side] = [tasks.find((x) => x.taskId.includes('.web.'))!, tasks.find((x) => x.taskId.includes('.side.'))!];
  t.strictSame(await history(api), [], 'nothing failed yet');
  api.harness.advance(1000);
  api.harness.status(web.taskId, 'TASK_RUNNING');
  api.harness.status(side.taskId, 'TASK_RUNNING');
  api.harness.advance(4000);
  api.harness.status(web.taskId, 'TASK_FAILED', { message: 'exit 3' });
  t.ok(api.harness.calls('kill').some((k) => k.taskId === side.taskId), 'the other container is killed');
  t.strictSame(await history(api), [{
    instanceID: web.instanceId,
    startedAt: '2026-01-01T00:00:01.000Z',
    terminatedAt: '2026-01-01T00:00:05.000Z',
    message: 'exit 3',
    containers: [{ containerId: web.taskId, lastKnownState: 'TaskFailed' }],
  }]);
  api.harness.status(side.taskId, 'TASK_KILLED');
  t.strictSame(await history(api), [], 'the instance no longer holds the failed task');
});

t.test('a task that never ran: startedAt is its launch time (Marathon falls back to stagedAt)', async (t) => {
  const api = podApi(t);
  await createPod(api, TWO);
  const tasks = placed(api);
  api.harness.advance(2000);
  api.harness.status(tasks[0]!.taskId, 'TASK_ERROR', { message: 'bad image' });
  const [entry] = await history(api);
  t.equal(entry?.startedAt, T0);
  t.strictSame(entry?.containers, [{ containerId: tasks[0]!.taskId, lastKnownState: 'TaskError' }]);
});

const STATES: readonly [Parameters<typeof lastKnownState>[0], string][] = [
  ['TASK_FAILED', 'TaskFailed'], ['TASK_KILLED', 'TaskKilled'], ['TASK_LOST', 'TaskLost'], ['TASK_ERROR', 'TaskError'],
  ['TASK_DROPPED', 'TaskError'], ['TASK_GONE', 'TaskError'], ['TASK_GONE_BY_OPERATOR', 'TaskError'], ['TASK_UNKNOWN', 'TaskError'],
];
for (const [state, name] of STATES) {
  t.test(`lastKnownState of ${state} is Marathon's ${name}`, async (t) => {
    t.equal(lastKnownState(state), name);
  });
}
