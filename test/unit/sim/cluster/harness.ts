import { HeapLoop } from '../../../../src/scheduler/kernel/heap-loop';
import type { HealthCheckSpec } from '../../../../src/scheduler/model/health-check';
import type { SchedulerInput, TaskStatus } from '../../../../src/scheduler/model/inputs';
import type { LaunchOperation, TaskLaunch } from '../../../../src/scheduler/model/launch';
import type { Offer, OfferedPool } from '../../../../src/scheduler/model/offer';
import type { PortRange, ScalarResources } from '../../../../src/scheduler/model/resources';
import type { LoopItem } from '../../../../sim/loop-item';
import type { SimContext } from '../../../../sim/sim-context';
import type { SimAgentSpec } from '../../../../sim/cluster/sim-agent-spec';
import { SimCluster } from '../../../../sim/cluster/sim-cluster';
import type { SimTimings } from '../../../../sim/cluster/sim-models';
import { SimProber } from '../../../../sim/cluster/sim-prober';
import { createWorldStreams } from '../../../../sim/world';
import { makeTaskLaunch } from '../../../builders/launch-builders';

/** Fixed timings so tests can assert exact virtual times (draws still happen: min === max). */
export const FIXED_TIMINGS: SimTimings = {
  offerIntervalMs: 1000,
  stagingMs: [100, 100],
  startingMs: [200, 200],
  runningMs: [300, 300],
  shutdownMs: [1000, 1000],
  agentPingTimeoutMs: 75_000,
  probeLatencyMs: [5, 5],
};

/** accept at T → STAGING T+100, STARTING T+300, RUNNING T+600 with {@link FIXED_TIMINGS}. */
export const RUNNING_AFTER_MS = 600;

export interface HarnessOptions {
  readonly seed?: number | string;
  readonly agents?: readonly SimAgentSpec[];
  readonly timings?: Partial<SimTimings>;
  readonly taskKilling?: boolean;
  /** Acknowledge every reliable status update when it reaches the "core". Default true. */
  readonly autoAck?: boolean;
  readonly startMs?: number;
}

export interface Received {
  readonly t: number;
  readonly input: SchedulerInput;
}

/**
 * A tiny run loop for the simulated cluster: a HeapLoop of LoopItems, a plain `now` variable, and
 * a "core" that only records its inputs (and, optionally, acknowledges updates).
 */
export class Harness {
  now: number;
  readonly loop = new HeapLoop<LoopItem>();
  readonly received: Received[] = [];
  readonly trace: string[] = [];
  readonly ctx: SimContext;
  readonly cluster: SimCluster;
  readonly prober: SimProber;
  /** Number of sim events handled (to check that idle tasks cost nothing). */
  simEvents = 0;
  private readonly autoAck: boolean;

  constructor(options: HarnessOptions = {}) {
    this.now = options.startMs ?? 1_000_000;
    this.autoAck = options.autoAck ?? true;
    const streams = createWorldStreams(options.seed ?? 1);
    this.ctx = {
      nowMs: () => this.now,
      toCore: (dueMs, input) => {
        if (dueMs < this.now) throw new Error(`input posted in the past: ${dueMs} < ${this.now}`);
        this.loop.schedule(dueMs, { to: 'core', input });
      },
      schedule: (dueMs, event) => {
        if (dueMs < this.now) throw new Error(`event scheduled in the past: ${dueMs} < ${this.now}`);
        return this.loop.schedule(dueMs, { to: 'sim', event });
      },
      cancel: (id) => this.loop.cancel(id),
      streams,
      trace: (r) => this.trace.push(JSON.stringify(r)),
    };
    this.cluster = new SimCluster(this.ctx, options.agents ?? [agent('a1')], {
      timings: { ...FIXED_TIMINGS, ...options.timings },
      taskKilling: options.taskKilling ?? true,
    });
    this.prober = new SimProber(this.ctx, this.cluster);
  }

  /** Handle every entry due at or before `untilMs`, then set the clock to `untilMs`. */
  runUntil(untilMs: number): void {
    for (;;) {
      const entry = this.loop.popDue(untilMs);
      if (entry === undefined) break;
      this.now = entry.dueMs;
      const item = entry.input;
      if (item.to === 'core') {
        this.received.push({ t: this.now, input: item.input });
        if (this.autoAck && item.input.type === 'status' && item.input.status.uuid !== undefined) {
          const s = item.input.status;
          this.cluster.acknowledge(s.agentId ?? '', s.taskId, s.uuid as string);
        }
      } else {
        this.simEvents++;
        this.cluster.onEvent(item.event);
      }
    }
    this.now = Math.max(this.now, untilMs);
  }

  runFor(ms: number): void {
    this.runUntil(this.now + ms);
  }

  /** Status updates received (optionally of one task), with their arrival time. */
  statuses(taskId?: string): (TaskStatus & { t: number })[] {
    const out: (TaskStatus & { t: number })[] = [];
    for (const r of this.received) {
      if (r.input.type === 'status' && (taskId === undefined || r.input.status.taskId === taskId)) out.push({ t: r.t, ...r.input.status });
    }
    return out;
  }

  /** `state@t` strings of a task's updates (compact for assertions). */
  timeline(taskId: string, since = 0): string[] {
    return this.statuses(taskId)
      .filter((s) => s.t >= since)
      .map((s) => `${s.state}@${s.t - since}${s.reason === undefined ? '' : ` ${s.reason}`}${s.healthy === undefined ? '' : ` healthy=${s.healthy}`}`);
  }

