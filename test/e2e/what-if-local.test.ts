import t from 'tap';
import type { SchedulerInput } from '../../src/scheduler/model/inputs';
import { Scheduler } from '../../src/scheduler/scheduler';
import { tempDir, waitFor } from './e2e-kit';
import { e2eConfig, startPacer, TaskProcesses } from './pacer-kit';

/**
 * What-if over the real composition of `npm start` (local cluster, SQLite store, API): the fork's
 * agents come from the last offers the runtime's loop observer saw, and the simulated change
 * reaches neither the live core nor the cluster.
 */
t.test('a what-if on the local cluster answers from its last offers and reaches neither the core nor the processes', async (t) => {
  const handledByCore: SchedulerInput[] = [];
  const handle = Scheduler.prototype.handle;
  const pacer = await startPacer(t, e2eConfig(tempDir(t), { localOfferIntervalMs: 50 }));
  const live = pacer.running.scheduler;
  // Only the live core is watched (the forks build Schedulers of their own).
  Scheduler.prototype.handle = function spied(this: Scheduler, input: SchedulerInput) {
    if (this === live) handledByCore.push(input);
    return handle.call(this, input);
  };
  t.teardown(() => { Scheduler.prototype.handle = handle; });
  const tasks = new TaskProcesses(t);
  t.equal((await pacer.request('POST', '/v2/apps', { id: '/web', cmd: 'sleep 1000', cpus: 0.1, mem: 16, instances: 1 })).status, 201);
  await waitFor(async () => {
    tasks.record(pacer.running);
    const app = await pacer.request('GET', '/v2/apps/web');
    return (app.json.app as { tasksRunning?: number } | undefined)?.tasksRunning === 1;
  }, 'the app running');
  await waitFor(() => handledByCore.filter((i) => i.type === 'offers').length >= 2, 'offers after the launch');
  const commandsBefore = handledByCore.filter((i) => !['offers', 'status', 'timer', 'probeResult', 'rescind'].includes(i.type)).length;
  const processes = pacer.running.cluster.tasks().length;

  const res = await pacer.request('PUT', '/v2/apps/web?dryRun=true&simulate=PT5M', { instances: 3 });
  t.equal(res.status, 200, JSON.stringify(res.json));
  const a = res.json as { deployment?: string; launched?: { agentId: string }[]; agents?: number };
  t.equal(a.deployment, 'finished');
  t.equal(a.launched?.length, 2, 'two more instances would start');
  t.ok((a.agents ?? 0) >= 1, 'agents from the last offers');
  const cap = await pacer.request('GET', '/v2/capacity?app=/web');
  t.equal(cap.status, 200, JSON.stringify(cap.json));
  t.ok((cap.json as { fits?: number }).fits !== undefined && ((cap.json as { fits: number }).fits) > 0, 'more instances fit');

  const commandsAfter = handledByCore.filter((i) => !['offers', 'status', 'timer', 'probeResult', 'rescind'].includes(i.type)).length;
  t.equal(commandsAfter, commandsBefore, 'no command reached the live core');
  t.equal(((await pacer.request('GET', '/v2/apps/web')).json.app as { instances?: number }).instances, 1, 'the app is unchanged');
  t.same((await pacer.request('GET', '/v2/deployments')).json, [], 'no deployment');
  t.equal(pacer.running.cluster.tasks().length, processes, 'no process started');
});
