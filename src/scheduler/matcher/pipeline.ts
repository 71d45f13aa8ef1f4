import type { PlacementCounts } from '../constraints/placement-counts';
import type { NoMatchReason } from '../model/no-match-reason';
import type { FilterPlugin } from './filter-plugin';
import type { LaunchRequest } from '../state/launch-request';
import type { OfferLedger } from './offer-ledger';
import { constraintFilter } from './plugins/constraint-filter';
import { gpuRestrictedFilter } from './plugins/gpu-filter';
import { maintenanceFilter } from './plugins/maintenance-filter';
import { portsFilter } from './plugins/ports-filter';
import { roleFilter } from './plugins/role-filter';
import { scalarFilter } from './plugins/scalar-filter';

/**
 * The Filter stage, cheapest first (architecture §4): roles → maintenance → scarce GPUs → scalars →
 * ports → constraints (the maintenance step after the role's: the reason it reports ranks after
 * UnfulfilledRole in Marathon's funnel). Built once per scheduler; the maintenance and GPU steps
 * only in their modes.
 */
export function buildFilterPipeline(options: { gpuRestricted: boolean; maintenanceMode?: boolean }): readonly FilterPlugin[] {
  const plugins: FilterPlugin[] = [roleFilter];
  if (options.maintenanceMode === true) plugins.push(maintenanceFilter);
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

/**
 * The pipeline specialised for one launch request: only the steps that can refuse it
 * ({@link FilterPlugin.appliesTo}), in the pipeline's order, so that {@link run} gives exactly
 * what {@link runFilters} gives. The constraint step of a request whose constraints read only the
 * agent (`CompiledConstraints.agentOnly`) is evaluated once per offer (ledger) and remembered:
 * the matcher asks it for candidate after candidate of the same offer.
 */
export class RequestFilters {
  private readonly steps: readonly FilterPlugin[];
  /** The constraint step when its verdict depends on the agent alone (then not among `steps`). */
  private readonly perOffer: FilterPlugin | undefined;
  private memoLedger: OfferLedger | undefined = undefined;
  private memoReason: NoMatchReason | undefined = undefined;

  constructor(plugins: readonly FilterPlugin[], readonly request: LaunchRequest) {
    const steps: FilterPlugin[] = [];
    let perOffer: FilterPlugin | undefined;
    plugins.forEach((p, i) => {
      if (p.appliesTo !== undefined && !p.appliesTo(request)) return;
      // Only the last step can be set aside: its verdict is read after every other step accepted.
      if (p === constraintFilter && i === plugins.length - 1 && request.constraints.agentOnly) perOffer = p;
      else steps.push(p);
    });
    this.steps = steps;
    this.perOffer = perOffer;
  }

  /** Why `ledger` cannot host one more instance of the request (the first step that refuses), or undefined. */
  run(ledger: OfferLedger, counts: PlacementCounts): NoMatchReason | undefined {
    const steps = this.steps;
    for (let i = 0; i < steps.length; i++) {
      const reason = steps[i].filter(this.request, ledger, counts);
      if (reason !== undefined) return reason;
    }
    const last = this.perOffer;
    if (last === undefined) return undefined;
    if (this.memoLedger !== ledger) {
      this.memoLedger = ledger;
      this.memoReason = last.filter(this.request, ledger, counts);
    }
    return this.memoReason;
  }
}
