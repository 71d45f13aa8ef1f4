import type { MarathonEvent } from '../../src/scheduler/model/events';
import type { LaunchOperation } from '../../src/scheduler/model/launch';
import type { Scheduler } from '../../src/scheduler/scheduler';
import { BackoffOracle } from './backoff-oracle';
import { constraintsHold } from './constraints-hold';

/** What the checker needs to know of the simulated cluster's books. */
export interface ClusterBooks {
  /** Violations the cluster detected itself (a launch exceeding its offer). */
  readonly violations: readonly string[];
  /** A description of how the agent is over-committed, or undefined. */
  overcommitted(agentId: string): string | undefined;
}

/**
 * Invariants checked after every step of a run (architecture §3, issue: no agent over-committed;
 * constraints hold for every placement; no launch before its backoff deadline; all tasks of a pod
 * instance on one agent; counts converge within a bound). Checks are incremental: only what the
 * step touched is re-examined. The first violation ends the run.
 */
export class InvariantChecker {
  readonly backoff = new BackoffOracle();
  private readonly touchedAgents = new Set<string>();
  private readonly touchedRunSpecs = new Set<string>();
  private clusterViolationsSeen = 0;
  private pending: string[] = [];
  private lastDisturbanceMs = 0;
  private lastConvergenceCheckMs = -1;

  constructor(
    private readonly scheduler: Scheduler,
    private readonly books: ClusterBooks,
    private readonly convergeWithinMs: number | undefined,
  ) {}

  /** A driver accept went out: check pod atomicity and backoff now, resources and constraints at step end. */
  onAccept(operations: readonly LaunchOperation[], nowMs: number): void {
    for (const op of operations) {
      const tasks = op.kind === 'launch' ? [op.task] : op.tasks;
      const agentId = tasks[0].agentId;
      this.touchedAgents.add(agentId);
      for (const t of tasks) {
        if (t.agentId !== agentId) this.pending.push(`pod instance ${t.instanceId} split across agents ${agentId} and ${t.agentId}`);
      }
      const spec = tasks[0].spec;
      this.touchedRunSpecs.add(spec.id);
      const late = this.backoff.checkLaunch(spec, nowMs);
      if (late !== undefined) this.pending.push(late);
    }
  }

  onEvent(event: MarathonEvent, nowMs: number): void {
    this.backoff.onEvent(event, nowMs, (id) => this.scheduler.runSpec(id));
  }

  /** A command or fault changed the world: convergence is measured from here. */
  disturbed(nowMs: number): void {
    this.lastDisturbanceMs = nowMs;
  }

  /** Run after every loop step; returns the violations found (empty when all hold). */
  afterStep(nowMs: number): string[] {
    this.backoff.endStep();
    const found = this.pending;
    this.pending = [];
    const v = this.books.violations;
    for (; this.clusterViolationsSeen < v.length; this.clusterViolationsSeen++) found.push(v[this.clusterViolationsSeen]);
    for (const agentId of this.touchedAgents) {
      const over = this.books.overcommitted(agentId);
      if (over !== undefined) found.push(over);
    }
    this.touchedAgents.clear();
    for (const id of this.touchedRunSpecs) {
      const broken = this.constraintViolation(id);
      if (broken !== undefined) found.push(broken);
    }
    this.touchedRunSpecs.clear();
    if (this.convergeWithinMs !== undefined && nowMs - this.lastConvergenceCheckMs >= 1000) {
      this.lastConvergenceCheckMs = nowMs;
      found.push(...this.convergence(nowMs));
    }
    return found;
  }

  private constraintViolation(runSpecId: string): string | undefined {
    const spec = this.scheduler.runSpec(runSpecId);
    if (spec === undefined || spec.constraints.length === 0) return undefined;
    const agents = this.scheduler.instances(runSpecId)
      .filter((i) => i.agent !== undefined && !TERMINAL.has(i.condition) && i.goal === 'Running')
      .map((i) => i.agent!);
    const broken = constraintsHold(spec.constraints, agents);
    return broken === undefined ? undefined : `constraint violated by ${runSpecId}: ${broken}`;
  }

  private convergence(nowMs: number): string[] {
    const bound = this.convergeWithinMs as number;
    if (nowMs - this.lastDisturbanceMs <= bound) return [];
    const out: string[] = [];
    for (const spec of this.scheduler.runSpecs()) {
      const running = this.scheduler.instances(spec.id).filter((i) => i.condition === 'Running' && i.goal === 'Running').length;
      if (running !== spec.instances) {
        out.push(`${spec.id} has ${running} running instances, target ${spec.instances}, ${nowMs - this.lastDisturbanceMs} ms after the last disturbance (bound ${bound} ms)`);
      }
    }
    return out;
  }
}

const TERMINAL = new Set(['Killed', 'Finished', 'Failed', 'Error', 'Gone', 'Dropped', 'Unknown']);