  /** All offers batches received, with arrival time. */
  offerBatches(): { t: number; offers: readonly Offer[] }[] {
    const out: { t: number; offers: readonly Offer[] }[] = [];
    for (const r of this.received) if (r.input.type === 'offers') out.push({ t: r.t, offers: r.input.offers });
    return out;
  }

  /** Offers received since time `since` (inclusive). */
  offersSince(since: number): Offer[] {
    return this.offerBatches().filter((b) => b.t >= since).flatMap((b) => [...b.offers]);
  }

  /** The latest offer for an agent. */
  lastOffer(agentId: string): Offer {
    const all = this.offersSince(0).filter((o) => o.agent.agentId === agentId);
    const o = all[all.length - 1];
    if (o === undefined) throw new Error(`no offer for ${agentId}`);
    return o;
  }

  inputsOfType<T extends SchedulerInput['type']>(type: T): (Extract<SchedulerInput, { type: T }> & { t: number })[] {
    const out: (Extract<SchedulerInput, { type: T }> & { t: number })[] = [];
    for (const r of this.received) if (r.input.type === type) out.push({ t: r.t, ...(r.input as Extract<SchedulerInput, { type: T }>) });
    return out;
  }
}

/** An agent with unreserved resources and optional reservations. */
export function agent(
  agentId: string,
  opts: { cpus?: number; mem?: number; disk?: number; gpus?: number; ports?: PortRange[]; reserved?: SimAgentSpec['reserved'] } = {},
): SimAgentSpec {
  return {
    agentId,
    hostname: `${agentId}.example`,
    attributes: [{ name: 'rack', type: 'text', text: 'r1' }],
    resources: { cpus: opts.cpus ?? 4, mem: opts.mem ?? 4096, disk: opts.disk ?? 10_000, gpus: opts.gpus ?? 0, ports: opts.ports ?? [[31000, 31009]] },
    reserved: opts.reserved ?? [],
  };
}

export function res(cpus: number, memMib: number, diskMib = 0, gpus = 0): ScalarResources {
  return { cpusMilli: Math.round(cpus * 1000), memMilli: Math.round(memMib * 1000), diskMilli: Math.round(diskMib * 1000), gpus };
}

export function pool(r: ScalarResources, ports: PortRange[] = [], reservedFor?: string): OfferedPool {
  return { ...(reservedFor === undefined ? {} : { reservedFor }), ...r, ports };
}

export interface TaskOpts {
  readonly runSpecId?: string;
  readonly role?: string;
  readonly resources?: ScalarResources;
  readonly hostPorts?: number[];
  readonly killGracePeriodMs?: number;
  readonly healthCheck?: Partial<HealthCheckSpec>;
  readonly containerName?: string;
}

export function taskLaunch(taskId: string, agentId: string, o: TaskOpts = {}): TaskLaunch {
  return makeTaskLaunch({
    taskId,
    agentId,
    runSpecId: o.runSpecId ?? '/app',
    ...(o.containerName === undefined ? {} : { containerName: o.containerName }),
    role: o.role ?? '*',
    resources: o.resources ?? res(0.5, 128),
    hostPorts: o.hostPorts ?? [],
    ...(o.healthCheck === undefined ? {} : { healthCheck: { check: healthCheck(o.healthCheck), port: 31000 } }),
    killGracePeriodMs: o.killGracePeriodMs ?? 3000,
  });
}

export function healthCheck(o: Partial<HealthCheckSpec> = {}): HealthCheckSpec {
  return {
    protocol: 'MESOS_HTTP',
    gracePeriodMs: 0,
    intervalMs: 10_000,
    timeoutMs: 2000,
    maxConsecutiveFailures: 3,
    delayMs: 0,
    path: '/health',
    ignoreHttp1xx: false,
    ipProtocol: 'IPv4',
    form: 'app',
    ...o,
  };
}

/** A LAUNCH operation whose allocation is exactly the task's resources (plus its host ports) from one pool. */
export function launchOp(task: TaskLaunch, reservedFor?: string, allocation?: OfferedPool[]): LaunchOperation {
  const ports: PortRange[] = task.hostPorts.filter((p) => p > 0).map((p) => [p, p]);
  return { kind: 'launch', task, allocation: allocation ?? [pool(task.resources, ports, reservedFor)] };
}

/** A LAUNCH_GROUP operation allocating the tasks and the executor from the unreserved pool. */
export function groupOp(executorId: string, tasks: TaskLaunch[], executor: ScalarResources = res(0.1, 32, 10)): LaunchOperation {
  const sum = { ...executor };
  for (const t of tasks) {
    sum.cpusMilli += t.resources.cpusMilli;
    sum.memMilli += t.resources.memMilli;
    sum.diskMilli += t.resources.diskMilli;
    sum.gpus += t.resources.gpus;
  }
  return { kind: 'launchGroup', executorId, executorResources: executor, labels: {}, networking: { mode: 'host', networks: [], portMappings: [] }, tasks, allocation: [pool(sum)] };
}

/** Start the cluster, take the first offer of `agentId`, accept it with `ops`; returns the accept time. */
export function startAndAccept(h: Harness, ops: LaunchOperation[], agentId = 'a1', refuseMs = 5000): number {
  h.cluster.start();
  h.runFor(0);
  const offer = h.lastOffer(agentId);
  h.cluster.accept(offer.offerId, ops, refuseMs);
  return h.now;
}
