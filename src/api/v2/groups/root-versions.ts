import type { Group } from '../../../scheduler/groups/group';
import { DEFAULT_MAX_VERSIONS } from '../../../scheduler/groups/version-history';
import type { Scheduler } from '../../../scheduler/scheduler';

/** Stored versions of the root group (`/v2/groups/{id}/versions`, group reverts). */
export interface RootVersions {
  /** Stored root versions, newest first. */
  list(): string[];
  /** The root as it was at `version` (canonical ISO text), or undefined. */
  get(version: string): Group | undefined;
  /** Stops following the scheduler. */
  close(): void;
}

/**
 * Follows the root versions the core accepts: the current root at once, then the root after every
 * `group_change_success` (the core sets the new root before it emits that event, synchronously),
 * at most `maxVersions` (Marathon's `--zk_max_versions`, 50), the oldest dropped first.
 *
 * Interim: the core keeps the same history (`VersionHistory.rootVersions`/`getRoot`, made durable
 * by the store) but its facade does not expose it yet; this copy covers the running process only.
 */
export function followRootVersions(scheduler: Scheduler, maxVersions = DEFAULT_MAX_VERSIONS): RootVersions {
  const roots = new Map<string, Group>();
  const record = (root: Group): void => {
    roots.delete(root.version);
    roots.set(root.version, root);
    for (const oldest of roots.keys()) {
      if (roots.size <= maxVersions) break;
      roots.delete(oldest);
    }
  };
  record(scheduler.root());
  const unsubscribe = scheduler.subscribe((event) => {
    if (event.eventType === 'group_change_success') record(scheduler.root());
  });
  return {
    list: () => [...roots.keys()].reverse(),
    get: (version) => roots.get(version),
    close: unsubscribe,
  };
}
