import type { ApiDeps } from '../../api-deps';
import { isoTime } from '../../../scheduler/index';

/**
 * The version of the next root group: now, but always later than the current root's version.
 * Root versions key the root history (`/v2/groups/{id}/versions`, `{"version": …}` reverts), so
 * two changes within one millisecond must not share a version.
 */
export function nextRootVersion(deps: ApiDeps): string {
  const currentMs = Date.parse(deps.scheduler.root().version);
  const nowMs = deps.clock.nowMs();
  return isoTime(Number.isNaN(currentMs) ? nowMs : Math.max(nowMs, currentMs + 1));
}

/**
 * A version as the root history keys it (`2021-07-27T14:40:33.123Z`), from any ISO 8601 text the
 * client sends (`2021-07-27T14:40:33Z`, an offset, …); undefined when it is not a date.
 */
export function canonicalVersion(text: string): string | undefined {
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : isoTime(ms);
}
