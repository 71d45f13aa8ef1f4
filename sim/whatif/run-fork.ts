import { HeapLoop, Scheduler } from '../../src/scheduler/index';
import type { MarathonEvent } from '../../src/scheduler/model/events';
import type { Command, CommandResult, SchedulerInput } from '../../src/scheduler/model/inputs';
import type { NoMatchReason } from '../../src/scheduler/model/no-match-reason';
import type { StoredState } from '../../src/scheduler/ports/store';
import { MemoryStore } from '../../src/store/memory-store';
import { DecisionReader } from '../../src/runtime/decision-reader';
import { SimCluster } from '../cluster/sim-cluster';
import { DEFAULT_SIM_TIMINGS } from '../cluster/sim-models';
import { SimProber } from '../cluster/sim-prober';
import type { SimEvent } from '../cluster/sim-event';
import type { LoopItem } from '../loop-item';
import type { SimContext } from '../sim-context';
import { createWorldStreams } from '../world';
import { adoptedTasksOf } from './adopted-tasks';
import type { ForkState } from './fork-state';

/** Bounds of one fork run besides its virtual duration. */
export interface ForkBudget {
  /** Loop entries at most (a bound independent of the machine). */
  readonly maxSteps: number;
  /** Asked every 256 entries: true stops the run (the caller's wall-time budget). */
  overBudget(): boolean;
}

/** A new instance placed on an agent (or an existing one placed again after it ended). */
export interface ForkLaunch {
  readonly instanceId: string;
  readonly runSpecId: string;
  readonly agentId: string;
  readonly hostname: string;
  /** ms after the change. */
  readonly afterMs: number;
}

/** An instance the core decided to kill (or a waiting one it dropped), and why. */
export interface ForkKill {
  readonly instanceId: string;
  readonly runSpecId: string;
  readonly agentId?: string;
  /** The core's kill reason (`replaced`, `scale-down`, `deleted`, `unhealthy`, …). */
  readonly reason?: string;
  readonly afterMs: number;
}

/** A run spec with instances still waiting for an offer when the fork stopped, and why offers did not fit. */
export interface ForkWaiting {
  readonly runSpecId: string;
  readonly instances: number;
  /** The core's offer rejection counts (NoOfferMatchReason, as `/v2/queue` shows them) during the fork. */
  readonly reasons: Partial<Record<NoMatchReason, number>>;
  /** Launches delayed (backoff) until this many ms after the change. */
  readonly backoffAfterMs?: number;
}

/** `finished`, `failed`, `running` at the end of the fork, or `none` (the change started no deployment). */
export type ForkDeployment = 'finished' | 'failed' | 'running' | 'none';

/**
 * How far a fork ran: every fork answer carries it (the run's outcome here, and the what-if and
 * capacity answers of src/whatif/what-if.ts), so the fields are declared once.
 */
export interface ForkExtent {
  /** Virtual ms the fork covered. */
  readonly simulatedMs: number;
  /** Set when the fork stopped on its budget (docs/limits.md), before its duration or the deployment's end. */
  readonly stoppedBy?: 'wall-time' | 'steps';
}

/** What a fork run found. Times are ms after the change was applied, in the fork's virtual time. */
export interface ForkOutcome extends ForkExtent {
  /** The fork's core answer to the command (a refusal is what the live core would answer). */
  readonly result: CommandResult;
  readonly deployment: ForkDeployment;
  readonly finishedAfterMs?: number;
  readonly failure?: string;
  readonly launches: readonly ForkLaunch[];
  readonly kills: readonly ForkKill[];
  readonly waiting: readonly ForkWaiting[];
  readonly steps: number;
  /** The fork's simulated cluster (agents, what runs where) and core at the end, for callers that look further (tests, capacity). */
  readonly scheduler: Scheduler;
  readonly cluster: SimCluster;
}

/** When a fork stops: the deployment ended, or `untilMs`, or its budget. */
export interface ForkRunOptions {
  readonly durationMs: number;
  readonly budget: ForkBudget;
  /**
   * Stop early when true (asked after every entry): default, when the change's deployment ended.
   * A change that started none (a kill without `scale`) runs the whole duration: its kills,
   * replacements and their launches come over the following entries, not in the command's own.
   * Capacity questions stop when the queue no longer moves.
   */
  readonly done?: (view: ForkView) => boolean;
}

/** What `done` may look at. */
export interface ForkView {
  readonly scheduler: Scheduler;
  readonly deployment: ForkDeployment;
  /** ms after the change. */
  readonly afterMs: number;
  readonly lastLaunchAfterMs: number | undefined;
}

/**
 * Runs a change on a fork of a live cluster (issue 18, "what if"): the same scheduler core as
 * production recovers from `fork.stored` (as after a restart), on the simulated master and agents
 * (`sim/cluster`) built from `fork.agents` with every placed instance's tasks adopted, in virtual
 * time starting at `fork.atMs`. `command` is handled at once, then the loop runs until the change's
 * deployment ended, `durationMs` passed, or the budget ran out. Nothing leaves the fork: its store
 * is in memory, its driver is the simulated master. Deterministic for the same fork, command and
 * seed (the budget aside).
 */
