import type { MesosDriverMetrics } from '../../cluster/mesos/driver-metrics';
import type { Clock } from '../../scheduler/ports/clock';
import type { MetricsRegistry } from './metrics-registry';

type Count = Exclude<{ [K in keyof MesosDriverMetrics]: MesosDriverMetrics[K] extends number ? K : never }[keyof MesosDriverMetrics], undefined>;

/** The driver's counts by metric name: Marathon 1.11's names (docs/docs/metrics.md) where it has one, pacer's otherwise. */
const COUNTERS: readonly [string, Count, string][] = [
  ['marathon.mesos.offers.incoming.counter', 'offersReceived', 'Offers received from Mesos'],
  ['marathon.mesos.offers.declined.counter', 'offersDeclined', 'Offers declined'],
  ['marathon.mesos.offers.used.counter', 'offersAccepted', 'Offers accepted (used for launches)'],
  ['marathon.mesos.offers.rescinded.counter', 'offersRescinded', 'Offers rescinded by the master'],
  ['marathon.mesos.offer-operations.launch.counter', 'launchOperations', 'LAUNCH offer operations sent'],
  ['marathon.mesos.offer-operations.launch-group.counter', 'launchGroupOperations', 'LAUNCH_GROUP offer operations sent'],
  ['marathon.tasks.launched.counter', 'tasksLaunched', 'Mesos tasks launched'],
  ['marathon.mesos.calls.revive.counter', 'revives', 'REVIVE calls'],
  ['marathon.mesos.calls.suppress.counter', 'suppresses', 'SUPPRESS calls'],
  ['marathon.mesos.calls.failed.counter', 'failedCalls', 'Calls without an answer or with an error answer'],
  ['marathon.mesos.calls.retried.counter', 'retriedCalls', 'Calls sent again after no answer'],
  ['marathon.mesos.task-updates.counter', 'updates', 'Task status updates received'],
  ['marathon.mesos.subscriptions.counter', 'subscriptions', 'Subscriptions to a master (SUBSCRIBED received)'],
  ['marathon.mesos.reconnects.counter', 'reconnects', 'Subscriptions lost or refused and tried again'],
  ['marathon.mesos.errors.counter', 'errors', 'ERROR events from the master'],
];

const STATES: readonly MesosDriverMetrics['state'][] = ['idle', 'connecting', 'subscribed', 'stopped'];

/**
 * The Mesos driver's metrics (`/metrics`, `/metrics/prometheus`), read from the plain object the
 * driver keeps (src/cluster/mesos/driver-metrics.ts) at snapshot time:
 * - counters: offers received/declined/used/rescinded, launch operations, tasks launched,
 *   revive/suppress calls, failed and retried calls, status updates (all, and
 *   `marathon.mesos.task-updates.<task-state>.counter` per state seen, e.g. `task-running`),
 *   subscriptions, reconnects, ERROR events;
 * - gauges: `marathon.mesos.subscription.<state>.gauge` (1 for the driver's state: idle, connecting,
 *   subscribed, stopped; 0 for the others) and `marathon.mesos.heartbeat.age.gauge.seconds`, the
 *   seconds since the last HEARTBEAT (-1 before the first).
 */
export function registerMesosDriverMetrics(registry: MetricsRegistry, read: () => MesosDriverMetrics, clock: Clock): void {
  for (const [name, key, help] of COUNTERS) registry.countedElsewhere(name, help, () => read()[key]);
  registry.onSnapshot(() => {
    for (const state of Object.keys(read().updatesByState) as (keyof MesosDriverMetrics['updatesByState'])[]) {
      registry.countedElsewhere(`marathon.mesos.task-updates.${kebab(state)}.counter`, `Task status updates ${state}`, () => read().updatesByState[state] ?? 0);
    }
  });
  for (const state of STATES) {
    registry.gauge(`marathon.mesos.subscription.${state}.gauge`, `1 while the Mesos driver is ${state}`, () => (read().state === state ? 1 : 0));
  }
  registry.gauge('marathon.mesos.heartbeat.age.gauge.seconds', 'Seconds since the last HEARTBEAT from the master (-1: none yet)', () => {
    const at = read().lastHeartbeatAtMs;
    return at === undefined ? -1 : Math.max(0, (clock.nowMs() - at) / 1000);
  });
}

/** `TASK_RUNNING` → `task-running`. */
function kebab(state: string): string {
  return state.toLowerCase().replace(/_/g, '-');
}
