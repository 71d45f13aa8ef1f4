import type { FilterPlugin } from '../filter-plugin';

/**
 * Roles: an offer allocated to another role is unusable, and so is an offer with no pool the
 * request may draw from (`acceptedResourceRoles`, reservations for other roles).
 */
export const roleFilter: FilterPlugin = {
  name: 'role',
  filter(req, ledger) {
    const allocationRole = ledger.offer.allocationRole;
    if (allocationRole !== undefined && allocationRole !== req.role) return 'UnfulfilledRole';
    return ledger.usable(req.role, req.acceptsUnreserved, req.acceptsReserved).pools > 0 ? undefined : 'UnfulfilledRole';
  },
};
