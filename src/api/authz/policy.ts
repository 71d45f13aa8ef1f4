import { isAncestor } from '../../scheduler/index';
import { RESOURCE_ACTIONS, type AuthorizedAction } from './authorized-action';

/** The principal whose grants apply to every authenticated caller. */
export const ANY_PRINCIPAL = '*';

/** One entry of a policy: these actions on the group path `path` and everything below it. */
export interface Grant {
  /** A canonical absolute group path; `/` covers everything, system resources included. */
  readonly path: string;
  readonly actions: ReadonlySet<AuthorizedAction>;
}

/** Whether `path` is `prefix` or below it (`/a` covers `/a` and `/a/b`, not `/ab`). */
export function covers(prefix: string, path: string): boolean {
  return prefix === path || isAncestor(prefix, path);
}

/**
 * Who may do what where: each principal's grants (plus those of `*`, which apply to everyone).
 * Nothing is allowed that no grant allows. Immutable: a reload makes a new one.
 */
export class Policy {
  constructor(private readonly grants: ReadonlyMap<string, readonly Grant[]>) {}

  /** How many principals the policy names (the reload message). */
  get size(): number {
    return this.grants.size;
  }

  /** The grants that apply to `principal`. */
  grantsOf(principal: string): readonly Grant[] {
    return [...(this.grants.get(principal) ?? []), ...(principal === ANY_PRINCIPAL ? [] : this.grants.get(ANY_PRINCIPAL) ?? [])];
  }
}

/**
 * One principal's rights, resolved once per request (or per event subscriber): `may` answers for
 * a run spec or group id; system resources need a grant at `/`.
 */
export class Access {
  private readonly grants: readonly Grant[];

  constructor(readonly principal: string, policy: Policy) {
    this.grants = policy.grantsOf(principal);
  }

  /** Whether `action` is allowed on the run spec or group `path` (ignored for resource actions: `/`). */
  may(action: AuthorizedAction, path = '/'): boolean {
    const target = RESOURCE_ACTIONS.has(action) ? '/' : path;
    return this.grants.some((g) => g.actions.has(action) && covers(g.path, target));
  }

  /**
   * Whether the group `groupId` is shown at all: it may be viewed, or something below it may (the
   * path to what a principal may view stays visible, with only what it may view inside).
   */
  seesGroup(groupId: string): boolean {
    if (this.may('ViewGroup', groupId) || this.may('ViewRunSpec', groupId)) return true;
    return this.grants.some((g) => (g.actions.has('ViewRunSpec') || g.actions.has('ViewGroup')) && isAncestor(groupId, g.path));
  }

  /** Whether every run spec and group may be viewed (nothing to filter). */
  seesEverything(): boolean {
    return this.may('ViewRunSpec', '/') && this.may('ViewGroup', '/');
  }
}
