/**
 * A master's per-role suppression of one framework (§2.6, §2.7), as an allocator needs it.
 * `suppress([])` / `revive([])` mean every role. The unreserved pool is offered while some role
 * the framework named (in revive, suppress or an accepted launch) is unsuppressed — or, before
 * it named any, unless it suppressed everything. Refuse filters are the allocator's business.
 */
export class RoleSuppression {
  private readonly knownRoles = new Set<string>();
  private readonly suppressed = new Set<string>();
  private suppressAll = false;

  /** Roles named by the framework (e.g. in an accepted launch); true when one was new. */
  know(roles: readonly string[]): boolean {
    const before = this.knownRoles.size;
    for (const r of roles) this.knownRoles.add(r);
    return this.knownRoles.size !== before;
  }

  /** REVIVE: un-suppress `roles` (all when empty). */
  revive(roles: readonly string[]): void {
    if (roles.length === 0) {
      this.suppressAll = false;
      this.suppressed.clear();
      return;
    }
    this.know(roles);
    if (this.suppressAll) {
      this.suppressAll = false;
      for (const r of this.knownRoles) this.suppressed.add(r);
    }
    for (const r of roles) this.suppressed.delete(r);
  }

  /** SUPPRESS: no new offers for `roles` (all when empty). */
  suppress(roles: readonly string[]): void {
    this.know(roles);
    for (const r of roles) this.suppressed.add(r);
    if (roles.length === 0) this.suppressAll = true;
  }

  /** Whether the framework gets no offers of resources reserved for `role`. */
  isSuppressed(role: string): boolean {
    return this.suppressAll || this.suppressed.has(role);
  }

  /** Whether the framework gets offers of the unreserved pool. */
  unreservedOffered(): boolean {
    if (this.knownRoles.size === 0) return !this.suppressAll;
    for (const r of this.knownRoles) if (!this.isSuppressed(r)) return true;
    return false;
  }
}
