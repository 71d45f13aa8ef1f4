import t from 'tap';
import { isProcessAlive } from '../../../src/cluster/local/process-identity';
import { makeApp } from '../../builders/run-spec-builders';
import { PATIENCE_MS } from '../../harness/wait';
import { appLaunch, makeFixture, waitFor, type LocalFixture } from './local-fixture';

/** Launch `cmd` and wait until it wrote its `ready` file (so its traps are set). */
async function launchReady(f: LocalFixture, cmd: string): Promise<string> {
  const offer = await f.startAndOffer();
  const { op, task } = appLaunch(offer, makeApp({ cmd: `${cmd}` }));
  f.cluster.accept(offer.offerId, [op], 0);
  await f.waitStatus(task.taskId, 'TASK_RUNNING');
  await f.sandboxFile(task.taskId, 'ready');
  return task.taskId;
}

const TRAPS_TERM = 'trap "" TERM; echo > ready; while true; do sleep 0.05; done';

t.test('a process that ignores SIGTERM gets SIGKILL after the grace period', async (t) => {
  const f = makeFixture(t);
  const taskId = await launchReady(f, TRAPS_TERM);
  const pid = f.cluster.tasks()[0].pid as number;
  const killedAt = Date.now();
  f.cluster.kill(taskId, 'agent-1', 400);
  const killed = await f.waitStatus(taskId, 'TASK_KILLED');
  t.ok(Date.now() - killedAt >= 390, 'not before the grace period');
  t.match(killed.message, /signal SIGKILL/);
  t.same(f.states(taskId), ['TASK_STARTING', 'TASK_RUNNING', 'TASK_KILLED'], 'no TASK_KILLING without the feature');
  t.notOk(isProcessAlive(pid, undefined), 'the process is gone');
});

t.test('a process that exits on SIGTERM is TASK_KILLED at once, with TASK_KILLING first when enabled', async (t) => {
  const f = makeFixture(t, { taskKilling: true });
  const taskId = await launchReady(f, 'echo > ready; sleep 30');
  // The grace period is twice the longest wait: a TASK_KILLED at all means SIGTERM ended it.
  f.cluster.kill(taskId, undefined, 2 * PATIENCE_MS);
  const killed = await f.waitStatus(taskId, 'TASK_KILLED');
  t.match(killed.message, /signal SIGTERM/);
  t.same(f.states(taskId), ['TASK_STARTING', 'TASK_RUNNING', 'TASK_KILLING', 'TASK_KILLED']);
  t.ok(f.statuses(taskId).every((s) => s.uuid !== undefined), 'all executor updates carry uuids');
});

t.test('a second kill with a shorter grace period forces the SIGKILL sooner', async (t) => {
  const f = makeFixture(t);
  const taskId = await launchReady(f, TRAPS_TERM);
  // The first two grace periods are longer than the wait for TASK_KILLED: only the third can end it.
  f.cluster.kill(taskId, 'agent-1', 2 * PATIENCE_MS);
  f.cluster.kill(taskId, 'agent-1', 3 * PATIENCE_MS);
  f.cluster.kill(taskId, 'agent-1', 100);
  const killed = await f.waitStatus(taskId, 'TASK_KILLED');
  t.match(killed.message, /signal SIGKILL/, 'forced by the 100 ms grace period');
});

t.test('a kill naming another agent is ignored', async (t) => {
  const f = makeFixture(t);
  const taskId = await launchReady(f, 'echo > ready; sleep 30');
  f.cluster.kill(taskId, 'agent-9', 0);
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.same(f.states(taskId), ['TASK_STARTING', 'TASK_RUNNING']);
});

t.test('killing or reconciling an unknown task gets the partition-aware master\'s answer', async (t) => {
  const f = makeFixture(t);
  await f.startAndOffer();
  const cases = [
    { call: 'kill', taskId: 'gone-on-agent', agentId: 'agent-1', state: 'TASK_GONE' },
    { call: 'kill', taskId: 'no-agent', agentId: undefined, state: 'TASK_UNKNOWN' },
    { call: 'kill', taskId: 'unknown-agent', agentId: 'agent-9', state: 'TASK_UNKNOWN' },
    { call: 'reconcile', taskId: 'r-gone', agentId: 'agent-1', state: 'TASK_GONE' },
    { call: 'reconcile', taskId: 'r-unknown', agentId: undefined, state: 'TASK_UNKNOWN' },
  ] as const;
  for (const c of cases) {
    if (c.call === 'kill') f.cluster.kill(c.taskId, c.agentId, 0);
    else f.cluster.reconcile([c.agentId === undefined ? { taskId: c.taskId } : { taskId: c.taskId, agentId: c.agentId }]);
    const answer = await f.waitStatus(c.taskId, c.state);
    t.match(answer, { reason: 'REASON_RECONCILIATION', uuid: undefined }, `${c.call} ${c.taskId} → ${c.state}`);
  }
});

t.test('reconcile answers the latest state of known tasks, explicitly or all at once', async (t) => {
  const f = makeFixture(t);
  const taskId = await launchReady(f, 'echo > ready; sleep 30');
  f.cluster.reconcile([{ taskId, agentId: 'agent-1' }]);
  f.cluster.reconcile([]);
  const answers = await waitFor(() => {
    const found = f.statuses(taskId).filter((s) => s.reason === 'REASON_RECONCILIATION');
    return found.length === 2 && found;
  });
  for (const a of answers) t.match(a, { state: 'TASK_RUNNING', agentId: 'agent-1', uuid: undefined, message: /^Reconciliation/ });
});

t.test('when a task ends, what is left of its process group is killed', async (t) => {
  const f = makeFixture(t);
  const offer = await f.startAndOffer();
  const { op, task } = appLaunch(offer, makeApp({ cmd: 'sleep 30 & echo $! > bg.pid; exit 0' }));
  f.cluster.accept(offer.offerId, [op], 0);
  await f.waitStatus(task.taskId, 'TASK_FINISHED');
  const bgPid = Number((await f.sandboxFile(task.taskId, 'bg.pid')).trim());
  await waitFor(() => !isProcessAlive(bgPid, undefined), PATIENCE_MS, 'the background process to die');
  t.pass('the background process is gone');
});
