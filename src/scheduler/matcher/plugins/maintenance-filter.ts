import type { FilterPlugin } from '../filter-plugin';

/**
 * `--[disable_]maintenance_mode` (on by default, as in Marathon): an offer whose agent is in its
 * maintenance window, or about to enter it (`--draining_seconds`), hosts nothing. The ledger
 * carries the verdict, taken once per offer by the rule's owner (matcher/maintenance.ts); this
 * step only reports it, first in the pipeline: it refuses every request alike and costs one read.
 */
export const maintenanceFilter: FilterPlugin = {
  name: 'maintenance',
  filter(_req, ledger) {
    return ledger.agentInMaintenance ? 'AgentMaintenance' : undefined;
  },
};
