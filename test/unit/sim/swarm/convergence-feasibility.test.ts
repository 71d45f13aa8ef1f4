import t from 'tap';
import { convergenceFeasibility } from '../../../../sim/swarm/convergence-feasibility';
import type { SimAgentSpec } from '../../../../sim/cluster/sim-agent-spec';
import type { RunSpec } from '../../../../src/scheduler/model/run-spec';
import type { AgentAttribute } from '../../../../src/scheduler/model/agent';
import { constraint, makeApp } from '../../../builders/run-spec-builders';

/** An agent with room for everything these cases place, and text attributes. */
function agent(agentId: string, attributes: Record<string, string>): SimAgentSpec {
  const attrs: AgentAttribute[] = Object.entries(attributes).map(([name, text]) => ({ name, type: 'text', text }));
  return {
    agentId, hostname: agentId, region: 'r', zone: 'z', attributes: attrs,
    resources: { cpus: 16, mem: 16384, disk: 0, gpus: 0, ports: [[31000, 31100]] }, reserved: [],
  };
}

// Seed 20163's cluster in small: silver agents without a rack, gold ones with racks.
const SILVER = [agent('agent-1', { tier: 'silver' }), agent('agent-2', { tier: 'silver' })];
const GOLD = [agent('node-1', { tier: 'gold', rack: 'r0' }), agent('node-2', { tier: 'gold', rack: 'r1' })];
const AGENTS = [...SILVER, ...GOLD];

const anywhere = makeApp({ id: '/api', instances: 3, cpus: 0.1, mem: 32 });
const final = makeApp({ id: '/api', instances: 3, cpus: 0.1, mem: 32, constraints: [constraint('rack', 'IS', 'r0'), constraint('tier', 'CLUSTER')] });
const goldOnly = makeApp({ id: '/api', instances: 3, cpus: 0.1, mem: 32, constraints: [constraint('tier', 'LIKE', 'gold')] });
const staticOnly = makeApp({ id: '/api', instances: 3, cpus: 0.1, mem: 32, constraints: [constraint('rack', 'IS', 'r0')] });

interface Row {
  readonly name: string;
  readonly spec: RunSpec;
  readonly earlier: readonly RunSpec[];
  /** undefined: convergence promised; else a text the reason must contain. */
  readonly reason: string | undefined;
}

const ROWS: readonly Row[] = [
  { name: 'no earlier definition: CLUSTER alone on eligible good agents', spec: final, earlier: [], reason: undefined },
  {
    name: 'seed 20163: an earlier definition may leave instances on a silver agent, which pins tier CLUSTER',
    spec: final, earlier: [anywhere], reason: 'an earlier definition may leave instances on agent-1, which the final one cannot use, counted by its CLUSTER on tier',
  },
  { name: 'the earlier definition used only agents the final one may use', spec: final, earlier: [makeApp({ ...final, instances: 5 })], reason: undefined },
  { name: 'earlier placements elsewhere matter only to counting rules', spec: staticOnly, earlier: [anywhere], reason: undefined },
  {
    name: 'any earlier definition of several counts',
    spec: makeApp({ ...final, constraints: [constraint('hostname', 'UNIQUE')] }), earlier: [goldOnly, makeApp({ ...goldOnly, constraints: [constraint('tier', 'LIKE', 'gold')] })],
    reason: undefined,
  },
  {
    name: 'UNIQUE counts them too',
    spec: makeApp({ ...goldOnly, constraints: [constraint('tier', 'LIKE', 'gold'), constraint('rack', 'UNIQUE')] }), earlier: [goldOnly, anywhere],
    reason: 'on agent-1, which the final one cannot use, counted by its UNIQUE on rack',
  },
];

for (const row of ROWS) {
  t.test(row.name, async (t) => {
    const why = convergenceFeasibility([row.spec], AGENTS, [], new Map([[row.spec.id, row.earlier]]));
    if (row.reason === undefined) t.equal(why, undefined, 'convergence promised');
    else t.match(why ?? '', row.reason, 'not promised, saying why');
  });
}
