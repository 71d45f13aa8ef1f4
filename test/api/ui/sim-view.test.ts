import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import t from 'tap';
import type { SimViewJson } from '../../../src/api/ui/sim-view';
import { SIM_VIEW_SCHEMA } from '../../../src/api/ui/sim-view';
import { defaultConfig, type PacerConfig } from '../../../src/runtime/config';
import { startSim } from '../../../src/runtime/start-sim';
import { tempDir, waitFor } from '../../e2e/e2e-kit';
import { PATIENCE_MS } from '../../harness/wait';

/**
 * `GET /pacer/v1/sim` over `--cluster sim`: virtual time, agents with their pools, the workload's faults.
 * The run is paced by the wall clock (speed 50), so the workload leaves wide windows: 12 s of wall
 * time before the partition to see both instances placed, and 60 s inside it, for a loaded machine.
 */

const WORKLOAD = `name: sim-view-test
description: two zones, a partition that heals, an agent killed, one added
seed: 3
duration: 2h
cluster:
  agents:
    - { count: 3, zones: [a, b], resources: { cpus: 2, mem: 2048, ports: "31000-31009" }, attributes: { rack: "r{n}" } }
timeline:
  - { at: 0s, app: { id: /web, cmd: sleep 3600, instances: 2, cpus: 0.5, mem: 128, portDefinitions: [{ port: 0 }] } }
  - { at: 10m, partition: agent-1 }
  - { at: 60m, heal: agent-1 }
  - { at: 70m, killAgent: agent-3 }
`;

t.test('the simulation endpoint shows the virtual clock, each agent and the faults, in its schema', async (t) => {
  const workload = join(tempDir(t, 'pacer-sim-view-'), 'workload.yaml');
  writeFileSync(workload, WORKLOAD);
  const config: PacerConfig = { ...defaultConfig(process.cwd()), cluster: 'sim', port: 0, workload, speed: 50 };
  const pacer = await startSim(config);
  t.teardown(() => pacer.close());
  const validate = new Ajv({ allErrors: true }).compile<SimViewJson>(SIM_VIEW_SCHEMA);
  const read = async (): Promise<SimViewJson> => {
    const res = await fetch(`http://${pacer.address}/pacer/v1/sim`, { signal: AbortSignal.timeout(5000) });
    t.equal(res.status, 200);
    const body = (await res.json()) as unknown;
    if (!validate(body)) throw new Error(`not in the schema: ${JSON.stringify(validate.errors)}`);
    return body;
  };

  const first = await read();
  t.match(first.workload, { name: 'sim-view-test', description: /partition/, seed: 3, durationMs: 7_200_000, speed: 50, verdict: 'running', violations: [] });
  t.same(first.agents.map((a) => [a.agentId, a.zone, a.attributes.rack, a.phase]), [
    ['agent-1', 'a', 'r1', 'connected'], ['agent-2', 'b', 'r2', 'connected'], ['agent-3', 'a', 'r3', 'connected'],
  ]);
  t.same(first.agents[0]?.pools.map((p) => [p.role, p.cpus.total, p.mem.total, p.ports.total]), [['*', 2, 2048, 10]], 'capacity per pool');
  t.same(first.faults.map((f) => [f.atMs, f.kind, f.agentIds]), [
    [600_000, 'partition', ['agent-1']], [3_600_000, 'heal', ['agent-1']], [4_200_000, 'killAgent', ['agent-3']],
  ]);

  // Two instances of 0.5 cpus, 128 MiB and one port each, wherever they were placed.
  const placed = await waitFor(async () => {
    const v = await read();
    return v.agents.reduce((n, a) => n + a.tasks, 0) === 2 && v;
  }, 'both instances on agents', PATIENCE_MS);
  const used = placed.agents.flatMap((a) => a.pools);
  t.equal(used.reduce((n, p) => n + p.cpus.used, 0), 1, 'cpus used by the live tasks');
  t.equal(used.reduce((n, p) => n + p.mem.used, 0), 256, 'mem used');
  t.equal(used.reduce((n, p) => n + p.ports.used, 0), 2, 'ports used');

  const partitioned = await waitFor(async () => {
    const v = await read();
    return v.virtualTime.elapsedMs >= 600_000 && v.virtualTime.elapsedMs < 3_600_000 && v;
  }, 'virtual time inside the partition', PATIENCE_MS);
  t.not(partitioned.agents[0]?.phase, 'connected', 'agent-1 is cut off during its partition');
  t.same(partitioned.faults.map((f) => f.done), [true, false, false], 'the partition has happened, the rest is to come');
  t.match(partitioned.virtualTime.now, /^2026-01-01T00:([1-5]\d):/, 'the virtual instant');
});
