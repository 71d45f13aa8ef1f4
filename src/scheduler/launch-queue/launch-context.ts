import type { CorePorts, InstanceContext } from '../instances/instance-context';
import type { OfferDemand } from './offer-demand';

/**
 * What the matcher and the launcher work with: the instance tracker's context and the offer
 * demand (which run specs want offers now, revive/suppress per role).
 */
export interface LaunchContext extends InstanceContext, CorePorts {
  readonly demand: OfferDemand;
}
