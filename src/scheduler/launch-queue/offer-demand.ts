import type { ClusterDriver } from '../ports/cluster-driver';
import type { Clock } from '../ports/clock';
import type { RunSpecState } from '../state/run-spec-state';
import { inBackoff } from '../instances/backoff';

/**
 * Decides when to revive and suppress offers, per role. A run spec "wants offers" when it has
 * scheduled instances, is not being deleted and is out of backoff. Only run specs marked dirty are
 * re-examined, so the cost follows the changes, not the number of run specs.
 *
 * Revive whenever a run spec starts wanting offers, gets more instances to place than at the
 * last look (a scale-up, a relaunch), or gets a new definition (not a scale) while instances wait (a forced
 * update of an app whose instances were never placed, say from cpus 1000 to 0.01, which Marathon
 * replaces by newly scheduled instances): a revive clears the refuse filters of earlier declines
 * (`--decline_offer_duration`, 120 s), so the new work sees every agent again, as Marathon revives
 * for each newly scheduled instance.
 * Suppress a role when nothing of it wants offers: when its last run spec stops wanting them, and
 * once the first offers came and whenever the framework's roles change ({@link suppressIdle}).
 *
 * A run spec wants offers for its role; a resident one also for the roles its waiting instances
 * kept from their reservations (fact 114: after a forced role change old instances relaunch under
 * the old role).
 */
export class OfferDemand {
  /** The run specs that want offers, in the order they started wanting them, each with what the demand keeps of it. */
  private readonly wanting = new Map<RunSpecState, WantingRunSpec>();
  private readonly perRole = new Map<string, number>();
  private readonly suppressed = new Set<string>();
  /** Entries the matcher took instances from since the last sync ({@link notePlaced}). */
  private readonly placedFrom: WantingRunSpec[] = [];
  /** The framework's roles at {@link suppressIdle}'s last look (the state replaces the array when the set changes). */
  private idleLookedAt: readonly string[] | undefined = undefined;
  /** Whether offers came since this core started ({@link noteOffers}). */
  private offersSeen = false;

  constructor(private readonly driver: ClusterDriver, private readonly clock: Clock) {}

  /**
   * True when the run spec wants offers now: to launch ({@link mayLaunch}), or to release the
   * reservation of a resident instance that waits for it (in backoff too: a release is no launch).
   */
  wantsOffers(rs: RunSpecState, nowMs: number): boolean {
    // Resident instances waiting to release their reservation need the offer that holds it.
    if (rs.releasing !== undefined && rs.releasing.size > 0) return true;
    return this.mayLaunch(rs, nowMs);
  }

  /**
   * True when the run spec may launch instances now: it has scheduled instances, is not being
   * deleted and is out of backoff. What the matcher and the resident pass ask before launching;
   * {@link wantsOffers} is also true while a reservation waits to be released, which is no leave
   * to launch (a failed resident instance relaunched at once, before its backoff deadline).
   */
  mayLaunch(rs: RunSpecState, nowMs: number): boolean {
    return rs.scheduled.length > 0 && !rs.deleting && !inBackoff(rs, nowMs);
  }

  /** Re-examine the dirty run specs and issue the revive/suppress calls that follow. */
  sync(dirty: Set<RunSpecState>, live: (rs: RunSpecState) => boolean): void {
    if (this.placedFrom.length > 0) this.notePlacements(dirty);
    if (dirty.size === 0) return;
    const nowMs = this.clock.nowMs();
    const revive: string[] = [];
    const maybeSuppress: string[] = [];
    for (const rs of dirty) {
      let entry = this.wanting.get(rs);
      const wants = live(rs) && this.wantsOffers(rs, nowMs);
      const roles = wants ? wantedRoles(rs, entry) : NO_ROLES;
      if (entry !== undefined && (!wants || !sameRoles(entry.roles, roles))) {
        this.wanting.delete(rs);
        for (const role of entry.roles) {
          this.bump(role, -1);
          maybeSuppress.push(role);
        }
        entry = undefined;
      }
      if (!wants) continue;
      // Instances still to create count as work already seen: creating them in chunks is not new work.
      const scheduled = rs.scheduled.length + rs.toCreate;
      if (entry === undefined) {
        entry = { rs, roles, scheduled, config: rs.spec.versionInfo.lastConfigChangeAt, matcherState: undefined };
        this.wanting.set(rs, entry);
        for (const role of roles) {
          this.bump(role, 1);
          if (!revive.includes(role)) revive.push(role);
        }
      } else if (scheduled > entry.scheduled || rs.spec.versionInfo.lastConfigChangeAt !== entry.config) {
        for (const role of roles) if (!revive.includes(role)) revive.push(role);
      }
      entry.scheduled = scheduled;
      entry.config = rs.spec.versionInfo.lastConfigChangeAt;
    }
    dirty.clear();
    if (revive.length > 0) {
      revive.sort();
      for (const r of revive) this.suppressed.delete(r);
      this.driver.revive(revive);
    }
    const suppress = [...new Set(maybeSuppress)].filter((r) => (this.perRole.get(r) ?? 0) === 0 && !this.suppressed.has(r)).sort();
    if (suppress.length > 0) {
      for (const r of suppress) this.suppressed.add(r);
      this.driver.suppress(suppress);
    }
  }

