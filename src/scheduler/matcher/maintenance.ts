import type { Offer } from '../model/offer';
import type { SchedulerOptions } from '../scheduler-options';
import type { NoMatchReason } from '../model/no-match-reason';

/**
 * Maintenance mode, the one owner of its rule: whether an offer's agent is in (or about to enter)
 * its maintenance window, so that nothing launches on it. With `maintenanceMode` (Marathon's
 * default) an offer is refused when its agent's window (`Offer.unavailability`) has started, or
 * starts within `drainingMs` (`--draining_seconds`), and has not ended; a window without a
 * duration never ends. Both comparisons are strict, as Marathon's: at `start - draining` the offer
 * is still usable, at `start + duration` not yet. Mode off: every offer is usable whatever its window.
 *
 * Followed (behaviour, not code): mesosphere/marathon src/main/scala/mesosphere/mesos/Availability.scala
 * (`offerAvailable`: `now.after(start - drainingTime)`, then available only if the window has a
 * duration and `now.after(start + duration)`), ResourceMatcher.scala (checked only when
 * `conf.maintenanceMode()`; the refusal's reasons, see {@link MAINTENANCE_REASON}), MarathonConf.scala
 * (`--[disable_]maintenance_mode` on by default, `--draining_seconds` 0), docs/docs/maintenance-mode.md.
 */
export function agentInMaintenance(offer: Offer, nowMs: number, options: Pick<SchedulerOptions, 'maintenanceMode' | 'drainingMs'>): boolean {
  const window = offer.unavailability;
  if (window === undefined || !options.maintenanceMode) return false;
  if (!(nowMs > window.startMs - options.drainingMs)) return false;
  return window.durationMs === undefined || !(nowMs > window.startMs + window.durationMs);
}

/**
 * The reason an offer refused for maintenance is recorded under (`/v2/queue`):
 * `UnfulfilledConstraint`, as Marathon 1.11 reports it (its behaviour wins over the name of the
 * cause, ../shared/spec/README.md). Its ResourceMatcher adds both UnfulfilledConstraint and
 * AgentMaintenance for such an offer (ResourceMatcherTest expects
 * `NoMatch(Seq(UnfulfilledConstraint, AgentMaintenance))`), and the queue's statistics count an
 * offer under the first reason of NoOfferMatchReason's funnel, where only UnfulfilledRole comes
 * before UnfulfilledConstraint: the maintenance filter runs right after the role's.
 */
export const MAINTENANCE_REASON: NoMatchReason = 'UnfulfilledConstraint';
