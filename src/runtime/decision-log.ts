import type { MarathonEvent } from '../scheduler/model/events';
import type { InstanceAtEvent } from '../scheduler/model/instance';
import type { Clock } from '../scheduler/ports/clock';
import { decisionFields } from './decision-line';
import { DecisionReader, isUnplacedDrop, killReasonText, type Decision, type InstanceLookup } from './decision-reader';
import type { PacerLog } from './pacer-log';

/** Decisions an operator should notice: logged at `warn`, the others at `info`. */
const WARN_DECISIONS: ReadonlySet<Decision['kind']> = new Set<Decision['kind']>(['deployment-failed', 'unreachable', 'inactive', 'backoff']);

/** What the decision log reads: the core's events and, after each input, the core itself. */
export interface DecisionSource extends InstanceLookup {
  subscribe(listener: (event: MarathonEvent, instance?: InstanceAtEvent) => void): () => void;
}

/**
 * One log record per scheduling decision of the core (component `scheduler`), read by the one
 * {@link DecisionReader} the simulator's summaries use too: deployments started (each step),
 * finished or failed, launches, kills with their reason, health changes, unreachable instances and
 * their replacement, backoffs. Each record has the reader's fields (`decision`, `runSpecId`,
 * `instanceId`, `agentId`, `reason`, …) and its sentence as the message. `afterInput` must be
 * called after each input the core handled (the loop's observer): it finds what the core decided
 * without an event (an expunged unreachable instance, a launch delay).
 */
export class DecisionLog {
  private readonly reader: DecisionReader;
  private readonly log: PacerLog;
  /**
   * The input's drops of instances that never got an offer, per run spec and reason, logged in
   * {@link afterInput}: a scale-down from 100,000 to 3 drops tens of thousands at once, and one
   * record each made 28,993 lines (3.7 MB) in a second. One is logged as before; more are one
   * record with their `count`.
   */
  private readonly drops = new Map<string, { first: Decision; count: number }>();

  constructor(source: DecisionSource, clock: Clock, log: PacerLog) {
    this.reader = new DecisionReader(source, clock);
    this.log = log.child({ component: 'scheduler' });
    source.subscribe((event, instance) => {
      const decision = this.reader.read(event, instance);
      if (decision !== undefined) this.write(decision);
    });
  }

  afterInput(): void {
    for (const decision of this.reader.sweep()) this.write(decision);
    for (const { first, count } of this.drops.values()) {
      if (count === 1) logDecision(this.log, first);
      else this.log.info({ ...decisionFields(withoutInstance(first)), count }, `drop ${count} unplaced instances of ${first.runSpecId}${killReasonText(first.reason)}`);
    }
    this.drops.clear();
  }

  private write(decision: Decision): void {
    if (isUnplacedDrop(decision)) {
      const key = `${decision.runSpecId} ${decision.reason ?? ''}`;
      const drop = this.drops.get(key);
      if (drop === undefined) this.drops.set(key, { first: decision, count: 1 });
      else drop.count++;
      return;
    }
    logDecision(this.log, decision);
  }
}

/** One decision as one record of `log`, with `extra` fields (the simulator adds its virtual time `at`). */
export function logDecision(log: PacerLog, decision: Decision, extra: Readonly<Record<string, string>> = {}): void {
  const fields = { ...decisionFields(decision), ...extra };
  if (WARN_DECISIONS.has(decision.kind)) log.warn(fields, decision.text);
  else log.info(fields, decision.text);
}

function withoutInstance(decision: Decision): Decision {
  const { instanceId: _instanceId, ...rest } = decision;
  return rest;
}
