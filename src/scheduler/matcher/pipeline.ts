import type { PlacementCounts } from '../constraints/placement-counts';
import type { NoMatchReason } from '../model/no-match-reason';
import type { FilterPlugin } from './filter-plugin';
import type { LaunchRequest } from '../state/launch-request';
import type { OfferLedger } from './offer-ledger';
import { constraintFilter } from './plugins/constraint-filter';
import { gpuRestrictedFilter } from './plugins/gpu-filter';
import { portsFilter } from './plugins/ports-filter';
import { roleFilter } from './plugins/role-filter';
import { scalarFilter } from './plugins/scalar-filter';

/**
 * The Filter stage, cheapest first (architecture §4): roles → scarce GPUs → scalars → ports →
 * constraints. Built once per scheduler.
 */
export function buildFilterPipeline(options: { gpuRestricted: boolean }): readonly FilterPlugin[] {
  const plugins: FilterPlugin[] = [roleFilter];
  if (options.gpuRestricted) plugins.push(gpuRestrictedFilter);
  plugins.push(scalarFilter, portsFilter, constraintFilter);
  return plugins;
}

/** Runs the filters; the first rejection wins. */
export function runFilters(
  plugins: readonly FilterPlugin[], req: LaunchRequest, ledger: OfferLedger, counts: PlacementCounts,
): NoMatchReason | undefined {
  for (let i = 0; i < plugins.length; i++) {
    const reason = plugins[i].filter(req, ledger, counts);
    if (reason !== undefined) return reason;
  }
  return undefined;
}
