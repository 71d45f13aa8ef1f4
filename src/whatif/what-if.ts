import { performance } from 'node:perf_hooks';
import type { Command, CommandResult } from '../scheduler/model/inputs';
import { type Scheduler, isoTime } from '../scheduler/index';
import type { SimTimings } from '../../sim/cluster/sim-models';
import { DEFAULT_SIM_TIMINGS } from '../../sim/cluster/sim-models';
import { runFork, type ForkBudget, type ForkDeployment, type ForkExtent, type ForkKill, type ForkLaunch, type ForkWaiting } from '../../sim/whatif/run-fork';
import type { ForkState } from '../../sim/whatif/fork-state';
import type { LastOffer } from './last-offers';
import { takeFork } from './take-fork';
import { DEFAULT_WHAT_IF_LIMITS, isoDuration, WhatIfRefused, type WhatIfLimits } from './what-if-limits';

/** What a what-if fork is taken from: the live core, the last offer per agent, the live clock. */
export interface WhatIfSource {
  readonly scheduler: Scheduler;
  lastOffers(): readonly LastOffer[];
  nowMs(): number;
  /** How the fork's simulated agents behave; default the simulator's timings. */
  readonly timings?: SimTimings;
}

/** The answer to a simulated change (`?dryRun=true&simulate=PT30M`), as the API sends it. */
export interface WhatIfAnswer extends ForkExtent {
  /** The live instant the fork was taken at. */
  readonly forkedAt: string;
  readonly simulate: string;
  /** The deployment the change started in the fork (ids are the fork's, not the live cluster's). */
  readonly deploymentId?: string;
  readonly version?: string;
  /** `finished`, `failed`, `running` (not finished within `simulate`), or `none` (the change deploys nothing). */
  readonly deployment: ForkDeployment;
  readonly finished: boolean;
  readonly finishedAfter?: string;
  readonly finishedAfterMs?: number;
  readonly failure?: string;
  /** Each instance placed, on which agent, how long after the change. */
  readonly launched: readonly ForkLaunch[];
  /** Each instance the core would kill, and why. */
  readonly killed: readonly ForkKill[];
  /** What still waits for an offer at the end, and the queue's rejection reasons. */
  readonly waiting: readonly ForkWaiting[];
  readonly agents: number;
}

/** The answer to a capacity question (`GET /v2/capacity?app=/id`). */
export interface CapacityAnswer extends ForkExtent {
  readonly forkedAt: string;
  readonly id: string;
  /** Instances the definition has now. */
  readonly instances: number;
  /** How many more instances of the definition were placed in the fork. */
  readonly fits: number;
  /** The most that were tried; `fits == tried` means at least that many fit. */
  readonly tried: number;
  /** Where they were placed: agent id → count. */
  readonly byAgent: Readonly<Record<string, number>>;
  /** Why the rest did not fit (the queue's rejection reasons). */
  readonly reasons: ForkWaiting['reasons'];
}

/** A refused change: the core's answer in the fork, which the API turns into the same error as the live write. */
export interface WhatIfCommandRefused {
  readonly refused: Extract<CommandResult, { ok: false }>;
}

/**
 * What-if questions on a fork of the live cluster (issue 18; docs/what-if.md): each question
 * takes a fresh fork ({@link takeFork}: a copy of the core's state and agents from the last offer
 * per agent), runs it in the simulator (sim/whatif/run-fork.ts: the same core, in virtual time)
 * and reads the answer. Nothing reaches the live core, its store or its cluster. Bounded by
 * {@link WhatIfLimits}; a fork that cannot be taken throws {@link WhatIfRefused}.
 */
export class WhatIf {
  readonly limits: WhatIfLimits;

  constructor(private readonly source: WhatIfSource, limits: Partial<WhatIfLimits> = {}) {
    this.limits = { ...DEFAULT_WHAT_IF_LIMITS, ...limits };
  }

  /** The fork a question would start from (tests and the scenario comparison read it). */
  fork(): ForkState {
    const fork = takeFork(this.source.scheduler, this.source.lastOffers(), this.source.nowMs(), this.limits);
    return this.source.timings === undefined ? fork : { ...fork, timings: this.source.timings };
  }

  /** Applies `command` to a fork and runs it for `durationMs` of virtual time at most. */
  simulate(command: Command, durationMs: number): WhatIfAnswer | WhatIfCommandRefused {
    const fork = this.fork();
    const out = runFork(fork, command, { durationMs, budget: this.budget() });
    if (!out.result.ok) return { refused: out.result };
    return {
      forkedAt: isoTime(fork.atMs), simulate: isoDuration(durationMs),
      ...(out.result.deploymentId === undefined ? {} : { deploymentId: out.result.deploymentId }),
      ...(out.result.version === undefined ? {} : { version: out.result.version }),
      deployment: out.deployment, finished: out.deployment === 'finished',
      ...(out.finishedAfterMs === undefined ? {} : { finishedAfter: isoDuration(out.finishedAfterMs), finishedAfterMs: out.finishedAfterMs }),
      ...(out.failure === undefined ? {} : { failure: out.failure }),
      launched: out.launches, killed: out.kills, waiting: out.waiting, simulatedMs: out.simulatedMs,
      ...(out.stoppedBy === undefined ? {} : { stoppedBy: out.stoppedBy }), agents: fork.agents.length,
    };
  }

  /**
   * How many more instances of the run spec `id` fit: the fork scales it up by
   * `maxCapacityInstances` (forced past a running deployment) and counts the instances placed
   * until placements stop for three refuse periods (or `capacityMs` passes). Undefined for an
   * unknown run spec.
   */
  capacity(id: string): CapacityAnswer | undefined {
    const spec = this.source.scheduler.runSpec(id);
    if (spec === undefined) return undefined;
    const fork = this.fork();
    const tried = this.limits.maxCapacityInstances;
    const options = this.source.scheduler.options();
    const stallMs = 3 * Math.max((fork.timings ?? DEFAULT_SIM_TIMINGS).offerIntervalMs, options.acceptRefuseMs, 1000);
    const out = runFork(fork, { type: 'scale', runSpecId: id, instances: spec.instances + tried, force: true }, {
      durationMs: this.limits.capacityMs, budget: this.budget(),
      done: (v) => v.afterMs - (v.lastLaunchAfterMs ?? 0) > stallMs,
    });
    const placed = new Map<string, string>();
    for (const l of out.launches) if (l.runSpecId === id) placed.set(l.instanceId, l.agentId);
    const before = new Set(fork.stored.instances.filter((i) => i.runSpecId === id && i.condition !== 'Scheduled').map((i) => i.instanceId));
    const byAgent: Record<string, number> = {};
    let fits = 0;
    for (const [instanceId, agentId] of placed) {
      if (before.has(instanceId)) continue;
      fits++;
      byAgent[agentId] = (byAgent[agentId] ?? 0) + 1;
    }
    return {
      forkedAt: isoTime(fork.atMs), id, instances: spec.instances, fits: Math.min(fits, tried), tried, byAgent,
      reasons: out.waiting.find((w) => w.runSpecId === id)?.reasons ?? {}, simulatedMs: out.simulatedMs,
      ...(out.stoppedBy === undefined ? {} : { stoppedBy: out.stoppedBy }),
    };
  }

  private budget(): ForkBudget {
    const deadline = performance.now() + this.limits.wallTimeMs;
    return { maxSteps: this.limits.maxSteps, overBudget: () => performance.now() > deadline };
  }
}

export { WhatIfRefused };