export function runFork(fork: ForkState, command: Command, options: ForkRunOptions): ForkOutcome {
  let nowMs = fork.atMs;
  const loop = new HeapLoop<LoopItem>();
  const ctx: SimContext = {
    nowMs: () => nowMs,
    toCore: (dueMs: number, input: SchedulerInput) => loop.post(dueMs, { to: 'core', input }),
    schedule: (dueMs: number, event: SimEvent) => loop.schedule(dueMs, { to: 'sim', event }),
    cancel: (id: number) => loop.cancel(id),
    streams: createWorldStreams(fork.seed ?? 1),
    trace: () => undefined,
  };
  const timings = fork.timings ?? DEFAULT_SIM_TIMINGS;
  const cluster = new SimCluster(ctx, [], { timings, taskKilling: fork.options.taskKilling ?? false });
  for (const agent of fork.agents) cluster.addForkAgent(agent.info, agent.pools);
  const specs = new Map(fork.stored.runSpecs.map((s) => [s.id, s]));
  const hasPool = (agentId: string, role: string): boolean => cluster.agentCapacity(agentId).some((p) => p.reservedFor === role && p.reservationId === undefined);
  for (const inst of fork.stored.instances) {
    const adopted = adoptedTasksOf(inst, specs.get(inst.runSpecId), hasPool);
    if (adopted !== undefined) cluster.adoptTasks(adopted);
  }
  const store = new MemoryStore();
  const stored: StoredState = fork.stored;
  store.load = () => stored;
  const scheduler = new Scheduler({
    clock: { nowMs: () => nowMs }, random: ctx.streams.ids,
    timers: { schedule: (dueMs, input) => loop.schedule(dueMs, { to: 'core', input }), cancel: (id) => loop.cancel(id) },
    driver: cluster, store, prober: new SimProber(ctx, cluster),
  }, fork.options);

  const reader = new DecisionReader(scheduler, { nowMs: () => nowMs });
  const launches: ForkLaunch[] = [];
  const kills: ForkKill[] = [];
  const killed = new Set<string>();
  let deployment: ForkOutcome['deployment'] = 'none';
  let deploymentId: string | undefined;
  let finishedAfterMs: number | undefined;
  let failure: string | undefined;
  const hostnames = new Map(fork.agents.map((a) => [a.info.agentId, a.info.hostname]));
  const after = (): number => nowMs - fork.atMs;
  scheduler.subscribe((event: MarathonEvent, instance) => {
    const d = reader.read(event, instance);
    if (d === undefined) return;
    if (d.kind === 'launch' && d.instanceId !== undefined && d.runSpecId !== undefined && d.agentId !== undefined) {
      launches.push({ instanceId: d.instanceId, runSpecId: d.runSpecId, agentId: d.agentId, hostname: hostnames.get(d.agentId) ?? d.agentId, afterMs: after() });
    } else if ((d.kind === 'kill' || (d.kind === 'ended' && d.reason !== undefined)) && d.instanceId !== undefined && d.runSpecId !== undefined) {
      // A kill reads as `kill` when the instance is seen going to Killing, else as its end with the kill reason.
      if (killed.has(d.instanceId)) return;
      killed.add(d.instanceId);
      kills.push({ instanceId: d.instanceId, runSpecId: d.runSpecId, ...(d.agentId === undefined ? {} : { agentId: d.agentId }), ...(d.reason === undefined ? {} : { reason: d.reason }), afterMs: after() });
    } else if ((d.kind === 'deployment-finished' || d.kind === 'deployment-failed') && d.deploymentId === deploymentId && deployment === 'running') {
      deployment = d.kind === 'deployment-finished' ? 'finished' : 'failed';
      finishedAfterMs = after();
      if (d.reason !== undefined) failure = d.reason;
    }
  });

  cluster.start();
  const result = scheduler.handle(command) ?? { ok: true };
  if (result.ok && result.deploymentId !== undefined) {
    deploymentId = result.deploymentId;
    deployment = scheduler.runningPlans().some((p) => p.id === deploymentId) ? 'running' : 'finished';
    if (deployment === 'finished') finishedAfterMs = 0;
  }
  const done = options.done ?? ((v: ForkView) => v.deployment === 'finished' || v.deployment === 'failed');
  const endMs = fork.atMs + options.durationMs;
  let steps = 0;
  let stoppedBy: ForkOutcome['stoppedBy'];
  const view = (): ForkView => ({ scheduler, deployment, afterMs: after(), lastLaunchAfterMs: launches.at(-1)?.afterMs });
  if (result.ok) {
    while (!done(view())) {
      if (steps >= options.budget.maxSteps) {
        stoppedBy = 'steps';
        break;
      }
      if ((steps & 255) === 255 && options.budget.overBudget()) {
        stoppedBy = 'wall-time';
        break;
      }
      const entry = loop.popDue(endMs);
      if (entry === undefined) {
        nowMs = endMs;
        break;
      }
      nowMs = Math.max(nowMs, entry.dueMs);
      steps++;
      const item = entry.input;
      if (item.to === 'core') scheduler.handle(item.input);
      else cluster.onEvent(item.event);
    }
  }
  const waiting = scheduler.queue().map((q) => ({
    runSpecId: q.runSpec.id, instances: q.scheduled, reasons: q.stats.byReason(),
    ...(q.backoffUntilMs === undefined ? {} : { backoffAfterMs: q.backoffUntilMs - fork.atMs }),
  }));
  return {
    result, deployment, ...(finishedAfterMs === undefined ? {} : { finishedAfterMs }), ...(failure === undefined ? {} : { failure }),
    launches, kills, waiting, simulatedMs: after(), ...(stoppedBy === undefined ? {} : { stoppedBy }), steps, scheduler, cluster,
  };
}
