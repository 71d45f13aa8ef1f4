import type { FilterPlugin } from '../filter-plugin';
import { MAINTENANCE_REASON } from '../maintenance';

/**
 * `--[disable_]maintenance_mode` (on by default, as in Marathon): an offer whose agent is in its
 * maintenance window, or about to enter it (`--draining_seconds`), hosts nothing. The ledger
 * carries the verdict, taken once per offer by the rule's owner (matcher/maintenance.ts); this
 * step only reports it, under {@link MAINTENANCE_REASON}, right after the role step.
 */
export const maintenanceFilter: FilterPlugin = {
  name: 'maintenance',
  filter(_req, ledger) {
    return ledger.agentInMaintenance ? MAINTENANCE_REASON : undefined;
  },
};
