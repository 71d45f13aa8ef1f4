import type { ApiDeps } from '../../api-deps';
import { anyPolledEmbed, deploymentIdsByApp, keepAppPiecesAhead } from '../../render/app-json';
import { KEEP_AHEAD_MAX_APP_INSTANCES, keepAhead, REAL_CLOCK, type AheadClock } from '../../render/keep-ahead';
import type { MarathonEvent } from '../../../scheduler/model/events';

/**
 * The apps a core event queues for {@link keepAppsAhead}: the app of a `status_update_event`
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
 * Keeps each app's piece of `GET /v2/apps` for the embeds with tasks load balancers poll
 * (app-json.ts `keepAppPiecesAhead`: the app's text around its tasks' kept texts, encoded, for
 * the core as it is now) once the events that change it ({@link appsAheadQueue}) have paused
 * (render/keep-ahead.ts), so that the first poll after a deployment answers each app's bytes as
 * they are (100,000 tasks: ~0.75 s of the server's time at the read; issue 13). Does nothing
 * until such an embed has been read; apps with health checks and apps asking for more than
 * {@link KEEP_AHEAD_MAX_APP_INSTANCES} instances are left to the read. A read answers a kept
 * piece only while the core's token of the app's instances and the app's small parts (counts,
 * deployments, readiness, …) are the ones it was kept with.
 *
 * Returns the function that stops it.
 */
export function keepAppsAhead(deps: ApiDeps, clock: AheadClock = REAL_CLOCK): () => void {
  let deployments: ReadonlyMap<string, readonly string[]> | undefined;
  return keepAhead(deps, {
    appsOf: (event) => (anyPolledEmbed() ? appsAheadQueue(event) : undefined),
    beginTurn() {
      deployments = undefined;
    },
    keep(appId) {
      const spec = deps.scheduler.runSpec(appId);
      // An app with health checks has its tasks made at every read (app-json.ts): nothing to keep.
      if (spec === undefined || spec.kind !== 'app' || spec.healthChecks.length > 0 || spec.instances > KEEP_AHEAD_MAX_APP_INSTANCES) return;
      // The running deployments looked at once per turn, not once per app.
      deployments ??= deploymentIdsByApp(deps);
      keepAppPiecesAhead(deps, spec, deployments);
    },
  }, clock);
}
