import type { ApiDeps } from '../../api-deps';
import { KEEP_AHEAD_MAX_APP_INSTANCES, keepAhead, REAL_CLOCK, type AheadClock } from '../../render/keep-ahead';
import { keepAppTasksAhead } from './list-tasks';

/**
 * Keeps each app's piece of `GET /v2/tasks` ahead of the reads (list-tasks.ts
 * `keepAppTasksAhead`: its tasks' texts checked and encoded for the core's current token of its
 * instances) once its tasks' statuses (`status_update_event`) have paused (render/keep-ahead.ts),
 * so that the first read after a deployment answers each app's bytes as they are instead of
 * checking and encoding every task (100,000 tasks: ~500 ms of the server's time at the read;
 * issue 13). Apps asking for more than {@link KEEP_AHEAD_MAX_APP_INSTANCES} instances are left
 * to the read. A read answers a kept piece only while the core's token of the app's instances is
 * the one it was kept for, and lists the app itself otherwise.
 *
 * Returns the function that stops it.
 */
export function keepTasksAhead(deps: ApiDeps, clock: AheadClock = REAL_CLOCK): () => void {
  return keepAhead(deps, {
    appsOf: (event) => (event.eventType === 'status_update_event' ? [event.appId] : undefined),
    keep(appId) {
      const spec = deps.scheduler.runSpec(appId);
      // The app's own count, not its instances: `instances()` copies them into a new array.
      if (spec === undefined || spec.kind !== 'app' || spec.instances > KEEP_AHEAD_MAX_APP_INSTANCES) return;
      keepAppTasksAhead(deps, spec);
    },
  }, clock);
}
