import type { ApiDeps } from '../api-deps';
import { isoTime, type QueueEntry } from '../../scheduler/index';
import { appDefinitionJson } from '../../marathon/render/app-definition-json';
import { podDefinitionJson } from '../../marathon/render/pod-definition-json';
import { lastUnusedOffersJson, processedOffersSummaryJson } from './queue-offers-summary-json';

/**
 * One `/v2/queue` entry (fact 90): `count` (instances still to launch), `delay`, `since`, `role`,
 * `processedOffersSummary`, the run spec as `app` (Marathon's app writer) or `pod` (its definition), and with
 * `withLastUnusedOffers` (`?embed=lastUnusedOffers`) the `lastUnusedOffers`.
 */
export function queueEntryJson(deps: ApiDeps, entry: QueueEntry, withLastUnusedOffers: boolean): Record<string, unknown> {
  const json: Record<string, unknown> = {
    count: entry.scheduled,
    delay: queueDelayJson(entry.backoffUntilMs, deps.clock.nowMs()),
    since: isoTime(waitingSinceMs(deps, entry)),
    role: entry.runSpec.role,
    processedOffersSummary: processedOffersSummaryJson(entry.stats),
  };
  if (withLastUnusedOffers) json.lastUnusedOffers = lastUnusedOffersJson(entry.stats);
  const { runSpec } = entry;
  if (runSpec.kind === 'app') json.app = appDefinitionJson(runSpec);
  else json.pod = podDefinitionJson(runSpec, { versionInfo: false });
  return json;
}

/**
 * `delay` (fact 90): while backed off, `overdue: false` and the whole seconds left (Marathon
 * truncates); otherwise the entry is waiting for offers: `{timeLeftSeconds: 0, overdue: true}`.
 */
export function queueDelayJson(backoffUntilMs: number | undefined, nowMs: number): { timeLeftSeconds: number; overdue: boolean } {
  if (backoffUntilMs === undefined || backoffUntilMs <= nowMs) return { timeLeftSeconds: 0, overdue: true };
  return { timeLeftSeconds: Math.trunc((backoffUntilMs - nowMs) / 1000), overdue: false };
}

/** When the launch attempt began: the longest-waiting Scheduled instance's entry into the queue. */
function waitingSinceMs(deps: ApiDeps, entry: QueueEntry): number {
  let since = deps.clock.nowMs();
  for (const instance of deps.scheduler.instances(entry.runSpec.id)) {
    if (instance.condition === 'Scheduled' && instance.conditionSinceMs < since) since = instance.conditionSinceMs;
  }
  return since;
}
