import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { isGroupAlive, isProcessAlive, readStat, signalGroup } from '../../../src/cluster/local/process-identity';
import { CHECK_MARK } from '../../../src/cluster/local/sandbox-processes';
import { sandboxOf } from '../../../src/cluster/local/sandbox-of';
import { StateFile } from '../../../src/cluster/local/state-file';
import { makeApp } from '../../builders/run-spec-builders';
import { appLaunch, makeFixture, waitFor, type LocalFixture } from './local-fixture';
import { PATIENCE_MS } from '../../harness/wait';

/*
 * Issue 11, item 3: a `kill -9` of pacer during a launch must leave no process nobody tracks. The
 * local cluster records a launch before it spawns it (write-ahead), and its start sweeps the
 * sandboxes: a task recorded without a pid adopts its process, a process no task accounts for is
 * killed. A crash is simulated by putting back the state files as they were at the moment of the
 * crash (the old driver is stopped first; its stop() writes a snapshot the crash would not have).
 */

/** The state files as they are now, to put back later as if pacer had died at this moment. */
function freezeState(f: LocalFixture): () => void {
  const file = new StateFile(join(f.options.sandboxRoot, 'local-cluster.json'));
  const saved = join(f.dir, 'frozen');
  mkdirSync(saved, { recursive: true });
  const paths = [file.path, file.journalPath];
  for (const p of paths) if (existsSync(p)) copyFileSync(p, join(saved, p.split('/').pop() as string));
  return () => {
    for (const p of paths) {
      const copy = join(saved, p.split('/').pop() as string);
      if (existsSync(copy)) copyFileSync(copy, p);
      else rmSync(p, { force: true });
    }
  };
}

/** Stop the current driver, put the frozen state back, and start a new driver on it: a restart after a crash. */
function restartAfterCrash(f: LocalFixture, restore: () => void): void {
  f.cluster.stop();
  restore();
  f.cluster = f.newCluster();
  f.cluster.start();
}

/** A detached `sh -c script` (its own session) with `env`; SIGKILLed with its group when the test ends. */
function strayProcess(t: Test, script: string, env: Record<string, string>, cwd: string): number {
  mkdirSync(cwd, { recursive: true });
  const child = spawn('/bin/sh', ['-c', script], { cwd, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env }, detached: true, stdio: 'ignore' });
  child.unref();
  const pid = child.pid as number;
  t.teardown(() => {
    signalGroup(pid, 'SIGKILL');
  });
  return pid;
}

/** Pids of the live processes in session `sid` (zombies excluded). */
function sessionMembers(sid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readStat(Number(name));
    if (stat !== undefined && stat.state !== 'Z' && Number(stat.session) === sid) out.push(Number(name));
  }
  return out;
}

t.test('a launch is on record before its process starts; a crash before its pid was recorded leaves a process the next start adopts', async (t) => {
  const f = makeFixture(t);
  const offer = await f.startAndOffer();
  const { op, task } = appLaunch(offer, makeApp({ cmd: 'echo > ready; sleep 30', cpus: 1 }));
  f.cluster.accept(offer.offerId, [op], 0);
  // Still inside the ACCEPT's turn: the pid is not recorded yet (that write follows at the end of the turn).
  const atCrash = new StateFile(join(f.options.sandboxRoot, 'local-cluster.json')).load();
  const recorded = atCrash?.executors.flatMap((e) => e.tasks).find((x) => x.taskId === task.taskId);
  t.match(recorded, { taskId: task.taskId, state: 'TASK_STAGING', sandbox: sandboxOf(f.options.sandboxRoot, task.taskId) }, 'the launch is recorded before the spawn');
  t.equal(recorded?.pid, undefined, 'without a pid yet');
  const restore = freezeState(f);
  await f.waitStatus(task.taskId, 'TASK_RUNNING');
  await f.sandboxFile(task.taskId, 'ready');
  const pid = f.cluster.tasks()[0].pid as number;
  t.ok(isProcessAlive(pid, undefined), 'the process runs');

  restartAfterCrash(f, restore);
  const adopted = f.cluster.tasks().find((x) => x.taskId === task.taskId);
  t.match(adopted, { pid, state: 'TASK_RUNNING' }, 'the new driver found the process of the recorded task and adopted it');
  const state = new StateFile(join(f.options.sandboxRoot, 'local-cluster.json')).load();
  t.equal(state?.executors[0].tasks[0].pid, pid, 'its pid is on record now');
  f.cluster.reconcile([{ taskId: task.taskId, agentId: 'agent-1' }]);
  const answer = await waitFor(() => f.statuses(task.taskId).find((s) => s.reason === 'REASON_RECONCILIATION'));
  t.equal(answer.state, 'TASK_RUNNING', 'reconciliation says it runs: the core will not launch it again');
  t.ok(isProcessAlive(pid, undefined), 'and it was not killed');
  f.cluster.kill(task.taskId, 'agent-1', 1000);
  await f.waitStatus(task.taskId, 'TASK_KILLED');
  await waitFor(() => !isGroupAlive(pid), PATIENCE_MS, 'the adopted process to be killed');
});

