import t from 'tap';
import type { SimAgentSpec, SimResources } from '../../../../sim/cluster/sim-agent-spec';
import { DEFAULT_SIM_TIMINGS } from '../../../../sim/cluster/sim-models';
import { loadScenario } from '../../../../sim/scenario/load-scenario';
import type { Scenario } from '../../../../sim/scenario/scenario';

const FULL = `
name: partition
description: one agent drops off the network and comes back
seed: 42
duration: 30m
options:
  taskKilling: true
  defaultRole: prod
  maxInstancesPerOffer: 5
  timings: { offerInterval: 2s, staging: [50ms, 200ms], running: 1s, agentPingTimeout: 1m15s, probeLatency: [1, 20] }
invariants:
  convergeWithin: 5m
cluster:
  agents:
    - count: 3
      region: us-east-1
      zones: [a, b]
      resources: { cpus: 4, mem: 8192, disk: 20000, ports: "31000-31999,33000-33009" }
      reserved: [ { role: prod, cpus: 2, mem: 1024 } ]
      attributes:
        rack: "r{n%2}"
        ssd: { set: [x, "y{n}"] }
        weight: 2.5
        slots: { ranges: [[1, 5]] }
    - idPrefix: big
      hostnamePrefix: bighost
      resources: { cpus: 32, mem: 65536, gpus: 2, ports: [[8000, 8100]] }
timeline:
  - at: 0s
    app: { id: /web, instances: 3, cpus: 0.5, mem: 128, cmd: "sleep 1000", labels: { tier: front } }
  - at: 0
    pod: { id: /db, containers: [ { name: c, resources: { cpus: 1, mem: 64 } } ] }
  - at: 1m
    scale: { id: /web, instances: 5 }
  - at: 1m30s
    kill: { id: web, count: 2, scale: true }
  - at: 2m
    kill: { id: /web, agent: agent-2 }
  - at: 3m
    partition: agent-1
  - at: 4m
    heal: agent-1
  - at: 4m
    addAgents: { count: 2, resources: { cpus: 1, mem: 512 } }
  - at: 5m
    killAgent: agent-5
  - at: 5m
    health: { id: /web, model: { kind: failingDuring, from: 5m, to: 6m } }
  - at: 5m
    health: { id: /db, model: { kind: slow, latency: 30s } }
  - at: 6m
    taskModel: { id: /web, model: { kind: exitAfter, after: [10s, 20s], state: TASK_FINISHED } }
  - at: 6m
    taskModel: { id: /db, model: { kind: failToStart, after: 1.5s } }
  - at: 7m
    resetDelay: /web
  - at: 8m
    delete: /db
  - at: 10m
    expect:
      instances:
        /web: { Running: 3, Unreachable: ">=1", total: "2..4" }
      healthy: { web: ">0" }
      spread:
        - { id: /web, field: "@zone", values: 2, maxPerValue: 2, maxSkew: 1 }
      onAgents: { id: /web, agents: [agent-1, agent-4] }
      events:
        - { type: unhealthy_instance_kill_event, min: 1, max: 5, where: { appId: /web }, since: 1m }
        - { type: app_terminated_event }
      rejections:
        - { id: /db, reason: InsufficientCpus }
  - at: 30m
    note: "the end"
`;

