import type { FastifyInstance } from 'fastify';
import seedrandom from 'seedrandom';
import type { ApiDeps } from '../../src/api/api-deps';
import { buildServer } from '../../src/api/server';
import { HeapLoop } from '../../src/scheduler/kernel/heap-loop';
import type { TimerInput } from '../../src/scheduler/model/inputs';
import { Scheduler } from '../../src/scheduler/scheduler';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store';
import { TEST_API_CONFIG } from '../api/api-fixture';
import { makeOffer } from '../builders/cluster-builders';
import { START_MS } from '../harness/core-harness';
import { RecordingDriver, launchedTasks } from '../harness/recording-driver';

/**
 * The REST API over a real core whose store is a SQLite file (so that a new core can be started on
 * what the requests left), in manual time: each request moves the clock by a millisecond, and
 * {@link FuzzCore.tick} lets a second pass, fires due timers, offers resources and reports the
 * launched tasks running, so that instances, kills and deployments happen between requests.
 */
export class FuzzCore {
  readonly scheduler: Scheduler;
  readonly store: SqliteStore;
  readonly app: FastifyInstance;
  private readonly loop = new HeapLoop<TimerInput>();
  private readonly driver = new RecordingDriver();
  private nowMs = START_MS;
  private seenCalls = 0;

  constructor(storePath: string, seed: string) {
    this.store = SqliteStore.open(storePath);
    const rng = seedrandom(`${seed}/core`);
    this.scheduler = new Scheduler({
      clock: { nowMs: () => this.nowMs },
      random: { next: () => rng() },
      timers: { schedule: (dueMs, input) => this.loop.schedule(dueMs, input), cancel: (id) => this.loop.cancel(id) },
      driver: this.driver,
      store: this.store,
      prober: { probe: () => undefined },
    }, { defaultRole: '*', newGroupEnforceRole: 'off', maxRunningDeployments: 100 });
    const deps: ApiDeps = {
      scheduler: this.scheduler,
      submit: (command) => this.scheduler.handle(command) ?? { ok: true },
      clock: { nowMs: () => this.nowMs },
      events: { publish: () => undefined },
      config: TEST_API_CONFIG,
      frameworkId: () => 'pacer-fuzz',
      uptimeMs: () => this.nowMs - START_MS,
    };
    this.app = buildServer({ deps, stream: { close: () => undefined } });
  }

  /** One millisecond later: every request writes a version of its own. */
  step(): void {
    this.nowMs += 1;
  }

  /**
   * A second passes: due timers fire, one offer arrives, every task launched since the last tick
   * reports running and every task asked to die reports killed, so that deployments finish and
   * locks are released as on a real cluster.
   */
  tick(): void {
    this.nowMs += 1000;
    for (let entry = this.loop.popDue(this.nowMs); entry !== undefined; entry = this.loop.popDue(this.nowMs)) this.scheduler.handle(entry.input);
    this.scheduler.handle({ type: 'offers', offers: [makeOffer({ cpus: 8, mem: 8192 })] });
    const calls = this.driver.calls.slice(this.seenCalls);
    this.seenCalls = this.driver.calls.length;
    for (const task of launchedTasks(calls)) {
      this.scheduler.handle({ type: 'status', status: { taskId: task.taskId, state: 'TASK_RUNNING', agentId: task.agentId } });
    }
    for (const call of calls) {
      if (call.type !== 'kill') continue;
      this.scheduler.handle({ type: 'status', status: { taskId: call.taskId, state: 'TASK_KILLED', ...(call.agentId === undefined ? {} : { agentId: call.agentId }) } });
    }
  }

  async close(): Promise<void> {
    await this.app.close();
    this.store.close();
  }
}
