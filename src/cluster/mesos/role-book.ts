/**
 * The framework's roles and which of them are suppressed, as the driver must restate them on every
 * SUBSCRIBE and UPDATE_FRAMEWORK (mesos-v1-scheduler-api.md §1.8, §2.13: the suppressed set is
 * replaced by what the call carries; forgetting it silently revives everything, §9).
 *
 * REVIVE/SUPPRESS with an empty list mean every subscribed role in Mesos (§2.6, §2.7), and a list
 * naming a role the framework is not subscribed to makes Mesos drop the whole call silently; so
 * per-role calls are narrowed to subscribed roles ({@link subscribedOf}) and skipped when nothing
 * is left, while the wish is remembered for when the role is added.
 */
export class RoleBook {
  private wanted: string[];
  private readonly suppressedRoles = new Set<string>();
  private readonly refused = new Set<string>();

  constructor(defaultRole: string) {
    this.wanted = [defaultRole];
  }

  /** The roles to subscribe with, sorted and unique: the wanted ones the master has not refused. */
  get roles(): readonly string[] {
    return this.refused.size === 0 ? this.wanted : this.wanted.filter((r) => !this.refused.has(r));
  }

  /** Roles the master refused (outside its `--roles`, or not authorized), sorted. */
  get refusedRoles(): readonly string[] {
    return [...this.refused].sort();
  }

  /**
   * Stops asking for `roles` (the master refused them) for the rest of the process, even when
   * the run specs still want them; returns those that were being asked for, sorted.
   */
  refuse(roles: readonly string[]): string[] {
    const asked = this.roles.filter((r) => roles.includes(r));
    for (const role of asked) this.refused.add(role);
    return asked;
  }

  /** Replaces the wanted roles; returns whether they changed. */
  setRoles(roles: readonly string[]): boolean {
    const next = [...new Set(roles)].sort();
    const same = next.length === this.wanted.length && next.every((r, i) => r === this.wanted[i]);
    this.wanted = next;
    return !same;
  }

  /** Suppressed roles that are also subscribed (Mesos requires a subset, §2.1), sorted. */
  suppressedWithin(roles: readonly string[]): string[] {
    return roles.filter((r) => this.suppressedRoles.has(r));
  }

  /** Records a SUPPRESS; an empty list means every wanted role. */
  suppress(roles: readonly string[]): void {
    for (const role of roles.length === 0 ? this.wanted : roles) this.suppressedRoles.add(role);
  }

  /** Records a REVIVE; an empty list means every role. */
  revive(roles: readonly string[]): void {
    if (roles.length === 0) this.suppressedRoles.clear();
    for (const role of roles) this.suppressedRoles.delete(role);
  }

  /** The listed roles that `subscribed` contains (order kept). */
  static subscribedOf(roles: readonly string[], subscribed: readonly string[]): string[] {
    return roles.filter((r) => subscribed.includes(r));
  }
}
