import { isoTime, parseIsoTime } from '../kernel/iso-time';

/**
 * The version a change writes: `nowMs`, moved to 1 ms after the latest of `earlier` when the clock
 * has not passed it (two changes in one millisecond, or versions stamped ahead of the clock).
 * Root versions key the root history (`/v2/groups/versions`, reverts) and a restart is recognised
 * by a later `lastConfigChangeAt`, so a new version must never equal or precede the one it
 * follows. Unparsable versions are ignored.
 *
 * The one rule for every new root version (issue 12): every command that changes the root
 * (`commands/`) and a canceled deployment's rollback (`deployments/deployment-manager.ts`) stamp
 * with it, always against the current root's version. No version a client or the API computed is
 * kept.
 */
export function versionAfter(nowMs: number, ...earlier: readonly string[]): string {
  let ms = nowMs;
  for (const version of earlier) {
    const at = parseIsoTime(version);
    if (at !== undefined && at >= ms) ms = at + 1;
  }
  return isoTime(ms);
}
