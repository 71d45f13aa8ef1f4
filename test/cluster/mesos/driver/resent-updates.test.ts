import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import type { RunningMesosPacer } from '../../../../src/runtime/start-mesos';
import { QUICK_TIMINGS, roomyAgent, startRealTimeMaster } from '../fake-master/real-time-master';
import { waitUntil } from '../fake-master/wait-until';
import { call, pacerAt, WAIT_MS } from './mesos-pacer-fixture';

/**
 * A task that fails while pacer is away: a real master drops the agent's update (its framework is
 * disconnected), the agent keeps it unacknowledged and resends it, with its uuid, when pacer
 * subscribes again (slave.cpp `updateFramework` → `resume()`; the fake master does the same since
 * it disconnects a framework whose connection closed). pacer takes the failure, acknowledges the
 * resent update (or the agent would resend it for ever), forgets the task and runs a replacement.
 * The failure is made only once the fake master has seen pacer's connection close: no race.
 */

function tasksOf(pacer: RunningMesosPacer): { taskId: string; condition: string }[] {
  return pacer.scheduler.instances('/web').flatMap((i) => i.tasks.map((task) => ({ taskId: task.taskId, condition: i.condition })));
}

t.test('a task that fails while pacer is away: the resent TASK_FAILED is acknowledged, the task forgotten and replaced', async (t) => {
  const rt = await startRealTimeMaster([roomyAgent('agent-1')], { timings: QUICK_TIMINGS });
  t.teardown(() => rt.close());
  const dir = mkdtempSync(join(tmpdir(), 'pacer-resent-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));

  let pacer = await pacerAt(t, rt, dir);
  t.equal((await call(pacer, 'POST', '/v2/apps', { id: '/web', cmd: 'sleep 1000', cpus: 0.1, mem: 32, instances: 1 })).status, 201);
  const first = await waitUntil(() => {
    const running = tasksOf(pacer).find((k) => k.condition === 'Running');
    return running !== undefined && !rt.master.cluster.unacknowledged().some((u) => u.taskId === running.taskId) ? running.taskId : undefined;
  }, WAIT_MS, 'the task to run, its updates acknowledged');
  await pacer.close();
  await waitUntil(() => (rt.master.fake.subscribed ? undefined : true), WAIT_MS, 'the fake master to see pacer\'s connection close');

  // While pacer is away the task fails; later tasks of /web run for ever again.
  rt.master.cluster.setTaskModel('/web', { kind: 'exitAfter', afterMs: [10, 10], state: 'TASK_FAILED' });
  await waitUntil(() => (rt.master.cluster.unacknowledged().some((u) => u.taskId === first && u.state === 'TASK_FAILED') ? true : undefined), WAIT_MS, 'the task to fail');
  rt.master.cluster.setTaskModel('/web', { kind: 'runForever' });
  t.same(rt.master.cluster.liveTasks(), [], 'nothing runs');

  pacer = await pacerAt(t, rt, dir);
  const stream = rt.master.fake.streamId;
  const replacement = await waitUntil(() => tasksOf(pacer).find((k) => k.condition === 'Running' && k.taskId !== first)?.taskId, WAIT_MS, 'a replacement to run');
  await waitUntil(() => (rt.master.cluster.unacknowledged().some((u) => u.taskId === first) ? undefined : true), WAIT_MS, 'the resent update to be acknowledged');
  t.ok(rt.master.statusesSent.some((s) => s.streamId === stream && s.status.taskId.value === first && s.status.state === 'TASK_FAILED' && (s.status.uuid?.byteLength ?? 0) > 0),
    'the agent resent its TASK_FAILED, with its uuid, on the new subscription');
  t.same(tasksOf(pacer), [{ taskId: replacement, condition: 'Running' }], 'the failed task is forgotten; its replacement runs');
  t.same(rt.master.problems, [], 'the fake master understood every call');
});
