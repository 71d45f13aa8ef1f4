import { constraintsAccept } from '../../constraints/constraints-accept';
import type { FilterPlugin } from '../filter-plugin';

/**
 * Placement constraints against the agent of the offer, using the run spec's placement counters
 * (which already include instances placed earlier in this cycle).
 */
export const constraintFilter: FilterPlugin = {
  name: 'constraints',
  appliesTo: (req) => req.constraints.constraints.length > 0,
  filter(req, ledger, counts) {
    return constraintsAccept(req.constraints, counts, ledger.offer.agent) < 0 ? undefined : 'UnfulfilledConstraint';
  },
};