t.test('a task recorded without a pid whose process never started is reported TASK_GONE once, its resources freed', async (t) => {
  const f = makeFixture(t);
  const offer = await f.startAndOffer();
  const { op, task } = appLaunch(offer, makeApp({ cmd: 'sleep 30', cpus: 1 }));
  f.cluster.accept(offer.offerId, [op], 0);
  const restore = freezeState(f);
  await f.waitStatus(task.taskId, 'TASK_RUNNING');
  const pid = f.cluster.tasks()[0].pid as number;
  f.cluster.stop();
  signalGroup(pid, 'SIGKILL');
  await waitFor(() => !isGroupAlive(pid), PATIENCE_MS, 'the process and its group to die');
  const seenOffers = f.offers().length;
  restartAfterCrash(f, restore);
  const gone = await f.waitStatus(task.taskId, 'TASK_GONE');
  t.match(gone, { agentId: 'agent-1', message: /no process/ });
  const next = await f.nextOffer(seenOffers);
  t.equal(next.pools[0].cpusMilli, 4000, 'its resources are free');
  t.equal(f.states(task.taskId).filter((s) => s === 'TASK_GONE').length, 1, 'reported once');
});

t.test('the start kills every process of the sandboxes that no task accounts for, and nothing else', async (t) => {
  const logs: string[] = [];
  const f = makeFixture(t, { log: (line) => logs.push(line) });
  const root = f.options.sandboxRoot;
  const offer = await f.startAndOffer();
  const { op, task } = appLaunch(offer, makeApp({ cmd: 'sleep 30 & echo > ready; wait', cpus: 1 }));
  f.cluster.accept(offer.offerId, [op], 0);
  await f.waitStatus(task.taskId, 'TASK_RUNNING');
  await f.sandboxFile(task.taskId, 'ready');
  const taskPid = f.cluster.tasks()[0].pid as number;
  const taskSandbox = sandboxOf(root, task.taskId);
  f.cluster.stop();

  // A process of a task the state file does not know (started by a pacer that died before recording it),
  // with a child that cleared its environment: found through the session.
  const ghostSandbox = join(root, 'ghost.instance-1._app.1');
  const ghost = strayProcess(t, 'env -i /bin/sleep 30 & exec sleep 30', { MESOS_SANDBOX: ghostSandbox, MESOS_TASK_ID: 'ghost.instance-1._app.1' }, ghostSandbox);
  // A command health check of the live task, left running by the dead pacer.
  const check = strayProcess(t, 'exec sleep 30', { MESOS_SANDBOX: taskSandbox, MESOS_TASK_ID: task.taskId, [CHECK_MARK]: '1' }, taskSandbox);
  // Not ours: a sandbox of another root, and a process with no mark at all.
  const otherRoot = join(f.dir, 'other-root', 'x');
  const foreign = strayProcess(t, 'exec sleep 30', { MESOS_SANDBOX: otherRoot, MESOS_TASK_ID: 'x' }, otherRoot);
  const plain = strayProcess(t, 'exec sleep 30', {}, f.dir);
  await waitFor(() => sessionMembers(ghost).length === 2, PATIENCE_MS, 'the ghost and its child');
  const ghostChild = sessionMembers(ghost).find((p) => p !== ghost) as number;
  const taskChild = sessionMembers(taskPid).find((p) => p !== taskPid) as number;
  t.ok(taskChild > 0, 'the live task has a child');

  f.cluster = f.newCluster();
  f.cluster.start();
  for (const [pid, what] of [[ghost, 'the unrecorded task'], [ghostChild, 'its child without environment'], [check, 'the orphaned health check']] as const) {
    await waitFor(() => !isProcessAlive(pid, undefined), PATIENCE_MS, `${what} (${pid}) to be killed`);
    t.pass(`${what} was killed`);
  }
  for (const [pid, what] of [[taskPid, 'the recorded task'], [taskChild, 'its child'], [foreign, 'a process of another sandbox root'], [plain, 'an unmarked process']] as const) {
    t.ok(isProcessAlive(pid, undefined), `${what} still runs`);
  }
  t.same(f.cluster.tasks().map((x) => [x.taskId, x.pid]), [[task.taskId, taskPid]], 'the recorded task is adopted');
  t.match(logs, [/^local cluster: killed 3 process\(es\) of .* that no task accounts for: pids /], 'and the operator is told');
});

t.test('a kill asked before the start (the core recovering first) is made once the task is adopted', async (t) => {
  const f = makeFixture(t);
  const offer = await f.startAndOffer();
  const { op, task } = appLaunch(offer, makeApp({ cmd: 'sleep 30', cpus: 1 }));
  f.cluster.accept(offer.offerId, [op], 0);
  await f.waitStatus(task.taskId, 'TASK_RUNNING');
  const pid = f.cluster.tasks()[0].pid as number;
  f.cluster.stop();
  f.cluster = f.newCluster();
  f.cluster.kill(task.taskId, 'agent-1', 1000);
  f.cluster.start();
  await f.waitStatus(task.taskId, 'TASK_KILLED');
  await waitFor(() => !isGroupAlive(pid), PATIENCE_MS, 'the process to be gone');
  t.pass('killed without waiting for a retry');
});
