import t from 'tap';
import { AgentLedger } from '../../../../src/master/agent-ledger';
import type { OfferedPool } from '../../../../src/scheduler/model/offer';
import { clusterBooks, type ClusterBooksSource } from '../../../../sim/runner/cluster-books';

/**
 * The over-commit check pairs each pool's usage with that same pool's capacity. An agent may hold
 * several pools of one role: its static reservation and the dynamic reservations of resident
 * instances (one per instance). Found by an outside-in fuzzer over --cluster sim ("agent agent-1
 * over-committed in pool fz: port 31004 outside the agent's ranges"): the check compared a
 * resident instance's reservation with the first pool of its role, and so reported ports (and
 * could report cpus, mem, disk) that the reservation holds as outside the agent's ranges.
 */

const unreserved: OfferedPool = { cpusMilli: 4000, memMilli: 4_096_000, diskMilli: 2_000_000, gpus: 0, ports: [[31000, 31010]] };
const staticFz: OfferedPool = { reservedFor: 'fz', cpusMilli: 1000, memMilli: 512_000, diskMilli: 200_000, gpus: 0, ports: [[32000, 32003]] };
const amounts = (cpusMilli: number, ports: [number, number][]): OfferedPool => ({ cpusMilli, memMilli: 128_000, diskMilli: 100_000, gpus: 0, ports });
const on = (reservationId: string, a: OfferedPool): OfferedPool => ({ ...a, reservedFor: 'fz', reservationId });

/** The books of one agent `agent-1` over a real ledger, as the simulator's master keeps them. */
function booksOf(ledger: AgentLedger): ReturnType<typeof clusterBooks> {
  const source: ClusterBooksSource = {
    violations: [],
    liveTasks: () => [],
    agentStatus: () => ({ phase: 'connected', dead: false }),
    agentCapacity: () => ledger.capacity(),
    agentUsage: () => ledger.usage(),
  };
  return clusterBooks(source);
}

const cases: { name: string; pools: OfferedPool[]; reserve: [string, OfferedPool][]; consume: OfferedPool[]; want: string | undefined }[] = [
  {
    name: 'a resident instance on its reservation, beside a static reservation of its role',
    pools: [unreserved, staticFz],
    reserve: [['i1', amounts(500, [[31004, 31004]])]],
    consume: [on('i1', amounts(500, [[31004, 31004]]))],
    want: undefined,
  },
  {
    name: 'two resident instances of one role on one agent, the second bigger than the first',
    pools: [unreserved],
    reserve: [['i1', amounts(500, [[31000, 31000]])], ['i2', amounts(1000, [[31001, 31002]])]],
    consume: [on('i1', amounts(500, [[31000, 31000]])), on('i2', amounts(1000, [[31001, 31002]]))],
    want: undefined,
  },
  {
    name: 'the static pool and a reservation both in use',
    pools: [unreserved, staticFz],
    reserve: [['i1', amounts(500, [[31004, 31004]])]],
    consume: [{ ...staticFz, cpusMilli: 1000, memMilli: 0, ports: [[32000, 32000]] }, on('i1', amounts(500, [[31004, 31004]]))],
    want: undefined,
  },
  {
    name: 'a reservation used beyond its own ports is still reported, naming the reservation',
    pools: [unreserved, staticFz],
    reserve: [['i1', amounts(500, [[31004, 31004]])]],
    consume: [on('i1', amounts(500, [[31005, 31005]]))],
    want: 'agent agent-1 over-committed in pool fz#i1: port 31005 outside the agent\'s ranges',
  },
  {
    name: 'a reservation used beyond its own cpus is still reported',
    pools: [unreserved, staticFz],
    reserve: [['i1', amounts(500, [[31004, 31004]])]],
    consume: [on('i1', amounts(600, [[31004, 31004]]))],
    want: 'agent agent-1 over-committed in pool fz#i1: cpus 0.6 > 0.5',
  },
  {
    name: 'the static pool over-committed is reported as before',
    pools: [unreserved, staticFz],
    reserve: [['i1', amounts(500, [[31004, 31004]])]],
    consume: [{ ...staticFz, ports: [[31004, 31004]] }],
    want: 'agent agent-1 over-committed in pool fz: port 31004 outside the agent\'s ranges',
  },
];

for (const c of cases) {
  t.test(c.name, async (t) => {
    const ledger = new AgentLedger(c.pools);
    for (const [id, a] of c.reserve) ledger.reserve('fz', id, a);
    ledger.consume(c.consume);
    t.equal(booksOf(ledger).overcommitted('agent-1'), c.want);
  });
}
