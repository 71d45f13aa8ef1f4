import t from 'tap';
import type { SchedulerInput } from '../../src/scheduler/model/inputs';
import { Scheduler } from '../../src/scheduler/scheduler';
import { tempDir, waitFor } from './e2e-kit';
import { e2eConfig, startPacer, TaskProcesses } from './pacer-kit';

/**
 * The input hook (src/runtime/runtime-parts.ts `RuntimeHooks.inputs`, docs/architecture.md "One
 * loop"): over the real composition of `npm start` (local cluster, SQLite store, API), every input
 * the core handles — API commands, the cluster's offers and task updates, the core's own timers,
 * the probes' results — passes the one observer, in the order the core handles them, at the
 * instant the core reads. What a flight recorder needs.
 */

/** A tiny HTTP server on $PORT0 (the node running this test, so no PATH lookup). */
const SERVER_CMD = `${JSON.stringify(process.execPath)} -e "require('http').createServer((q,s)=>s.end('ok')).listen(process.env.PORT0,'127.0.0.1')"`;

t.test('every input the core handles passes the input hook, in the order handled, with the core\'s instant', async (t) => {
  // What the core itself handled, seen from inside it (this process's Scheduler class).
  const handledByCore: SchedulerInput[] = [];
  const handle = Scheduler.prototype.handle;
  Scheduler.prototype.handle = function spied(this: Scheduler, input: SchedulerInput) {
    handledByCore.push(input);
    return handle.call(this, input);
  };
  t.teardown(() => { Scheduler.prototype.handle = handle; });
  const before: { atMs: number; input: SchedulerInput }[] = [];
  const after: SchedulerInput[] = [];
  const oneInstant: boolean[] = [];
  const pacer = await startPacer(t, e2eConfig(tempDir(t), { localOfferIntervalMs: 50 }), {
    inputs: {
      beforeInput: (atMs, input) => { before.push({ atMs, input }); },
      afterInput: (atMs, input) => {
        after.push(input);
        oneInstant.push(atMs === before.at(-1)?.atMs);
      },
    },
  });
  const tasks = new TaskProcesses(t);
  const created = await pacer.request('POST', '/v2/apps', {
    id: '/hooked', cmd: SERVER_CMD, cpus: 0.1, mem: 32, instances: 1, portDefinitions: [{ port: 0 }],
    healthChecks: [{ protocol: 'HTTP', path: '/', portIndex: 0, gracePeriodSeconds: 60, intervalSeconds: 1, timeoutSeconds: 10, maxConsecutiveFailures: 30 }],
  });
  t.equal(created.status, 201, 'created');
  await waitFor(async () => {
    tasks.record(pacer.running);
    const app = await pacer.request('GET', '/v2/apps/hooked');
    return (app.json.app as { tasksHealthy?: number } | undefined)?.tasksHealthy === 1;
  }, 'the app healthy');
  t.equal((await pacer.request('DELETE', '/v2/apps/hooked')).status, 200, 'deleted');
  // Its end is TASK_KILLED by the delete: its agent's ports are this test process's own
  // (test/harness/agent-ports.ts), so no other test file's task holds its port first.
  await waitFor(() => handledByCore.some((i) => i.type === 'status' && i.status.state === 'TASK_KILLED'), 'the task killed');
  t.notOk(handledByCore.some((i) => i.type === 'status' && i.status.state === 'TASK_FAILED'), 'the task never failed');

  const types = new Set(before.map((b) => b.input.type === 'timer' ? `timer:${b.input.timer.kind}` : b.input.type));
  for (const type of ['putRunSpec', 'deleteRunSpec', 'offers', 'status', 'timer:healthProbe', 'probeResult']) t.ok(types.has(type), `${type} passed the hook`);
  t.equal(before.length, handledByCore.length, `as many inputs seen as handled (${before.length})`);
  t.ok(before.every((b, i) => b.input === handledByCore[i]), 'the same inputs, in the order the core handled them');
  t.same(after, before.map((b) => b.input), 'after each input too');
  t.ok(oneInstant.every(Boolean), 'before and after an input see one instant');
  t.ok(before.every((b, i) => i === 0 || b.atMs >= before[i - 1].atMs), 'the instants never go backwards');
});
