import type { InstanceContext } from './instance-context';
import { combineTaskConditions, isTerminalCondition, isUnreachableCondition, type Condition } from '../model/condition';
import type { TaskStatus } from '../model/inputs';
import type { Instance, Task } from '../model/instance';
import { FAILURE_STATES } from '../model/task-failure';
import { isTerminalTaskState } from '../model/task-state';
import type { RunSpecState } from '../state/run-spec-state';
import { recordLaunchFailure } from './backoff';
import { converge } from './converge';
import { finishDeleteIfDone } from './finish-delete';
import { rescheduleInstance, retireInstance } from './instance-lifecycle';
import { clearUnreachable, markStarted, setCondition, setKillReason, setReservation, type TaskChange } from './instance-tracker';
import { recordTaskFailure } from './record-task-failure';
import { onAgentVerdict } from '../health/agent-health';
import { hasAgentCheck, refreshInstanceHealth } from '../health/instance-health';
import { startHealthChecks } from '../health/scheduler-health';
import { killUnhealthy } from '../health/unhealthy-kill';
import { sendKills } from '../kill/kill-instance';
import { startReadiness } from '../readiness/readiness-checks';
import { onBecameUnreachable, unreachableConditionOf } from '../unreachable/unreachable';

/**
 * One status update of a known task of a run spec the core runs, as the handlers see it: what the
 * tracker applied (instance-tracker.ts `applyTaskStatus`) and what the instance was before. The
 * condition handler fills in `became` and `conditionChanged`; the terminal ones decide `relaunch`.
 */
export interface StatusChange extends TaskChange {
  readonly rs: RunSpecState;
  readonly inst: Instance;
  readonly task: Task;
  readonly status: TaskStatus;
  /** The instance's condition before the update. */
  readonly before: Condition;
  /** The condition the update gave the instance (before any handler reacted to it). */
  became: Condition;
  conditionChanged: boolean;
  /** Terminal and to run again (set by `retire`; read by `backoff` and `relaunch`). */
  relaunch: boolean;
}

/** One reaction to a status update: `when` it applies, and what it does. */
export interface StatusHandler {
  readonly name: string;
  readonly when: (ctx: InstanceContext, change: StatusChange) => boolean;
  readonly run: (ctx: InstanceContext, change: StatusChange) => void;
}

const becameTerminal = (change: StatusChange): boolean => change.conditionChanged && isTerminalCondition(change.became);

/**
 * What happens after a status update, in this order, each handler once per update (docs/architecture.md,
 * "The instance tracker"). The order is part of pacer's behaviour — events, kills, timers and
 * launches come out in it, and the scenarios' trace hashes hold it:
 *
 *  1. reservation   a first launch's reservation is confirmed (or forgotten: placed afresh)
 *  2. task failure  the run spec's `lastTaskFailure`
 *  3. condition     the instance's condition from its tasks (`instance_changed_event`); one becoming
 *                   unreachable past its inactive deadline is UnreachableInactive at once
 *  4. unreachable   became Unreachable (or UnreachableInactive): the unreachable strategy (replace,
 *                   expunge; timers)
 *  5. checks end    became terminal: its health and readiness check state is forgotten (a held
 *                   unhealthy kill of it ends)
 *  6. agent kill    terminal, killed by the agent for an agent-run health check: unhealthy kill events
 *  7. retire        terminal, not to run again (goal, delete, replaced): retired or expunged, a
 *                   delete may finish, the run spec converges
 *  8. backoff       terminal, to run again: a launch failure delays the relaunch, unless we killed
 *                   it (a user's kill, a replacement)
 *  9. relaunch      terminal, to run again: queued again (same id, next incarnation), converge
 * 10. reachable     reachable again after Unreachable: the replacement's surplus converges away
 * 11. running       became Running: start time, scheduler-run health checks, readiness checks
 * 12. agent health  a current instance's agent-run verdict: instance health, check results, events
 * 13. pod sibling   a pod's task ended while the instance is being killed: its other tasks are killed
 *
 * `status_update_event` goes before all of them (fact 107: right before the instance change), also
 * for an instance whose run spec is gone; the handlers run only for a run spec the core runs.
 */
