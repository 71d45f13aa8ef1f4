import { isTerminalCondition, isUnreachableCondition, type Condition } from '../scheduler/model/condition';
import type { CurrentStepJson, InstanceChangedEvent, LightPlanJson, MarathonEvent } from '../scheduler/model/events';
import type { Goal, InstanceAtEvent, KillReason } from '../scheduler/model/instance';

/** What a decision is about; the `decision` field of a JSON line. */
export type DecisionKind =
  | 'deployment' | 'deployment-finished' | 'deployment-failed'
  | 'launch' | 'running' | 'kill' | 'ended' | 'expunged' | 'unreachable' | 'inactive' | 'reachable'
  | 'health' | 'unknown-terminated' | 'deleted' | 'rejected' | 'backoff'
  /** pacer's kill-storm floor holds an unhealthy kill back, or dropped a held one as the instance passed again. */
  | 'kill-held' | 'kill-dropped';

/**
 * One scheduling decision, or a change of an instance an operator follows (placed, running,
 * unreachable, back, ended), read from the core's events. `text` is the readable sentence
 * without the time; the other fields are for machines.
 */
export interface Decision {
  readonly kind: DecisionKind;
  readonly text: string;
  readonly runSpecId?: string;
  readonly instanceId?: string;
  readonly agentId?: string;
  readonly condition?: Condition;
  readonly reason?: string;
  readonly deploymentId?: string;
  /** `backoff`: how long launches of the run spec wait. */
  readonly delayMs?: number;
}

/** What the reader asks the core about an instance when an event alone does not say why. */
export interface InstanceLookup {
  instance(instanceId: string): { readonly goal: Goal; readonly killReason?: KillReason } | undefined;
  /** The launch delay deadline of a run spec in backoff (Scheduler.backoffUntilMs); with a clock, backoffs are read. */
  backoffUntilMs?(runSpecId: string): number | undefined;
}

/** Why the scheduler killed an instance, in words (the core's {@link KillReason}). */
export const KILL_REASON_WORDS: Readonly<Record<KillReason, string>> = {
  'scale-down': 'more instances than the target',
  user: 'killed through the API',
  unhealthy: 'failed its health checks',
  replaced: 'replaced by the new version',
  deleted: 'its app or pod was deleted',
  'pod-sibling': 'another task of its pod ended',
  unknown: 'unknown to the scheduler',
};

/** `web.instance-705d41b3-b83a-…` → `web.instance-705d41b3`: instance ids as lines show them. */
export function shortInstanceId(instanceId: string): string {
  const m = /^(.*\.(?:instance|marathon)-[0-9a-f]{8})[0-9a-f-]*$/.exec(instanceId);
  return m === null ? instanceId : m[1];
}

/**
 * Conditions an instance may leave without another event: the core forgets (expunges) unreachable
 * instances when their time is up, or at once when they are killed, and does not announce it.
 */
const SILENTLY_FORGOTTEN: ReadonlySet<Condition> = new Set<Condition>(['Unreachable', 'UnreachableInactive']);

/** The first 8 characters of a deployment id. */
function shortDeploymentId(id: string): string {
  return id.slice(0, 8);
}

/**
 * Reads the core's events as decisions, one at most per event: deployments (each step, finished,
 * failed), launches (an instance placed on an agent), instances running, unreachable, inactive
 * (replaced), reachable again, kills with the reason the core recorded, ends, health changes.
 * Events that decide nothing (status updates, staging, group changes, step successes) read as
 * undefined. It remembers the last condition of each live instance to tell a goal change (the kill
 * order) from a condition change, and which kills it announced, so a kill reads once; both are
 * forgotten when the instance ends. The launch delay it announced last per run spec is forgotten
 * when the run spec is deleted (`app_terminated_event`). `lookup` (the core) gives the kill reason; {@link sweep} finds
 * the unreachable instances the core forgot without an event.
 */
