import type { FilterPlugin } from '../filter-plugin';
import { poolUsable } from '../offer-ledger';

/**
 * Roles: an offer allocated to another role is unusable, and so is an offer with no pool the
 * request may draw from (`acceptedResourceRoles`, reservations for other roles).
 */
export const roleFilter: FilterPlugin = {
  name: 'role',
  filter(req, ledger) {
    const allocationRole = ledger.offer.allocationRole;
    if (allocationRole !== undefined && allocationRole !== req.role) return 'UnfulfilledRole';
    for (const pool of ledger.pools) {
      if (poolUsable(pool, req.role, req.acceptsUnreserved, req.acceptsReserved)) return undefined;
    }
    return 'UnfulfilledRole';
  },
};