export const STATUS_HANDLERS: readonly StatusHandler[] = [
  {
    name: 'reservation',
    when: (_ctx, c) => c.inst.reservation?.unconfirmed === true,
    run: (ctx, c) => confirmReservation(ctx, c.inst, c.status),
  },
  {
    name: 'task failure',
    when: (_ctx, c) => c.stateChanged && FAILURE_STATES.has(c.status.state),
    run: (ctx, c) => recordTaskFailure(ctx, c.rs, c.inst, c.task.taskId, c.status.state, c.task.message ?? '', ctx.clock.nowMs()),
  },
  {
    name: 'condition',
    when: () => true,
    run: (ctx, c) => {
      c.became = instanceCondition(c.inst);
      if (c.became === 'Unreachable') c.became = unreachableConditionOf(ctx, c.rs, c.inst, c.status.unreachableSinceMs);
      c.conditionChanged = c.became !== c.before;
      if (c.conditionChanged) setCondition(ctx, c.rs, c.inst, c.became);
    },
  },
  {
    name: 'unreachable',
    when: (_ctx, c) => c.conditionChanged && isUnreachableCondition(c.became) && !isUnreachableCondition(c.before),
    run: (ctx, c) => onBecameUnreachable(ctx, c.rs, c.inst, c.status.unreachableSinceMs),
  },
  {
    name: 'checks end',
    when: (_ctx, c) => becameTerminal(c),
    run: (ctx, c) => ctx.health.forget(ctx, c.inst),
  },
  {
    name: 'agent kill',
    when: (_ctx, c) => becameTerminal(c) && c.status.state === 'TASK_KILLED' && c.status.healthy === false && c.inst.killReason === undefined
      && hasAgentCheck(c.rs.spec, c.task.containerName),
    run: (ctx, c) => killUnhealthy(ctx, c.rs, c.inst, 'health check failed on the agent', true),
  },
  {
    // UnreachableInactive before: a replacement already fills its place, so it is forgotten rather
    // than relaunched (relaunching would only create a surplus to kill, and its backoff would delay
    // the replacement).
    name: 'retire',
    when: (_ctx, c) => becameTerminal(c),
    run: (ctx, c) => {
      c.relaunch = c.inst.goal === 'Running' && !c.rs.deleting && c.before !== 'UnreachableInactive';
      if (c.relaunch) return;
      retireInstance(ctx, c.rs, c.inst);
      finishDeleteIfDone(ctx, c.rs);
      if (!c.rs.deleting) converge(ctx, c.rs);
    },
  },
  {
    // Kills we or the user asked for are not launch failures (no backoff for the relaunch).
    name: 'backoff',
    when: (_ctx, c) => c.relaunch && c.inst.killReason !== 'user' && c.inst.killReason !== 'replaced',
    run: (ctx, c) => recordLaunchFailure(ctx, c.rs),
  },
  {
    name: 'relaunch',
    when: (_ctx, c) => c.relaunch,
    run: (ctx, c) => {
      rescheduleInstance(ctx, c.rs, c.inst);
      converge(ctx, c.rs);
    },
  },
  {
    name: 'reachable',
    when: (_ctx, c) => c.conditionChanged && isUnreachableCondition(c.before) && !isUnreachableCondition(c.became) && !isTerminalCondition(c.became),
    run: (ctx, c) => {
      clearUnreachable(ctx, c.inst);
      converge(ctx, c.rs);
    },
  },
  {
    name: 'running',
    when: (ctx, c) => c.conditionChanged && c.became === 'Running' && ctx.state.isCurrent(c.inst),
    run: (ctx, c) => {
      markStarted(ctx, c.inst);
      startHealthChecks(ctx, c.rs, c.inst);
      startReadiness(ctx, c.rs, c.inst);
    },
  },
  {
    name: 'agent health',
    when: (ctx, c) => ctx.state.isCurrent(c.inst) && (c.healthChanged || (c.stateChanged && c.status.healthy !== undefined)),
    run: (ctx, c) => {
      if (c.healthChanged) refreshInstanceHealth(ctx, c.rs.spec, c.inst);
      if (c.status.healthy !== undefined) onAgentVerdict(ctx, c.rs.spec, c.inst, c.task, c.status.healthy);
    },
  },
  {
    name: 'pod sibling',
    when: (_ctx, c) => c.inst.kind === 'pod' && isTerminalCondition(c.task.condition) && c.inst.condition === 'Killing' && c.inst.killRequestedAtMs === undefined,
    run: (ctx, c) => {
      setKillReason(ctx, c.inst, 'pod-sibling');
      sendKills(ctx, c.rs.spec, c.inst);
    },
  },
];

/** Runs every status handler that applies to `change`, in the order of {@link STATUS_HANDLERS}. */
export function runStatusHandlers(ctx: InstanceContext, change: StatusChange): void {
  for (const handler of STATUS_HANDLERS) if (handler.when(ctx, change)) handler.run(ctx, change);
}

/**
 * A first launch's reservation (`InstanceReservation.unconfirmed`) is confirmed by any update from
 * the agent (it carries a uuid) or any non-terminal one. A terminal update without a uuid (the
 * driver or the master: TASK_DROPPED of an ACCEPT that was never applied, TASK_ERROR of a refused
 * one) leaves it unknown whether the RESERVE happened: the reservation is forgotten so the
 * instance is placed afresh; should it exist, its offer is recognised by its labels
 * (launcher/resident-offers.ts: relaunched on it while the instance waits, released otherwise).
 */
function confirmReservation(ctx: InstanceContext, inst: Instance, status: TaskStatus): void {
  const r = inst.reservation;
  if (r === undefined) return;
  if (status.uuid !== undefined || !isTerminalTaskState(status.state)) setReservation(ctx, inst, { agentId: r.agentId, role: r.role, volumes: r.volumes });
  else setReservation(ctx, inst, undefined);
}

function instanceCondition(inst: Instance): Condition {
  const tasks = inst.tasks;
  // An app's one task is its condition (combineTaskConditions of one): no list built for it, on
  // every status update (a reconciliation answers for every task, twice).
  return tasks.length === 1 ? taskCondition(tasks[0] as Task) : combineTaskConditions(tasks.map(taskCondition));
}

/** A task's condition as its instance's condition counts it: Provisioned until its first status. */
function taskCondition(task: Task): Condition {
  return task.state === undefined ? 'Provisioned' : task.condition;
}