export class DecisionReader {
  private readonly lastCondition = new Map<string, Condition>();
  private readonly killAnnounced = new Set<string>();
  /** Unreachable instances the core may forget silently, with their last event. */
  private readonly watched = new Map<string, InstanceChangedEvent>();
  /** Run specs an instance of which ended since the last sweep: a launch delay may have started. */
  private readonly ended = new Set<string>();
  /**
   * The launch delay deadline announced last, per run spec; forgotten when the run spec is deleted
   * (it was kept for good: one entry per app or pod id that ever backed off, so a churn of new ids
   * grew it without bound, as a soak trial of 2026-12-03 found).
   */
  private readonly backoffAnnounced = new Map<string, number>();

  /**
   * `lookup` (the core) tells kill reasons; with `clock` (the core's) and a lookup that tells
   * launch delays, {@link sweep} also reads backoffs.
   */
  constructor(private readonly lookup?: InstanceLookup, private readonly clock?: { nowMs(): number }) {}

  /** Entries this reader keeps about instances and run specs (for tests: what is gone must be forgotten). */
  get remembered(): number {
    return this.lastCondition.size + this.killAnnounced.size + this.watched.size + this.ended.size + this.backoffAnnounced.size;
  }

  read(event: MarathonEvent, instance?: InstanceAtEvent): Decision | undefined {
    switch (event.eventType) {
      case 'instance_changed_event':
        return this.instanceChanged(event, instance);
      case 'unhealthy_instance_kill_event':
        this.killAnnounced.add(event.instanceId);
        return {
          kind: 'kill', runSpecId: event.appId, instanceId: event.instanceId, agentId: event.slaveId || undefined, reason: 'unhealthy',
          text: `kill ${shortInstanceId(event.instanceId)} of ${event.appId}${onAgent(event.slaveId)}: unhealthy (${event.reason})`,
        };
      case 'pacer_unhealthy_kill_deferred_event':
        return {
          kind: 'kill-held', runSpecId: event.appId, instanceId: event.instanceId, agentId: event.slaveId || undefined, reason: 'unhealthy',
          text: `kill of ${shortInstanceId(event.instanceId)} of ${event.appId}${onAgent(event.slaveId)} held: `
            + `kill-storm floor ${event.floor} of ${event.instances} reached (${event.reason})`,
        };
      case 'pacer_unhealthy_kill_deferral_ended_event':
        // `killed` reads as the kill that follows it; `gone` as the end of the instance.
        if (event.outcome !== 'recovered') return undefined;
        return {
          kind: 'kill-dropped', runSpecId: event.appId, instanceId: event.instanceId,
          text: `held kill of ${shortInstanceId(event.instanceId)} of ${event.appId} dropped: it passed its health check again`,
        };
      case 'health_status_changed_event':
        return {
          kind: 'health', runSpecId: event.appId, instanceId: event.instanceId,
          text: `${shortInstanceId(event.instanceId)} of ${event.appId} ${event.alive ? 'healthy' : 'unhealthy'}`,
        };
      case 'deployment_info':
        return deploymentStep(event.plan, event.currentStep);
      case 'deployment_success':
        return { kind: 'deployment-finished', deploymentId: event.id, text: `deployment ${shortDeploymentId(event.id)} finished` };
      case 'deployment_failed':
        return {
          kind: 'deployment-failed', deploymentId: event.id, ...(event.reason === undefined ? {} : { reason: event.reason }),
          text: `deployment ${shortDeploymentId(event.id)} failed${event.reason === undefined ? '' : `: ${event.reason}`}`,
        };
      case 'unknown_instance_terminated_event':
        return {
          kind: 'unknown-terminated', runSpecId: event.runSpecId, instanceId: event.instanceId, condition: event.condition,
          text: `unknown ${shortInstanceId(event.instanceId)} of ${event.runSpecId} killed (${event.condition})`,
        };
      case 'app_terminated_event':
        // Sent for apps and pods alike: what this reader keeps per run spec goes with it.
        this.backoffAnnounced.delete(event.appId);
        this.ended.delete(event.appId);
        return { kind: 'deleted', runSpecId: event.appId, text: `${event.appId} deleted` };
      default:
        return undefined;
    }
  }

