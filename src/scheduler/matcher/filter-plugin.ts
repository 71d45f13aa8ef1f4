import type { PlacementCounts } from '../constraints/placement-counts';
import type { NoMatchReason } from '../model/no-match-reason';
import type { LaunchRequest } from '../state/launch-request';
import type { OfferLedger } from './offer-ledger';

/**
 * One Filter step of the matching pipeline: says why the (rest of the) offer cannot host one more
 * instance of the request, or undefined when it can. Filters run cheapest first and must not
 * allocate on the success path.
 */
export interface FilterPlugin {
  readonly name: string;
  /**
   * False when the step can never refuse this request (no ports asked, no constraints, a GPU
   * request for the scarce-GPU rule): the pipeline specialised for a request
   * ({@link import('./pipeline').filtersFor}) leaves it out. Absent: it always applies.
   */
  appliesTo?(request: LaunchRequest): boolean;
  filter(request: LaunchRequest, ledger: OfferLedger, counts: PlacementCounts): NoMatchReason | undefined;
}
