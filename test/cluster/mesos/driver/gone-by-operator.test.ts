import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import type { RunningMesosPacer } from '../../../../src/runtime/start-mesos';
import { QUICK_TIMINGS, roomyAgent, startRealTimeMaster } from '../fake-master/real-time-master';
import { waitUntil } from '../fake-master/wait-until';
import { call, pacerAt, WAIT_MS } from './mesos-pacer-fixture';

/**
 * A task on an agent an operator marked gone while pacer was away: when pacer subscribes again it
 * reconciles the task with its agent, and a real master answers TASK_GONE_BY_OPERATOR
 * (REASON_RECONCILIATION; spec §7.2: task unknown, agent marked gone). That is terminal — the
 * condition Gone, as Marathon maps it — so pacer forgets the task and launches a replacement
 * instance on a live agent.
 */

function runningTasks(pacer: RunningMesosPacer): { taskId: string; agentId: string }[] {
  return pacer.scheduler.instances('/web').filter((i) => i.condition === 'Running')
    .flatMap((i) => i.tasks.map((task) => ({ taskId: task.taskId, agentId: i.agent?.agentId ?? '' })));
}

t.test('reconciled TASK_GONE_BY_OPERATOR after the agent was marked gone: the task is forgotten and its instance replaced', async (t) => {
  // Dead agents are marked unreachable after 200 ms and removed (the fake master: marked gone) at once.
  const rt = await startRealTimeMaster([roomyAgent('agent-1'), roomyAgent('agent-2')], { timings: { ...QUICK_TIMINGS, agentPingTimeoutMs: 200, agentRemovalMs: 0 } });
  t.teardown(() => rt.close());
  const dir = mkdtempSync(join(tmpdir(), 'pacer-gone-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));

  let pacer = await pacerAt(t, rt, dir);
  const firstStream = rt.master.fake.streamId;
  t.equal((await call(pacer, 'POST', '/v2/apps', { id: '/web', cmd: 'sleep 1000', cpus: 0.1, mem: 32, instances: 1 })).status, 201);
  const [before] = await waitUntil(() => (runningTasks(pacer).length === 1 ? runningTasks(pacer) : undefined), WAIT_MS, 'the instance to run');
  await pacer.close();

  // While pacer is away its agent dies and is marked gone: the update saying so reaches no scheduler.
  rt.master.cluster.killAgent(before.agentId);
  await waitUntil(() => rt.master.cluster.agentStatus(before.agentId)?.phase === 'removed', WAIT_MS, 'the agent to be marked gone');

  pacer = await pacerAt(t, rt, dir);
  const secondStream = rt.master.fake.streamId;
  // The first update about the task on pacer's new subscription is the answer to its reconciliation.
  // The marking's own update (REASON_AGENT_REMOVED_BY_OPERATOR) is written only if the first
  // pacer's stream is still open to the fake master (its close not processed yet, as a real master
  // still writes on a connection it has not seen close): the one way a CI run on 2026-11-30 could
  // record it after the count of sent updates this test then took (real-time-master.ts).
  const answer = await waitUntil(() => rt.master.statusesSent.find((s) => s.streamId === secondStream && s.status.taskId.value === before.taskId)?.status,
    WAIT_MS, 'the reconciliation answer');
  t.strictSame({ state: answer.state, reason: answer.reason, source: answer.source, agentId: answer.agentId?.value, uuid: answer.uuid },
    { state: 'TASK_GONE_BY_OPERATOR', reason: 'REASON_RECONCILIATION', source: 'SOURCE_MASTER', agentId: before.agentId, uuid: undefined },
    'explicit reconciliation of a task on an agent marked gone is answered TASK_GONE_BY_OPERATOR, as a real master does');
  const [after] = await waitUntil(() => {
    const tasks = runningTasks(pacer);
    return tasks.length === 1 && tasks[0].taskId !== before.taskId ? tasks : undefined;
  }, WAIT_MS, 'a replacement to run');
  t.not(after.agentId, before.agentId, 'the replacement runs on the live agent');
  t.notOk(pacer.scheduler.instances('/web').some((i) => i.tasks.some((task) => task.taskId === before.taskId)), 'the gone task is forgotten');
  t.same(rt.master.statusesSent.filter((s) => s.status.reason === 'REASON_AGENT_REMOVED_BY_OPERATOR' && s.streamId !== firstStream), [],
    'the marking\'s own update reached no later subscription (not queued for pacer\'s return: §1.8)');
  t.same(rt.master.problems, [], 'the fake master understood every call');
});
