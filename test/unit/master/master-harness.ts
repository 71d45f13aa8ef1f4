import { HeapLoop } from '../../../src/scheduler/kernel/heap-loop';
import type { ClusterInput, TaskStatus } from '../../../src/scheduler/model/inputs';
import type { OfferedPool, Offer } from '../../../src/scheduler/model/offer';
import type { PortRange, ScalarResources } from '../../../src/scheduler/model/resources';
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

/** An agent with one unreserved pool (and optional reserved ones). */
export function agentSpec(agentId: string, o: { cpus?: number; memMib?: number; ports?: PortRange[]; reserved?: OfferedPool[] } = {}) {
  return {
    info: { agentId, hostname: `${agentId}.example`, attributes: [] },
    pools: [{ cpusMilli: (o.cpus ?? 4) * 1000, memMilli: (o.memMib ?? 1024) * 1000, diskMilli: 1_024_000, gpus: 0, ports: o.ports ?? [[1000, 1009]] }, ...(o.reserved ?? [])],
  };
}

export function scalars(cpus: number, memMib: number): ScalarResources {
  return { cpusMilli: Math.round(cpus * 1000), memMilli: Math.round(memMib * 1000), diskMilli: 0, gpus: 0 };
}

/** A task of `role` needing `resources` and host ports. */
export function task(taskId: string, agentId: string, resources: ScalarResources, hostPorts: number[] = [], role = '*'): MasterTaskLaunch {
  return { taskId, agentId, role, resources, hostPorts };
}

/** LAUNCH of one task whose allocation is exactly its resources and ports (from `reservedFor`'s pool). */
export function launch(t: MasterTaskLaunch, reservedFor?: string): MasterOperation {
  const ports: PortRange[] = t.hostPorts.map((p) => [p, p]);
  return { kind: 'launch', task: t, allocation: [{ ...(reservedFor === undefined ? {} : { reservedFor }), ...t.resources, ports }] };
}

/** LAUNCH_GROUP of tasks on executor `executorId` (Marathon's pod default: 0.1 cpus, 32 MiB, 10 MiB disk of its own), from the unreserved pool. */
export function group(executorId: string, tasks: MasterTaskLaunch[]): Extract<MasterOperation, { kind: 'launchGroup' }> {
  const executorResources = { ...scalars(0.1, 32), diskMilli: 10_000 };
  const sum = { ...executorResources };
  for (const t of tasks) {
    sum.cpusMilli += t.resources.cpusMilli;
    sum.memMilli += t.resources.memMilli;
    sum.diskMilli += t.resources.diskMilli;
  }
  return { kind: 'launchGroup', executorId, executorResources, tasks, allocation: [{ ...sum, ports: tasks.flatMap((t) => t.hostPorts.map((p): PortRange => [p, p])) }] };
}
