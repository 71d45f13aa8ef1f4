import t from 'tap';
import { LocalCluster } from '../../../src/cluster/local/local-cluster';
import { isGroupAlive } from '../../../src/cluster/local/process-identity';
import type { SchedulerInput, TimerInput } from '../../../src/scheduler/model/inputs';
import type { Timers } from '../../../src/scheduler/ports/timers';
import { Scheduler } from '../../../src/scheduler/scheduler';
import { makeApp, makeHealthCheck } from '../../builders/run-spec-builders';
import { MemoryStore } from '../../harness/memory-store';
import { PATIENCE_MS } from '../../harness/wait';
import { makeFixture, waitFor } from './local-fixture';

/** Real-time timers for the core: each due input is handed to `handle`; all cleared at teardown. */
class RealTimers implements Timers {
  private readonly pending = new Map<number, NodeJS.Timeout>();
  private seq = 0;
  handle: (input: SchedulerInput) => void = () => undefined;

  schedule(dueMs: number, input: TimerInput): number {
    const id = ++this.seq;
    this.pending.set(id, setTimeout(() => {
      this.pending.delete(id);
      this.handle(input);
    }, Math.max(0, dueMs - Date.now())));
    return id;
  }

  cancel(timerId: number): void {
    clearTimeout(this.pending.get(timerId));
    this.pending.delete(timerId);
  }

  clear(): void {
    for (const timer of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
  }
}

t.test('the scheduler core runs, health-checks and scales down an app on the local cluster', async (t) => {
  const f = makeFixture(t);
  const timers = new RealTimers();
  t.teardown(() => timers.clear());
  const posted: { core?: Scheduler } = {};
  const driver = new LocalCluster(f.options, (input) => posted.core?.handle(input));
  f.cluster = driver;
  const core = new Scheduler(
    { clock: { nowMs: () => Date.now() }, random: { next: () => Math.random() }, timers, driver, store: new MemoryStore(), prober: { probe: () => undefined } },
    { reconciliationIntervalMs: 0 },
  );
  posted.core = core;
  timers.handle = (input) => core.handle(input);
  driver.start();
  const app = makeApp({
    id: '/web',
    instances: 2,
    cmd: 'test -n "$MARATHON_APP_ID" && sleep 30',
    hostPorts: [0],
    healthChecks: [makeHealthCheck({ protocol: 'COMMAND', command: 'true', delayMs: 0, intervalMs: 100, gracePeriodMs: PATIENCE_MS })],
  });
  t.match(core.handle({ type: 'putRunSpec', spec: app }), { ok: true });
  const running = await waitFor(() => {
    const insts = core.instances('/web');
    return insts.length === 2 && insts.every((i) => i.condition === 'Running' && i.tasks[0].healthy === true) && insts;
  }, PATIENCE_MS, 'two healthy running instances');
  t.equal(running.length, 2);
  const pids = driver.tasks().map((x) => x.pid as number);
  t.equal(pids.length, 2, 'two processes');
  t.match(core.handle({ type: 'scale', runSpecId: '/web', instances: 0, force: true }), { ok: true });
  await waitFor(() => core.instances('/web').length === 0, PATIENCE_MS, 'the instances to be gone');
  await waitFor(() => pids.every((pid) => !isGroupAlive(pid)), PATIENCE_MS, 'the processes to exit');
  t.same(driver.unacknowledged(), [], 'the core acknowledged every update');
});
