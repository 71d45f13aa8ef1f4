import t from 'tap';
import { makeOffer } from '../../../builders/cluster-builders';
import { makeApp } from '../../../builders/run-spec-builders';
import { Harness } from '../../../harness/core-harness';

/*
 * The framework's roles that nothing wants offers for are suppressed once the first offers came,
 * and when the set of roles changes, not only when a role's last waiting run spec is placed
 * (launch-queue/offer-demand.ts, suppressIdle). Found against a Mesos master: a pacer restarted
 * with every instance running sent no SUPPRESS and kept declining offers. Each row starts a core
 * (from the store another core left, when `restartWith` says so), makes its changes, and lists
 * the revive and suppress calls the driver saw, in order.
 */

type Calls = { type: string; roles: readonly string[] }[];

/** A core that ran `setup`: its apps placed and running when `placeAll`, then stopped (its store kept). */
function storeAfter(setup: (h: Harness) => void, placeAll: boolean): Harness {
  const h = new Harness();
  setup(h);
  if (placeAll) h.run(h.offer(makeOffer({ cpus: 16, mem: 16_384, allocationRole: '*' })));
  return h;
}

function demandCalls(h: Harness): Calls {
  return h.calls().filter((c) => c.type === 'revive' || c.type === 'suppress') as Calls;
}

/** The first offers since the core started (a small one: nothing the rows' apps want fits it unless they say so). */
function firstOffers(h: Harness): Harness {
  h.offer(makeOffer({ offerId: 'first' }));
  return h;
}

const rows: { name: string; start: () => Harness; then?: (h: Harness) => void; calls: Calls }[] = [
  {
    name: 'nothing is suppressed before the first offers came (what-if and /v2/capacity learn the agents from them)',
    start: () => new Harness(),
    then: (h) => {
      h.advance(60_000);
      h.put(makeApp({ id: '/dev/idle', role: 'dev', instances: 0 }));
    },
    calls: [],
  },
  {
    name: 'an empty pacer suppresses its default role once the first offers came',
    start: () => firstOffers(new Harness()),
    calls: [{ type: 'suppress', roles: ['*'] }],
  },
  {
    name: 'a pacer restarted with every instance running suppresses at its first offers',
    start: () => {
      const before = storeAfter((h) => h.put(makeApp({ id: '/web', instances: 2 })), true);
      return firstOffers(new Harness({ stored: before.store.load(), startMs: before.nowMs }));
    },
    calls: [{ type: 'suppress', roles: ['*'] }],
  },
  {
    name: 'a pacer restarted with an instance waiting does not suppress the role it waits for',
    start: () => {
      const before = storeAfter((h) => h.put(makeApp({ id: '/big', cpus: 100 })), true);
      return firstOffers(new Harness({ stored: before.store.load(), startMs: before.nowMs }));
    },
    calls: [{ type: 'revive', roles: ['*'] }],
  },
  {
    name: 'a new role whose app has nothing to place is suppressed when it joins the framework',
    start: () => firstOffers(new Harness()),
    then: (h) => h.put(makeApp({ id: '/dev/idle', role: 'dev', instances: 0 })),
    calls: [{ type: 'suppress', roles: ['*'] }, { type: 'suppress', roles: ['dev'] }],
  },
  {
    name: 'a new role whose app waits is revived, not suppressed',
    start: () => firstOffers(new Harness()),
    then: (h) => h.put(makeApp({ id: '/dev/a', role: 'dev' })),
    calls: [{ type: 'suppress', roles: ['*'] }, { type: 'revive', roles: ['dev'] }],
  },
  {
    name: 'a role suppressed already is not suppressed again when the roles change',
    start: () => firstOffers(new Harness()),
    then: (h) => {
      h.put(makeApp({ id: '/dev/idle', role: 'dev', instances: 0 }));
      h.put(makeApp({ id: '/ops/idle', role: 'ops', instances: 0 }));
    },
    calls: [{ type: 'suppress', roles: ['*'] }, { type: 'suppress', roles: ['dev'] }, { type: 'suppress', roles: ['ops'] }],
  },
  {
    name: 'inputs that do not change the roles suppress nothing more',
    start: () => firstOffers(new Harness()),
    then: (h) => {
      h.advance(60_000);
      h.offer(makeOffer());
    },
    calls: [{ type: 'suppress', roles: ['*'] }],
  },
];

for (const row of rows) {
  t.test(row.name, async (t) => {
    const h = row.start();
    row.then?.(h);
    t.same(demandCalls(h), row.calls);
    // Each suppress is for roles the driver was told the framework has.
    const known = new Set<string>(['*']);
    for (const c of h.calls()) {
      if (c.type === 'updateFramework') for (const r of (c as { roles: readonly string[] }).roles) known.add(r);
      if (c.type === 'suppress') for (const r of (c as { roles: readonly string[] }).roles) t.ok(known.has(r), `${r} is a framework role when suppressed`);
    }
  });
}
