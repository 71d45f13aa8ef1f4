import t from 'tap';
import { PlacementCounts } from '../../../../src/scheduler/constraints/placement-counts';
import { OfferLedger } from '../../../../src/scheduler/matcher/offer-ledger';
import { buildFilterPipeline, RequestFilters, runFilters } from '../../../../src/scheduler/matcher/pipeline';
import { requestKey } from '../../../../src/scheduler/matcher/request-key';
import { reserve } from '../../../../src/scheduler/matcher/reserve';
import { compileLaunchRequest } from '../../../../src/scheduler/state/launch-request';
import { makeOffer, type OfferOverrides } from '../../../builders/cluster-builders';
import { constraint, makeApp, type AppOverrides } from '../../../builders/run-spec-builders';

const APPS: Record<string, AppOverrides> = {
  plain: {},
  big: { cpus: 3 },
  gpu: { gpus: 1 },
  ports: { hostPorts: [0, 0] },
  fixedPort: { hostPorts: [31005], requirePorts: true },
  prod: { role: 'prod', acceptedResourceRoles: ['prod'] },
  like: { constraints: [constraint('rack', 'LIKE', 'rack-[12]')] },
  unlike: { constraints: [constraint('rack', 'UNLIKE', 'rack-1')] },
  is: { constraints: [constraint('generation', 'IS', '2')] },
  clusterValue: { constraints: [constraint('@zone', 'CLUSTER', 'z1')] },
  unique: { constraints: [constraint('hostname', 'UNIQUE')] },
  maxPer: { constraints: [constraint('rack', 'MAX_PER', '2')] },
  groupBy: { constraints: [constraint('@zone', 'GROUP_BY', '2')] },
  mixed: { cpus: 1, constraints: [constraint('rack', 'LIKE', 'rack-.*'), constraint('hostname', 'UNIQUE')] },
};

const OFFERS: Record<string, OfferOverrides> = {
  a: { agent: { hostname: 'a', zone: 'z1', attributes: { rack: 'rack-1', generation: 2 } } },
  b: { agent: { hostname: 'b', zone: 'z2', attributes: { rack: 'rack-2', generation: 1 } }, cpus: 2 },
  c: { agent: { hostname: 'c', zone: 'z1', attributes: { rack: 'rack-3' } }, gpus: 1 },
  d: { agent: { hostname: 'd' }, ports: [[31000, 31001]], reserved: [{ role: 'prod', cpus: 1, mem: 512 }] },
  e: { agent: { hostname: 'e', zone: 'z3', attributes: { rack: 'rack-1' } }, cpus: 0.5 },
};

t.test('the specialised pipeline of a request says what the whole pipeline says, offer after offer, placement after placement', async (t) => {
  for (const gpuRestricted of [true, false]) {
    const plugins = buildFilterPipeline({ gpuRestricted });
    for (const [appName, app] of Object.entries(APPS)) {
      const request = compileLaunchRequest(makeApp({ id: `/${appName}`, ...app }));
      const filters = new RequestFilters(plugins, request);
      const counts = new PlacementCounts(request.constraints);
      // Place on every offer until it refuses, twice round, so that counters and the ledger change.
      const ledgers = Object.entries(OFFERS).map(([name, o]) => ({ name, ledger: new OfferLedger(makeOffer({ offerId: name, ...o })) }));
      for (let round = 0; round < 2; round++) {
        for (const { name, ledger } of ledgers) {
          for (let k = 0; k < 3; k++) {
            const whole = runFilters(plugins, request, ledger, counts);
            t.equal(filters.run(ledger, counts), whole, `${appName} on ${name}, round ${round}, gpuRestricted ${gpuRestricted}: ${whole ?? 'fits'}`);
            if (whole !== undefined) break;
            reserve(request, ledger);
            counts.add(ledger.offer.agent);
          }
        }
      }
    }
  }
});

t.test('requests alike but for the run spec id share one key; any difference that a filter reads gives another', async (t) => {
  const key = (o: AppOverrides) => requestKey(compileLaunchRequest(makeApp(o)));
  t.equal(key({ id: '/a', constraints: [constraint('rack', 'LIKE', 'r.*')] }), key({ id: '/b', constraints: [constraint('rack', 'LIKE', 'r.*')] }));
  const base: AppOverrides = { id: '/a', role: 'prod', cpus: 1, mem: 64, constraints: [constraint('rack', 'MAX_PER', '2')] };
  const others: AppOverrides[] = [
    { cpus: 2 }, { mem: 65 }, { disk: 1 }, { gpus: 1 }, { role: 'dev' }, { acceptedResourceRoles: ['*'] }, { acceptedResourceRoles: ['prod'] },
    { hostPorts: [0] },
    { constraints: [constraint('rack', 'MAX_PER', '3')] }, { constraints: [constraint('rack', 'GROUP_BY', '2')] },
    { constraints: [constraint('rock', 'MAX_PER', '2')] }, { constraints: [] },
  ];
  for (const o of others) t.not(key({ ...base, ...o, id: '/b' }), key(base), JSON.stringify(o));
});