  /**
   * Suppresses each of the framework's `roles` (state/framework-roles.ts, sorted) that nothing
   * wants offers for and that is not suppressed already: a framework starts, and a role is added
   * to it, unsuppressed, and {@link sync} suppresses a role only when its last run spec stops
   * wanting offers. Without this a pacer started with every instance running (or a new role whose
   * app has no instances to place) kept receiving offers and declining them, until some run spec
   * first wanted offers and then stopped (found against a Mesos master: no SUPPRESS in 40 s after
   * a restart). Marathon suppresses the roles without scheduled instances from its first look at
   * the instances on (ReviveOffersStreamLogic); pacer waits for the first offers since it started
   * ({@link noteOffers}), so that what-if and `/v2/capacity`, which answer from the last offers
   * seen, know the cluster's agents from the start. Looks again only when the set of roles
   * changed (another array); call it after {@link sync}, so that the demand is current.
   */
  suppressIdle(roles: readonly string[]): void {
    if (!this.offersSeen || roles === this.idleLookedAt) return;
    this.idleLookedAt = roles;
    const idle = roles.filter((r) => (this.perRole.get(r) ?? 0) === 0 && !this.suppressed.has(r));
    if (idle.length === 0) return;
    for (const r of idle) this.suppressed.add(r);
    this.driver.suppress(idle);
  }

  /** Offers came (the core's `offers` input): from now on {@link suppressIdle} suppresses idle roles. */
  noteOffers(): void {
    this.offersSeen = true;
  }

  /**
   * The matcher placed instances of `entry`'s run spec, which is not resident, and some of its
   * instances still wait: all a sync would find changed is its smaller count (it still wants offers,
   * for the same role, and has no new work), so the next sync notes the count without examining the
   * run spec again (a few map look-ups each, for every run spec that placed in every cycle). Should
   * anything else mark it dirty in the meantime, or its count have grown, it is examined as usual.
   */
  notePlaced(entry: WantingRunSpec): void {
    this.placedFrom.push(entry);
  }

  /** Notes the counts of the run specs the matcher placed from ({@link notePlaced}), or marks them dirty when they need a look. */
  private notePlacements(dirty: Set<RunSpecState>): void {
    for (const entry of this.placedFrom) {
      const rs = entry.rs;
      if (dirty.has(rs)) continue;
      const scheduled = rs.scheduled.length + rs.toCreate;
      if (scheduled > entry.scheduled || scheduled === 0 || rs.spec.versionInfo.lastConfigChangeAt !== entry.config) dirty.add(rs);
      else entry.scheduled = scheduled;
    }
    this.placedFrom.length = 0;
  }

  /**
   * The run specs that want offers, in the order they started wanting them (deterministic), with
   * what the demand keeps of each: the matcher reads its own state for the run spec from the entry
   * ({@link WantingRunSpec.matcherState}) rather than looking it up.
   */
  wantingEntries(): IterableIterator<WantingRunSpec> {
    return this.wanting.values();
  }

  private bump(role: string, delta: number): void {
    const n = (this.perRole.get(role) ?? 0) + delta;
    if (n === 0) this.perRole.delete(role);
    else this.perRole.set(role, n);
  }
}

/** What {@link OfferDemand} keeps of one run spec while it wants offers (dropped when it stops, or its roles change). */
export interface WantingRunSpec {
  readonly rs: RunSpecState;
  /** The roles it wants offers for ({@link wantedRoles}). */
  readonly roles: readonly string[];
  /** Its scheduled (and still to create) instances at the last sync, to notice new work. */
  scheduled: number;
  /** Its definition's `lastConfigChangeAt` at the last sync: a new definition while instances wait is new work too (a scale is not). */
  config: string;
  /**
   * The matcher's state for this run spec (match-offers.ts: its candidate), kept here so that a
   * matching cycle reads it without a lookup per run spec; the demand never reads it. Gone with
   * the entry.
   */
  matcherState: object | undefined;
}

const NO_ROLES: readonly string[] = [];

/** One shared array per role name: the common case allocates nothing per sync. */
const SINGLE = new Map<string, readonly string[]>();

/**
 * The roles `rs` wants offers for: its own; for a resident run spec, the roles of its waiting
 * instances (sorted), which may still be the old role of their reservations. `entry`: its entry
 * while it wants offers, whose array is given back when it holds the same single role.
 */
function wantedRoles(rs: RunSpecState, entry: WantingRunSpec | undefined): readonly string[] {
  if (rs.spec.resident) {
    const roles = new Set<string>();
    for (const inst of rs.scheduled.toArray()) roles.add(inst.role);
    // Instances releasing their reservation want the offers of its role.
    for (const role of rs.releasing?.values() ?? []) roles.add(role);
    if (roles.size > 1 || !roles.has(rs.spec.role)) return [...roles].sort();
  }
  const role = rs.spec.role;
  // The roles it already wants offers for, when they are these (no lookup by name).
  if (entry !== undefined && entry.roles.length === 1 && entry.roles[0] === role) return entry.roles;
  let single = SINGLE.get(role);
  if (single === undefined) {
    single = [role];
    SINGLE.set(role, single);
  }
  return single;
}

function sameRoles(a: readonly string[], b: readonly string[]): boolean {
  return a === b || (a.length === b.length && a.every((r, i) => r === b[i]));
}