  /**
   * The instances this reader follows that the core no longer knows, as `expunged` decisions (an
   * unreachable instance past its `expungeAfterSeconds`, or killed while it could not answer).
   * Call it after each input the core handled; it asks the lookup about unreachable instances only.
   */
  sweep(): Decision[] {
    const lookup = this.lookup;
    const backoffs = this.backoffs();
    if (lookup === undefined || this.watched.size === 0) return backoffs;
    const gone: Decision[] = backoffs;
    for (const [id, event] of this.watched) {
      if (lookup.instance(id) !== undefined) continue;
      this.forget(id);
      gone.push(this.about(event, 'expunged', { tail: 'expunged' }));
    }
    return gone;
  }

  /**
   * Launch delays (Marathon's backoff) that started or grew since the last sweep, for run specs
   * whose instances ended: the core announces no event for them (nor does Marathon; it logs them).
   */
  private backoffs(): Decision[] {
    const untilOf = this.lookup?.backoffUntilMs?.bind(this.lookup);
    const clock = this.clock;
    const out: Decision[] = [];
    if (untilOf !== undefined && clock !== undefined) {
      for (const runSpecId of this.ended) {
        const untilMs = untilOf(runSpecId);
        if (untilMs === undefined || untilMs === this.backoffAnnounced.get(runSpecId)) continue;
        this.backoffAnnounced.set(runSpecId, untilMs);
        const delayMs = Math.max(0, untilMs - clock.nowMs());
        out.push({ kind: 'backoff', runSpecId, delayMs, text: `launches of ${runSpecId} delayed ${delayMs / 1000}s (backoff after a failure)` });
      }
    }
    this.ended.clear();
    return out;
  }

  /** The instance's goal and kill reason as of the event: as the core delivered them, else the lookup's. */
  private facts(id: string, instance: InstanceAtEvent | undefined): { readonly goal: Goal; readonly killReason?: KillReason } | undefined {
    return instance ?? this.lookup?.instance(id);
  }

  private forget(id: string): void {
    this.lastCondition.delete(id);
    this.killAnnounced.delete(id);
    this.watched.delete(id);
  }

  /**
   * `instance`: its goal and kill reason when the core decided the event; without it (a source
   * that does not say) the lookup is asked, when needed.
   */
  private instanceChanged(event: InstanceChangedEvent, instance: InstanceAtEvent | undefined): Decision | undefined {
    const id = event.instanceId;
    const previous = this.lastCondition.get(id);
    const condition = event.condition;
    if (SILENTLY_FORGOTTEN.has(condition)) this.watched.set(id, event);
    else this.watched.delete(id);
    if (isTerminalCondition(condition)) {
      if (this.clock !== undefined) this.ended.add(event.runSpecId);
      const announced = this.killAnnounced.has(id);
      this.forget(id);
      return this.about(event, 'ended', { tail: condition, reason: announced ? undefined : this.facts(id, instance)?.killReason });
    }
    this.lastCondition.set(id, condition);
    if (previous === condition) return this.goalChanged(event, instance);
    switch (condition) {
      case 'Provisioned':
        return this.about(event, 'launch', { lead: 'launch' });
      case 'Running':
        return previous !== undefined && isUnreachableCondition(previous)
          ? this.about(event, 'reachable', { tail: 'reachable again' })
          : this.about(event, 'running', { tail: 'running' });
      case 'Unreachable':
        return this.about(event, 'unreachable', { tail: 'unreachable' });
      case 'UnreachableInactive':
        return this.about(event, 'inactive', { tail: 'unreachable inactive: replaced' });
      case 'Killing':
        return this.killOrder(event, instance);
      case 'Scheduled':
        // An unplaced instance this reader saw no event of before (waiting when a what-if forked,
        // or recovered): its drop comes as its first event, Scheduled with a goal other than Running.
        // Only as the core delivered it: a lookup answers for now, not for the event, and would read
        // the creation of an instance dropped in the same input as a second drop.
        return instance === undefined ? undefined : this.goalChanged(event, instance);
      default:
        return undefined;
    }
  }

