import type { App, PodStatus, QueueEntry } from '../api/wire';

/** What the apps list says of a run spec at a glance (the statuses Marathon's UI showed). */
export type RunStatus = 'Running' | 'Deploying' | 'Suspended' | 'Waiting' | 'Delayed';

/**
 * An app's status: `Delayed` while its launches are backed off, `Waiting` while instances wait
 * for a fitting offer, `Deploying` while a deployment holds it, `Suspended` at 0 instances with
 * nothing left running, `Running` otherwise. `queued` is its `/v2/queue` entry, if any.
 */
export function appStatus(app: App, queued: QueueEntry | undefined): RunStatus {
  if (queued !== undefined && !queued.delay.overdue) return 'Delayed';
  if (queued !== undefined && queued.count > 0) return 'Waiting';
  if (app.deployments.length > 0) return 'Deploying';
  if (app.instances === 0 && app.tasksRunning + app.tasksStaged === 0) return 'Suspended';
  return 'Running';
}

/**
 * A pod's status, the same on the list and on its page: `Waiting` while it has a `/v2/queue` entry
 * (`queued`: instances wait for a fitting offer), else its own (`STABLE`, `DEGRADED`, …).
 */
export function podRunStatus(pod: Pick<PodStatus, 'status'>, queued: QueueEntry | undefined): string {
  return queued !== undefined ? 'Waiting' : pod.status;
}

/**
 * What an app's page says when it lists no instance: `Suspended: 0 instances.` at 0 wanted (whether
 * or not it ran before), else `No instances (3 wanted).`; never that none was launched, which an
 * app suspended after running would belie.
 */
export function noInstancesText(wanted: number): string {
  return wanted === 0 ? 'Suspended: 0 instances.' : `No instances (${wanted} wanted).`;
}

/** Health of an app's launched instances, Marathon's counts: healthy, unhealthy, and those with no result. */
export interface HealthSummary {
  readonly healthy: number;
  readonly unhealthy: number;
  readonly unknown: number;
  /** Whether the app has health checks at all. */
  readonly checked: boolean;
}

/** {@link HealthSummary} from an app's `tasksHealthy`, `tasksUnhealthy`, `tasksRunning`. */
export function healthSummary(app: App): HealthSummary {
  const checked = (app.healthChecks?.length ?? 0) > 0;
  const unknown = Math.max(0, app.tasksRunning - app.tasksHealthy - app.tasksUnhealthy);
  return { healthy: app.tasksHealthy, unhealthy: app.tasksUnhealthy, unknown: checked ? unknown : 0, checked };
}

/** The queue entry of each run spec id. */
export function queueById(queue: readonly QueueEntry[]): Map<string, QueueEntry> {
  const out = new Map<string, QueueEntry>();
  for (const e of queue) {
    const id = e.app?.id ?? e.pod?.id;
    if (id !== undefined) out.set(id, e);
  }
  return out;
}
