import type { LaunchOperation } from '../../scheduler/model/launch';
import type { TaskState } from './codec/mesos-model';

/**
 * What the Mesos driver counts, as a plain object the API's metrics renderer reads
 * (src/api/metrics/mesos-driver-gauges.ts). Counts only go up, from the driver's start; they are
 * named after Marathon 1.11's Mesos metrics where it has one (docs/docs/metrics.md).
 */
export interface MesosDriverMetrics {
  /** `idle`, `connecting`, `subscribed` or `stopped` (the driver's state). */
  state: 'idle' | 'connecting' | 'subscribed' | 'stopped';
  /** SUBSCRIBED events received (the first subscription and every resubscription). */
  subscriptions: number;
  /** Subscriptions lost or refused and retried (stream ended, heartbeats missed, transient ERROR, failed SUBSCRIBE). */
  reconnects: number;
  /** ERROR events received. */
  errors: number;
  /** Offers received in OFFERS events (`marathon.mesos.offers.incoming`). */
  offersReceived: number;
  /** Offers declined (`marathon.mesos.offers.declined`). */
  offersDeclined: number;
  /** Offers accepted (`marathon.mesos.offers.used`). */
  offersAccepted: number;
  /** Offers rescinded by the master. */
  offersRescinded: number;
  /** LAUNCH operations sent (`marathon.mesos.offer-operations.launch`). */
  launchOperations: number;
  /** LAUNCH_GROUP operations sent (`marathon.mesos.offer-operations.launch-group`). */
  launchGroupOperations: number;
  /** Tasks sent in LAUNCH and LAUNCH_GROUP operations (`marathon.tasks.launched`). */
  tasksLaunched: number;
  /** REVIVE calls (`marathon.mesos.calls.revive`). */
  revives: number;
  /** SUPPRESS calls (`marathon.mesos.calls.suppress`). */
  suppresses: number;
  /** Status updates received, all states (those pacer does not know too). */
  updates: number;
  /** Status updates per task state (`marathon.mesos.task-updates.<task-state>`; one in a state pacer does not know counts only in `updates`). */
  updatesByState: Partial<Record<TaskState, number>>;
  /** Calls that got no answer or an error answer (network fault, timeout, 4xx, 5xx). */
  failedCalls: number;
  /** Calls sent again after no answer (idempotent ones: KILL, ACKNOWLEDGE, RECONCILE, REVIVE, SUPPRESS, UPDATE_FRAMEWORK). */
  retriedCalls: number;
  /** Wall-clock ms of the last HEARTBEAT event; undefined before the first. */
  lastHeartbeatAtMs: number | undefined;
}

/** A fresh, all-zero metrics object. */
export function newDriverMetrics(): MesosDriverMetrics {
  return {
    state: 'idle', subscriptions: 0, reconnects: 0, errors: 0,
    offersReceived: 0, offersDeclined: 0, offersAccepted: 0, offersRescinded: 0,
    launchOperations: 0, launchGroupOperations: 0, tasksLaunched: 0, revives: 0, suppresses: 0,
    updates: 0, updatesByState: {}, failedCalls: 0, retriedCalls: 0, lastHeartbeatAtMs: undefined,
  };
}

/** One accepted offer and the operations launched on it. */
export function countLaunches(metrics: MesosDriverMetrics, operations: readonly LaunchOperation[]): void {
  metrics.offersAccepted++;
  for (const op of operations) {
    if (op.kind === 'launch') {
      metrics.launchOperations++;
      metrics.tasksLaunched++;
    } else {
      metrics.launchGroupOperations++;
      metrics.tasksLaunched += op.tasks.length;
    }
  }
}

/** One status update received. */
export function countUpdate(metrics: MesosDriverMetrics, state: TaskState): void {
  metrics.updates++;
  metrics.updatesByState[state] = (metrics.updatesByState[state] ?? 0) + 1;
}