t.test('a full example loads into the exact typed structure', async (t) => {
  const result = loadScenario('scenarios/partition.yaml', FULL);
  if (!result.ok) {
    t.fail(result.errors.join('\n'));
    return;
  }
  const resources: SimResources = { cpus: 4, mem: 8192, disk: 20000, gpus: 0, ports: [[31000, 31999], [33000, 33009]] };
  const reserved: SimAgentSpec['reserved'] = [{ role: 'prod', cpus: 2, mem: 1024, disk: 0, gpus: 0, ports: [] }];
  const smallAgent = (n: number): SimAgentSpec => ({
    agentId: `agent-${n}`, hostname: `agent-${n}`, attributes: [],
    resources: { cpus: 1, mem: 512, disk: 0, gpus: 0, ports: [[31000, 32000]] }, reserved: [],
  });
  const agent = (n: number, zone: string): SimAgentSpec => ({
    agentId: `agent-${n}`,
    hostname: `agent-${n}`,
    region: 'us-east-1',
    zone,
    attributes: [
      { name: 'rack', type: 'text', text: `r${n % 2}` },
      { name: 'ssd', type: 'set', set: ['x', `y${n}`] },
      { name: 'weight', type: 'scalar', scalar: 2.5 },
      { name: 'slots', type: 'ranges', ranges: [[1, 5]] },
    ],
    resources,
    reserved,
  });
  const expected: Scenario = {
    name: 'partition',
    description: 'one agent drops off the network and comes back',
    seed: 42,
    durationMs: 1_800_000,
    options: {
      taskKilling: true,
      defaultRole: 'prod',
      maxInstancesPerOffer: 5,
      timings: {
        ...DEFAULT_SIM_TIMINGS,
        offerIntervalMs: 2000,
        stagingMs: [50, 200],
        runningMs: [1000, 1000],
        agentPingTimeoutMs: 75_000,
        probeLatencyMs: [1, 20],
      },
    },
    invariants: { convergeWithinMs: 300_000 },
    agents: [
      agent(1, 'a'), agent(2, 'b'), agent(3, 'a'),
      { agentId: 'big-1', hostname: 'bighost-1', attributes: [], resources: { cpus: 32, mem: 65536, disk: 0, gpus: 2, ports: [[8000, 8100]] }, reserved: [] },
    ],
    timeline: [
      {
        atMs: 0, line: 29, pointer: '/timeline/0',
        action: {
          type: 'app', pointer: '/timeline/0/app', runSpecId: '/web', force: false,
          definition: { id: '/web', instances: 3, cpus: 0.5, mem: 128, cmd: 'sleep 1000', labels: { tier: 'front' } },
        },
      },
      {
        atMs: 0, line: 31, pointer: '/timeline/1',
        action: {
          type: 'pod', pointer: '/timeline/1/pod', runSpecId: '/db', force: false,
          definition: { id: '/db', containers: [{ name: 'c', resources: { cpus: 1, mem: 64 } }] },
        },
      },
      { atMs: 60_000, line: 33, pointer: '/timeline/2', action: { type: 'scale', runSpecId: '/web', instances: 5, force: false } },
      {
        atMs: 90_000, line: 35, pointer: '/timeline/3',
        action: { type: 'kill', runSpecId: '/web', target: { kind: 'count', count: 2 }, scale: true, wipe: false },
      },
      {
        atMs: 120_000, line: 37, pointer: '/timeline/4',
        action: { type: 'kill', runSpecId: '/web', target: { kind: 'agent', agentId: 'agent-2' }, scale: false, wipe: false },
      },
      { atMs: 180_000, line: 39, pointer: '/timeline/5', action: { type: 'partition', agentId: 'agent-1' } },
      { atMs: 240_000, line: 41, pointer: '/timeline/6', action: { type: 'heal', agentId: 'agent-1' } },
      { atMs: 240_000, line: 43, pointer: '/timeline/7', action: { type: 'addAgents', agents: [smallAgent(4), smallAgent(5)] } },
      { atMs: 300_000, line: 45, pointer: '/timeline/8', action: { type: 'killAgent', agentId: 'agent-5' } },
      {
        atMs: 300_000, line: 47, pointer: '/timeline/9',
        action: { type: 'health', runSpecId: '/web', model: { kind: 'failingDuring', fromMs: 300_000, toMs: 360_000 } },
      },
      {
        atMs: 300_000, line: 49, pointer: '/timeline/10',
        action: { type: 'health', runSpecId: '/db', model: { kind: 'slow', latencyMs: 30_000 } },
      },
      {
        atMs: 360_000, line: 51, pointer: '/timeline/11',
        action: { type: 'taskModel', runSpecId: '/web', model: { kind: 'exitAfter', afterMs: [10_000, 20_000], state: 'TASK_FINISHED' } },
      },
      {
        atMs: 360_000, line: 53, pointer: '/timeline/12',
        action: { type: 'taskModel', runSpecId: '/db', model: { kind: 'failToStart', afterMs: [1500, 1500] } },
      },
      { atMs: 420_000, line: 55, pointer: '/timeline/13', action: { type: 'resetDelay', runSpecId: '/web' } },
      { atMs: 480_000, line: 57, pointer: '/timeline/14', action: { type: 'delete', runSpecId: '/db', force: true } },
      {
        atMs: 600_000, line: 59, pointer: '/timeline/15',
        action: {
          type: 'expect',
          expectation: {
            instances: [{
              runSpecId: '/web',
              counts: [
                { key: 'Running', expected: { op: '=', value: 3 } },
                { key: 'Unreachable', expected: { op: '>=', value: 1 } },
                { key: 'total', expected: { op: '..', min: 2, max: 4 } },
              ],
            }],
            healthy: [{ runSpecId: '/web', expected: { op: '>', value: 0 } }],
            spread: [{ runSpecId: '/web', field: '@zone', values: { op: '=', value: 2 }, maxPerValue: 2, maxSkew: 1 }],
            onAgents: [{ runSpecId: '/web', agentIds: ['agent-1', 'agent-4'] }],
            events: [
              {
                eventType: 'unhealthy_instance_kill_event', where: { appId: '/web' }, sinceMs: 60_000,
                expected: [{ op: '>=', value: 1 }, { op: '<=', value: 5 }],
              },
              { eventType: 'app_terminated_event', where: {}, sinceMs: 0, expected: [{ op: '>=', value: 1 }] },
            ],
            rejections: [{ runSpecId: '/db', reason: 'InsufficientCpus' }],
            deployments: [],
          },
        },
      },
      { atMs: 1_800_000, line: 72, pointer: '/timeline/16', action: { type: 'note', text: 'the end' } },
    ],
  };
  t.strictSame(result.scenario, expected);
});

