import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import t from 'tap';
import { isProcessAlive } from '../../../src/cluster/local/process-identity';
import type { Offer } from '../../../src/scheduler/model/offer';
import { makeApp } from '../../builders/run-spec-builders';
import { appLaunch, makeFixture, waitFor } from './local-fixture';
import { PATIENCE_MS } from '../../harness/wait';
import { nodeArgsFor } from '../../harness/node-entry';
import { repoPath } from '../../harness/repo-path';

/*
 * Tasks are spawned by a launcher process (task-launcher.ts). Launching is paced by it, not by a
 * timer: an agent accepted without a refuse filter is offered again once the launches of the
 * accept have started (issue 13: ≥ 100 tasks/s on one local agent). If the launcher dies, nothing
 * is left unsupervised and the next launch starts a new one.
 */

t.test('an agent accepted without a filter is offered again as soon as its launches have started, not after the interval', async (t) => {
  const f = makeFixture(t, { offerIntervalMs: 600_000 });
  const offer = await f.startAndOffer();
  const { op, task } = appLaunch(offer, makeApp({ cmd: 'sleep 30', cpus: 1 }));
  const seen = f.offers().length;
  f.cluster.accept(offer.offerId, [op], 0);
  await f.waitStatus(task.taskId, 'TASK_RUNNING');
  const next = await f.nextOffer(seen, 'agent-1');
  t.equal(next.pools[0].cpusMilli, 3000, 'the rest of the agent, without waiting for the 10-minute interval');
});

t.test('an accept with a refuse filter still filters the agent', async (t) => {
  const f = makeFixture(t, { offerIntervalMs: 50 });
  const offer = await f.startAndOffer();
  const { op, task } = appLaunch(offer, makeApp({ cmd: 'sleep 30', cpus: 1 }));
  const seen = f.offers().length;
  f.cluster.accept(offer.offerId, [op], 60_000);
  await f.waitStatus(task.taskId, 'TASK_RUNNING');
  await new Promise((resolve) => setTimeout(resolve, 300));
  t.equal(f.offers().length, seen, 'no offer: the filter holds');
});

t.test('a revive brings an offer at once, not after the interval', async (t) => {
  const f = makeFixture(t, { offerIntervalMs: 600_000 });
  const offer = await f.startAndOffer();
  f.cluster.decline([offer.offerId], 600_000);
  const seen = f.offers().length;
  f.cluster.revive([]);
  await f.nextOffer(seen, 'agent-1');
  t.pass('offered again');
});

t.test('when the launcher dies, its running tasks are polled and the next launch starts a new launcher', async (t) => {
  const f = makeFixture(t);
  const offer = await f.startAndOffer();
  const first = appLaunch(offer, makeApp({ cmd: 'echo > ready; while [ ! -e stop ]; do sleep 0.05; done', cpus: 1 }));
  f.cluster.accept(offer.offerId, [first.op], 0);
  await f.waitStatus(first.task.taskId, 'TASK_RUNNING');
  await f.sandboxFile(first.task.taskId, 'ready');
  const launcher = f.cluster.launcherPid() as number;
  t.ok(launcher > 0, 'a launcher runs');
  process.kill(launcher, 'SIGKILL');
  await waitFor(() => f.cluster.launcherPid() === undefined, PATIENCE_MS, 'the cluster to notice the launcher is gone');
  const pid = f.cluster.tasks()[0].pid as number;
  t.ok(isProcessAlive(pid, undefined), 'the task outlives its launcher');
  writeFileSync(`${f.cluster.tasks()[0].sandbox}/stop`, '');
  const ended = await waitFor(() => f.statuses(first.task.taskId).find((s) => s.state === 'TASK_FAILED' || s.state === 'TASK_FINISHED'), PATIENCE_MS, 'the task\'s end');
  t.match(ended, { state: 'TASK_FAILED', message: /exit status is unknown/ }, 'its exit was noticed by polling');
  const outstanding = f.offers().at(-1) as Offer;
  t.not(outstanding.offerId, offer.offerId, 'the agent was offered again after the first launch');
  const second = appLaunch(outstanding, makeApp({ cmd: 'sleep 30', cpus: 1 }));
  f.cluster.accept(outstanding.offerId, [second.op], 0);
  await f.waitStatus(second.task.taskId, 'TASK_RUNNING');
  t.not(f.cluster.launcherPid(), launcher, 'by a new launcher');
});

t.test('killing the launcher resolves even when nothing else keeps the process alive (the launcher is unref\'d)', async (t) => {
  const out = execFileSync(process.execPath, nodeArgsFor('test/cluster/local/launcher-kill.ts'), { cwd: repoPath('.'), timeout: PATIENCE_MS, encoding: 'utf8' });
  t.equal(out.trim(), 'killed', 'kill() resolved before Node could exit');
});