  /** The same condition again: the goal changed. A goal other than Running is the kill order. */
  private goalChanged(event: InstanceChangedEvent, instance: InstanceAtEvent | undefined): Decision | undefined {
    const goal = this.facts(event.instanceId, instance)?.goal;
    return goal === undefined || goal === 'Running' ? undefined : this.killOrder(event, instance);
  }

  /** A kill, once per instance; an instance still waiting for an offer is dropped (and forgotten). */
  private killOrder(event: InstanceChangedEvent, instance: InstanceAtEvent | undefined): Decision | undefined {
    const id = event.instanceId;
    if (this.killAnnounced.has(id)) return undefined;
    const reason = this.facts(id, instance)?.killReason;
    if (event.condition === 'Scheduled') {
      this.forget(id);
      return this.about(event, 'kill', { lead: 'drop unplaced', reason });
    }
    this.killAnnounced.add(id);
    return this.about(event, 'kill', { lead: 'kill', reason });
  }

  /** `[lead] <instance> of <run spec> [on <agent>] [tail][: <reason> (<why>)]`. */
  private about(event: InstanceChangedEvent, kind: DecisionKind, words: { lead?: string; tail?: string; reason?: KillReason }): Decision {
    const { lead, tail, reason } = words;
    const text = `${lead === undefined ? '' : `${lead} `}${shortInstanceId(event.instanceId)} of ${event.runSpecId}${onAgent(event.agentId)}`
      + `${tail === undefined ? '' : ` ${tail}`}${killReasonText(reason)}`;
    return {
      kind, text, runSpecId: event.runSpecId, instanceId: event.instanceId, condition: event.condition,
      ...(event.agentId === null ? {} : { agentId: event.agentId }),
      ...(reason === undefined ? {} : { reason }),
    };
  }
}

/**
 * Whether `decision` is the drop of an instance that never got an offer (`drop unplaced …`, from
 * {@link DecisionReader}'s kill order of a Scheduled instance): its event keeps the condition
 * Scheduled, as Marathon's expunge event carries the last one. The decision log, the simulator's
 * summary and its report group or end instances by it.
 */
export function isUnplacedDrop(decision: Decision): boolean {
  return decision.kind === 'kill' && decision.condition === 'Scheduled';
}

/** `: scale-down (more instances than the target)`, how a decision's text ends with its kill reason; '' without one. */
export function killReasonText(reason: string | undefined): string {
  if (reason === undefined) return '';
  const words = (KILL_REASON_WORDS as Readonly<Record<string, string>>)[reason];
  return words === undefined ? `: ${reason}` : `: ${reason} (${words})`;
}

function onAgent(agentId: string | null | undefined): string {
  return agentId === null || agentId === undefined || agentId === '' ? '' : ` on ${agentId}`;
}

/** `deployment_info` (a step starts): `deployment 8a820388 step 1/2: ScaleApplication /web`. */
function deploymentStep(plan: LightPlanJson, step: CurrentStepJson): Decision {
  const key = (actions: readonly Readonly<Record<string, string>>[]) => actions.map((a) => `${a.action} ${a.app ?? a.pod}`).join(', ');
  const current = key(step.actions);
  const index = plan.steps.findIndex((s) => key(s.actions) === current);
  return {
    kind: 'deployment', deploymentId: plan.id,
    text: `deployment ${shortDeploymentId(plan.id)} step ${index + 1}/${plan.steps.length}: ${current}`,
  };
}
