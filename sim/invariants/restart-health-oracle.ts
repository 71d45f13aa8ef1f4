import type { KillReason } from '../../src/scheduler/model/instance';

/** What the oracle reads of one instance. */
export interface HealthView {
  readonly instanceId: string;
  readonly condition: string;
  readonly killReason?: KillReason;
}

/** What one rolling restart's oracle keeps between steps. */
interface RestartState {
  /** Whether the healthy count (with {@link lostOnOwn}) has reached the minimum once. */
  reached: boolean;
  /** The instances healthy at the last step, with their kill reason then. */
  lastHealthy: Map<string, KillReason | undefined>;
  /** Healthy instances lost since not by the restart's own kills and not yet made up for. */
  lostOnOwn: number;
}

/**
 * The `upgradeBounds` invariant's lower bound (README, "Deployments"): during a rolling restart,
 * healthy instances never fall below `minHealthy` **through pacer's kills**. A healthy instance
 * that stops being healthy for another reason (a failing health check, a task that fails, a lost
 * agent, and the unhealthy kill that follows a failing check) is a fault, not the restart's doing:
 * it is counted as still there until a newly healthy instance makes up for it, which is what
 * pacer's own count sees. So the bound fires only when the restart's kills (`replaced`) take the
 * count below the minimum once it was reached. Before 2026-12-03 a health fault alone fired it.
 */
export class RestartHealthOracle {
  private readonly restarts = new Map<string, RestartState>();

  /** Restarts remembered (tests: the checker's sweep bounds it). */
  get size(): number {
    return this.restarts.size;
  }

  /**
   * One step of restart `key`: `healthy` are its healthy instances now, `find` looks up an
   * instance the core still holds. Answers the violation, if any.
   */
  check(key: string, healthy: readonly HealthView[], minHealthy: number, find: (id: string) => HealthView | undefined): string | undefined {
    let state = this.restarts.get(key);
    if (state === undefined) {
      state = { reached: false, lastHealthy: new Map(), lostOnOwn: 0 };
      this.restarts.set(key, state);
    }
    const now = new Map<string, KillReason | undefined>();
    for (const inst of healthy) now.set(inst.instanceId, inst.killReason);
    let gained = 0;
    for (const id of now.keys()) if (!state.lastHealthy.has(id)) gained++;
    let lost = 0;
    for (const [id, reasonThen] of state.lastHealthy) {
      if (now.has(id)) continue;
      const inst = find(id);
      // Still running, so it left the count by its health (a fault), even when the restart then
      // chose it to be killed first (an unhealthy old instance goes first, at no cost to the count).
      if (inst?.condition === 'Running' || (inst?.killReason ?? reasonThen) !== 'replaced') lost++;
    }
    state.lostOnOwn = Math.max(0, state.lostOnOwn + lost - gained);
    state.lastHealthy = now;
    const counted = now.size + state.lostOnOwn;
    if (counted >= minHealthy) {
      state.reached = true;
      return undefined;
    }
    if (!state.reached) return undefined;
    return `${now.size} healthy instances during a rolling restart, minimum ${minHealthy}` +
      (state.lostOnOwn > 0 ? ` (${state.lostOnOwn} more lost to faults, counted as healthy)` : '');
  }

  /** Forgets the restarts `keep` says no longer run. */
  forget(keep: (key: string) => boolean): void {
    for (const key of this.restarts.keys()) if (!keep(key)) this.restarts.delete(key);
  }
}
