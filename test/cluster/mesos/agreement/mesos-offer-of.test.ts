import t from 'tap';
import { offerFromMesos } from '../../../../src/cluster/mesos/translate/offer-from-mesos';
import type { Offer } from '../../../../src/scheduler/model/offer';
import { mesosOfferOf } from '../fake-master/sim-backed-master';

/** A simulated offer as the simulator's allocator makes it (no allocation role). */
function simOffer(overrides: Partial<Offer> = {}): Offer {
  return {
    offerId: 'offer-1',
    agent: { agentId: 'a-1', hostname: 'a-1', attributes: [] },
    pools: [{ cpusMilli: 8000, memMilli: 8_192_000, diskMilli: 10_000_000, gpus: 0, ports: [[31000, 31100]] }],
    ...overrides,
  };
}

const CASES: readonly { readonly name: string; readonly offer: Offer }[] = [
  { name: 'unreserved resources, no fault domain, no attributes', offer: simOffer() },
  {
    name: 'a fault domain and every attribute type',
    offer: simOffer({
      agent: {
        agentId: 'eu-2', hostname: 'eu-host-2', region: 'eu-west', zone: 'eu-b',
        attributes: [
          { name: 'rack', type: 'text', text: 'rack-2' },
          { name: 'ssd_ratio', type: 'scalar', scalar: 0.8 },
          { name: 'numa', type: 'ranges', ranges: [[0, 1], [4, 5]] },
          { name: 'disks', type: 'set', set: ['bay0', 'ssd'] },
        ],
      },
    }),
  },
  {
    name: 'a static reservation and gpus beside the unreserved pool',
    offer: simOffer({
      pools: [
        { cpusMilli: 2500, memMilli: 1_024_000, diskMilli: 0, gpus: 2, ports: [[31000, 31010], [31020, 31030]] },
        { reservedFor: 'prod', cpusMilli: 2000, memMilli: 2_048_000, diskMilli: 0, gpus: 0, ports: [] },
      ],
    }),
  },
];

for (const { name, offer } of CASES) {
  t.test(`a simulated offer reads back the same through the driver's translation: ${name}`, async (t) => {
    const wire = mesosOfferOf('F-1', offer);
    t.equal(wire.frameworkId.value, 'F-1');
    t.same(offerFromMesos(wire), offer);
  });
}