t.test('defaults: options, timings, agent fields', async (t) => {
  const result = loadScenario('min.yaml', `
name: minimal
seed: 0
duration: 1m
cluster:
  agents:
    - resources: { cpus: 1, mem: 128 }
timeline: []
`);
  if (!result.ok) {
    t.fail(result.errors.join('\n'));
    return;
  }
  t.strictSame(result.scenario, {
    name: 'minimal',
    seed: 0,
    durationMs: 60_000,
    options: { taskKilling: false, defaultRole: '*', timings: DEFAULT_SIM_TIMINGS },
    invariants: {},
    agents: [{
      agentId: 'agent-1', hostname: 'agent-1', attributes: [],
      resources: { cpus: 1, mem: 128, disk: 0, gpus: 0, ports: [[31000, 32000]] }, reserved: [],
    }],
    timeline: [],
  });
});

t.test('YAML merge keys and anchors work inside definitions', async (t) => {
  const result = loadScenario('merge.yaml', `
name: m
seed: 1
duration: 1m
cluster: { agents: [ { resources: { cpus: 1, mem: 128 } } ] }
timeline:
  - at: 0s
    app: &base { id: /a, instances: 1, cmd: sleep 10 }
  - at: 0s
    app: { <<: *base, id: /b }
`);
  t.ok(result.ok, result.ok ? '' : result.errors.join('\n'));
  if (!result.ok) return;
  const second = result.scenario.timeline[1].action;
  t.strictSame(second.type === 'app' ? second.definition : undefined, { id: '/b', instances: 1, cmd: 'sleep 10' });
});
