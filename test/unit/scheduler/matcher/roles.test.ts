import t from 'tap';
import type { NoMatchReason } from '../../../../src/scheduler/model/no-match-reason';
import { makeOffer, type OfferOverrides } from '../../../builders/cluster-builders';
import { makeApp } from '../../../builders/run-spec-builders';
import { Harness } from '../../../harness/core-harness';

/** Offers with: U = unreserved only, R = reserved for dev only, UR = both, X = reserved for another role only. */
const POOLS: Record<string, OfferOverrides> = {
  U: { cpus: 1 },
  R: { unreserved: false, reserved: [{ role: 'dev', cpus: 1, mem: 1024, disk: 1024, ports: [[8000, 8100]] }] },
  UR: { cpus: 1, reserved: [{ role: 'dev', cpus: 1, mem: 1024, disk: 1024, ports: [[8000, 8100]] }] },
  X: { unreserved: false, reserved: [{ role: 'other', cpus: 1, mem: 1024, disk: 1024 }] },
};

interface Case {
  readonly role: string;
  readonly accepted: readonly string[];
  readonly pools: keyof typeof POOLS;
  /** The pools the instance drew from (reservedFor, '*' = unreserved), or the rejection. */
  readonly expect: readonly string[] | NoMatchReason;
}

const cases: Case[] = [
  { role: '*', accepted: [], pools: 'U', expect: ['*'] },
  { role: '*', accepted: [], pools: 'R', expect: 'UnfulfilledRole' },
  { role: '*', accepted: ['*'], pools: 'UR', expect: ['*'] },
  { role: 'dev', accepted: [], pools: 'U', expect: ['*'] },
  { role: 'dev', accepted: [], pools: 'R', expect: ['dev'] },
  { role: 'dev', accepted: [], pools: 'UR', expect: ['dev'] },
  { role: 'dev', accepted: [], pools: 'X', expect: 'UnfulfilledRole' },
  { role: 'dev', accepted: ['*'], pools: 'U', expect: ['*'] },
  { role: 'dev', accepted: ['*'], pools: 'R', expect: 'UnfulfilledRole' },
  { role: 'dev', accepted: ['*'], pools: 'UR', expect: ['*'] },
  { role: 'dev', accepted: ['dev'], pools: 'U', expect: 'UnfulfilledRole' },
  { role: 'dev', accepted: ['dev'], pools: 'R', expect: ['dev'] },
  { role: 'dev', accepted: ['dev'], pools: 'UR', expect: ['dev'] },
  { role: 'dev', accepted: ['*', 'dev'], pools: 'U', expect: ['*'] },
  { role: 'dev', accepted: ['*', 'dev'], pools: 'R', expect: ['dev'] },
  { role: 'dev', accepted: ['*', 'dev'], pools: 'UR', expect: ['dev'] },
  { role: 'dev', accepted: ['*', 'dev'], pools: 'X', expect: 'UnfulfilledRole' },
];

t.test('acceptedResourceRoles against unreserved and reserved pools', async (t) => {
  for (const c of cases) {
    const name = `role ${c.role}, accepted ${JSON.stringify(c.accepted)}, offer ${c.pools}`;
    const h = new Harness();
    // Roles other than the default are allowed below a top-level group of that name (fact 110).
    const id = c.role === '*' ? '/app' : `/${c.role}/app`;
    h.put(makeApp({ id, role: c.role, acceptedResourceRoles: c.accepted }));
    const launched = h.offer(makeOffer(POOLS[c.pools]));
    if (typeof c.expect === 'string') {
      t.same(launched, [], `${name}: rejected`);
      t.same(h.scheduler.rejections(id)?.byReason(), { [c.expect]: 1 }, `${name}: ${c.expect}`);
    } else {
      t.equal(launched.length, 1, `${name}: launched`);
      const alloc = h.calls('accept')[0].operations[0].allocation;
      t.same(alloc.map((p) => p.reservedFor ?? '*'), c.expect, `${name}: drew from ${c.expect.join(',')}`);
      t.equal(launched[0].role, c.role);
    }
  }
});

t.test('reserved resources are used first; an instance may span reserved and unreserved pools', async (t) => {
  const h = new Harness();
  h.put(makeApp({ id: '/dev/app', role: 'dev', cpus: 1, mem: 100, hostPorts: [0] }));
  h.offer(makeOffer({ cpus: 4, mem: 1000, ports: [[31000, 31010]], reserved: [{ role: 'dev', cpus: 0.25, mem: 1000, ports: [[8000, 8000]] }] }));
  const [op] = h.calls('accept')[0].operations;
  t.same(op.allocation.map((p) => [p.reservedFor, p.cpusMilli, p.memMilli, p.ports]), [
    ['dev', 250, 100_000, [[8000, 8000]]],
    [undefined, 750, 0, []],
  ]);
});

t.test('acceptedResourceRoles [R]: a reserved shortfall is not covered by unreserved resources', async (t) => {
  const h = new Harness();
  h.put(makeApp({ id: '/dev/app', role: 'dev', acceptedResourceRoles: ['dev'], cpus: 1 }));
  t.same(h.offer(makeOffer({ cpus: 8, reserved: [{ role: 'dev', cpus: 0.5, mem: 1024 }] })), []);
  t.same(h.scheduler.rejections('/dev/app')?.byReason(), { InsufficientCpus: 1 });
});

t.test('an offer allocated to another role is unusable', async (t) => {
  const cases: [string, string | undefined, boolean][] = [
    ['dev', 'dev', true],
    ['dev', 'other', false],
    ['*', 'dev', false],
    ['*', '*', true],
    ['dev', undefined, true],
  ];
  for (const [role, allocationRole, ok] of cases) {
    const h = new Harness();
    const id = role === '*' ? '/app' : `/${role}/app`;
    h.put(makeApp({ id, role }));
    const launched = h.offer(makeOffer({ allocationRole }));
    t.equal(launched.length, ok ? 1 : 0, `role ${role}, allocationRole ${allocationRole}`);
    if (!ok) t.same(h.scheduler.rejections(id)?.byReason(), { UnfulfilledRole: 1 });
  }
});

t.test('GPU-restricted: only usable pools with GPUs count as scarce', async (t) => {
  const h = new Harness();
  h.put(makeApp({ id: '/dev/app', role: 'dev', acceptedResourceRoles: ['*'] }));
  t.equal(h.offer(makeOffer({ reserved: [{ role: 'dev', gpus: 4 }] })).length, 1, 'GPUs in a pool it may not use do not matter');
  const h2 = new Harness();
  h2.put(makeApp({ id: '/dev/app', role: 'dev' }));
  t.same(h2.offer(makeOffer({ reserved: [{ role: 'dev', gpus: 4 }] })), []);
  t.same(h2.scheduler.rejections('/dev/app')?.byReason(), { DeclinedScarceResources: 1 });
});
