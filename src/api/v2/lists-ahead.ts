import type { ApiDeps } from '../api-deps';
import { anyPolledEmbed, deploymentIdsByApp, keepAppPiecesAhead } from '../render/app-json';
import { keepAhead, keptAheadApp, REAL_CLOCK, type AheadClock } from '../render/keep-ahead';
import type { MarathonEvent } from '../../scheduler/model/events';
import { keepAppTasksAhead } from './tasks/list-tasks';

/**
 * The apps a core event queues for {@link keepListsAhead}: the app of a `status_update_event`
 * (its tasks and counts changed), and every app of a deployment that ended
 * (`deployment_success`, `deployment_failed`: its `deployments` and readiness results changed,
 * with no status if its last one came earlier).
 */
export function appsAheadQueue(event: MarathonEvent): readonly string[] | undefined {
  switch (event.eventType) {
    case 'status_update_event': return [event.appId];
    case 'deployment_success':
    case 'deployment_failed': {
      const ids: string[] = [];
      for (const step of event.plan.steps) for (const action of step.actions) if (typeof action.app === 'string') ids.push(action.app);
      return ids;
    }
    default: return undefined;
  }
}

/**
 * Keeps each app's pieces of the lists clients poll ahead of the reads, once the events that
 * change it ({@link appsAheadQueue}) have paused (render/keep-ahead.ts: ≤ 4 ms a loop turn, ≤ a
 * quarter of a core), so that the first read after a deployment answers each app's bytes as they
 * are instead of checking (or rendering) and encoding every task (issue 13):
 *
 * - `GET /v2/tasks`: the app's unfiltered piece (list-tasks.ts `keepAppTasksAhead`: its tasks'
 *   texts rendered or checked, and encoded; 100,000 tasks: ~500 ms at the read);
 * - `GET /v2/apps` with tasks embedded: the app's piece for each embed polled (app-json.ts
 *   `keepAppPiecesAhead`; nothing until such an embed has been read; ~0.75 s at the read).
 *
 * Only the apps {@link keptAheadApp} names (no health checks, at most 5,000 instances); the
 * others are left to the reads. A read answers a kept piece only while what it was made from (the
 * core's token of the app's instances, the app's small parts) is the same. One listener, one
 * queue and one pass for both lists: a status update costs one queue entry.
 *
 * Returns the function that stops it.
 */
export function keepListsAhead(deps: ApiDeps, clock: AheadClock = REAL_CLOCK): () => void {
  let deployments: ReadonlyMap<string, readonly string[]> | undefined;
  return keepAhead(deps, {
    appsOf: appsAheadQueue,
    beginTurn() {
      deployments = undefined;
    },
    keep(appId) {
      const spec = deps.scheduler.runSpec(appId);
      if (!keptAheadApp(spec)) return;
      keepAppTasksAhead(deps, spec);
      if (!anyPolledEmbed()) return;
      // The running deployments looked at once per turn, not once per app.
      deployments ??= deploymentIdsByApp(deps);
      keepAppPiecesAhead(deps, spec, deployments);
    },
  }, clock);
}
