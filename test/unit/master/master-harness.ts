import { HeapLoop } from '../../../src/scheduler/kernel/heap-loop';
import type { ClusterInput, TaskStatus } from '../../../src/scheduler/model/inputs';
import type { Offer } from '../../../src/scheduler/model/offer';
import type { TaskState } from '../../../src/scheduler/model/task-state';
import { Master, type MasterOptions } from '../../../src/master/master';
import type { AgentRuntime, MasterTimerEvent } from '../../../src/master/master-ports';
import type { MasterExecutor, MasterOperation, MasterTaskLaunch } from '../../../src/master/master-types';

/** A launch as the runtime of the harness saw it. */
export interface Launched {
  readonly op: MasterOperation;
  readonly executor: MasterExecutor;
}

/**
 * The master model on a virtual clock (a HeapLoop of its timer events and a `now` variable), with
 * an outbox that records what the framework would receive and a runtime that records launches and
 * kills (the test plays the executors through `master.taskUpdate` / `master.executorEnded`).
 */
export class MasterHarness {
  now = 0;
  readonly loop = new HeapLoop<MasterTimerEvent>();
  readonly received: { readonly t: number; readonly input: ClusterInput }[] = [];
  readonly launched: Launched[] = [];
  readonly killed: { readonly taskId: string; readonly graceMs: number }[] = [];
  readonly problems: string[] = [];
  /** Refuse every operation with this message (the runtime's `launchProblem`), when set. */
  unrunnable: string | undefined;
  readonly master: Master<MasterTaskLaunch>;

  constructor(options: Partial<MasterOptions> = {}) {
    let uuid = 0;
    const post = (input: ClusterInput): void => void this.received.push({ t: this.now, input });
    const runtime: AgentRuntime<MasterTaskLaunch> = {
      launchProblem: () => this.unrunnable,
      launch: (op, executor) => void this.launched.push({ op, executor }),
      kill: (taskId, graceMs) => void this.killed.push({ taskId, graceMs }),
    };
    this.master = new Master(
      { nowMs: () => this.now, schedule: (dueMs, event) => this.loop.schedule(dueMs, event), cancel: (id) => this.loop.cancel(id) },
      {
        offers: (offers) => post({ type: 'offers', offers }),
        rescind: (offerId) => post({ type: 'rescind', offerId }),
        status: (_dueMs, status) => post({ type: 'status', status }),
        agentLost: (agentId) => post({ type: 'agentLost', agentId }),
      },
      runtime,
      {
        offerIntervalMs: 1000,
        agentPingTimeoutMs: 75_000,
        agentRemovalMs: 0,
        offerId: (n) => `O${n}`,
        newUuid: () => `u${++uuid}`,
        onProblem: (message) => this.problems.push(message),
        ...options,
      },
    );
  }

  /** Handle every timer event due at or before `untilMs`, then set the clock to `untilMs`. */
  runUntil(untilMs: number): void {
    for (let e = this.loop.popDue(untilMs); e !== undefined; e = this.loop.popDue(untilMs)) {
      this.now = e.dueMs;
      this.master.onTimer(e.input);
    }
    this.now = Math.max(this.now, untilMs);
  }

  /** Offers received at or after `since`, in order. */
  offers(since = 0): Offer[] {
    return this.received.filter((r) => r.t >= since && r.input.type === 'offers').flatMap((r) => (r.input.type === 'offers' ? [...r.input.offers] : []));
  }

  /** Agents of the offers received at or after `since`. */
  offeredAgents(since = 0): string[] {
    return this.offers(since).map((o) => o.agent.agentId);
  }

  /** The latest offer of an agent. */
  lastOffer(agentId: string): Offer {
    const o = this.offers().filter((x) => x.agent.agentId === agentId).pop();
    if (o === undefined) throw new Error(`no offer for ${agentId}`);
    return o;
  }

  /** Status updates received (optionally of one task). */
  statuses(taskId?: string): TaskStatus[] {
    return this.received.flatMap((r) => (r.input.type === 'status' && (taskId === undefined || r.input.status.taskId === taskId) ? [r.input.status] : []));
  }

  /** The executor reports `state` for a task. */
  report(taskId: string, state: TaskState, healthy?: boolean): void {
    this.master.taskUpdate(taskId, state, undefined, healthy);
  }
}
