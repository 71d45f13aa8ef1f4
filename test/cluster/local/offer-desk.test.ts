import t from 'tap';
import { resolveAgents } from '../../../src/cluster/local/local-agent';
import { OfferDesk } from '../../../src/cluster/local/offer-desk';
import type { OfferedPool } from '../../../src/scheduler/model/offer';

const agents = resolveAgents([
  { agentId: 'a', cpus: 1, memMib: 100, diskMib: 100, ports: [1000, 1009] },
  { agentId: 'b', cpus: 1, memMib: 100, diskMib: 100, ports: [1010, 1019] },
]);
const full = (id: string): OfferedPool => ({ cpusMilli: 1000, memMilli: 100_000, diskMilli: 100_000, gpus: 0, ports: id === 'a' ? [[1000, 1009]] : [[1010, 1019]] });
const offered = (desk: OfferDesk, nowMs: number, free = full): string[] => desk.makeOffers(nowMs, free).map((o) => o.agent.agentId);

t.test('one outstanding offer per agent; an offer is taken once', async (t) => {
  const desk = new OfferDesk(agents, 'fw');
  const offers = desk.makeOffers(0, full);
  t.same(offers.map((o) => [o.offerId, o.agent.agentId]), [['fw-O1', 'a'], ['fw-O2', 'b']]);
  t.same(offered(desk, 1), [], 'both outstanding');
  t.equal(desk.take('fw-O1')?.agentId, 'a');
  t.equal(desk.take('fw-O1'), undefined, 'used');
  t.same(offered(desk, 2), ['a']);
  t.same(offered(desk, 3, () => ({ cpusMilli: 0, memMilli: 0, diskMilli: 0, gpus: 0, ports: [] })), [], 'nothing free, nothing offered');
});

t.test('refuse filters', async (t) => {
  const cases = [
    { name: '0 installs no filter', refuseMs: 0, at: 0, offered: ['a'] },
    { name: 'filtered until it expires', refuseMs: 1000, at: 999, offered: [] },
    { name: 'offered when it expired', refuseMs: 1000, at: 1000, offered: ['a'] },
    { name: 'negative means 5 s', refuseMs: -1, at: 4999, offered: [] },
    { name: 'negative means 5 s (expired)', refuseMs: -1, at: 5000, offered: ['a'] },
  ];
  for (const c of cases) {
    const desk = new OfferDesk(agents, 'fw');
    desk.makeOffers(0, full);
    desk.take('fw-O2');
    desk.refuse('b', 3_600_000, 0);
    desk.take('fw-O1');
    desk.refuse('a', c.refuseMs, 0);
    t.same(offered(desk, c.at), c.offered, c.name);
  }
  const desk = new OfferDesk(agents, 'fw');
  desk.makeOffers(0, full);
  desk.take('fw-O1');
  desk.refuse('a', 60_000, 0);
  desk.resourcesFreed('a');
  t.same(offered(desk, 1), ['a'], 'freed resources lift the filter');
});

t.test('suppress and revive per role', async (t) => {
  const cases = [
    { name: 'suppress all', calls: [['suppress', []]], offered: [] },
    { name: 'suppress all, revive all', calls: [['suppress', []], ['revive', []]], offered: ['a', 'b'] },
    { name: 'suppress the only named role', calls: [['suppress', ['web']]], offered: [] },
    { name: 'another named role is unsuppressed', calls: [['revive', ['ops']], ['suppress', ['web']]], offered: ['a', 'b'] },
    { name: 'suppress all, revive one role', calls: [['suppress', []], ['revive', ['web']]], offered: ['a', 'b'] },
    { name: 'launch roles count as named', calls: [['know', ['web', 'ops']], ['suppress', ['web']]], offered: ['a', 'b'] },
  ] as const;
  for (const c of cases) {
    const desk = new OfferDesk(agents, 'fw');
    for (const [call, roles] of c.calls) {
      if (call === 'suppress') desk.suppress(roles);
      else if (call === 'revive') desk.revive(roles);
      else desk.knowRoles(roles);
    }
    t.same(offered(desk, 0), c.offered, c.name);
  }
  const desk = new OfferDesk(agents, 'fw');
  desk.makeOffers(0, full);
  desk.take('fw-O1');
  desk.refuse('a', 60_000, 0);
  desk.take('fw-O2');
  desk.refuse('b', 60_000, 0);
  desk.revive(['web']);
  t.same(offered(desk, 1), ['a', 'b'], 'revive clears every filter');
});
