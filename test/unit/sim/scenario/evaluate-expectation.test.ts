import t, { type Test } from 'tap';
import type { AgentInfo } from '../../../../src/scheduler/model/agent';
import type { MarathonEvent } from '../../../../src/scheduler/model/events';
import { evaluateExpectation } from '../../../../sim/scenario/evaluate-expectation';
import type { Expectation } from '../../../../sim/scenario/expectation';
import type { ObservedInstance, ScenarioObservation } from '../../../../sim/scenario/scenario-observation';

function agent(n: number, zone: string): AgentInfo {
  return {
    agentId: `agent-${n}`, hostname: `host-${n}`, region: 'eu', zone,
    attributes: [{ name: 'rack', type: 'text', text: `r${n % 2}` }, { name: 'size', type: 'scalar', scalar: n }],
  };
}

const AGENTS = [agent(1, 'a'), agent(2, 'b'), agent(3, 'a'), agent(4, 'c')];

const WEB: readonly ObservedInstance[] = [
  { instanceId: 'web.1', runSpecId: '/web', condition: 'Running', healthy: true, agent: AGENTS[0] },
  { instanceId: 'web.2', runSpecId: '/web', condition: 'Running', healthy: true, agent: AGENTS[1] },
  { instanceId: 'web.3', runSpecId: '/web', condition: 'Unreachable', healthy: undefined, agent: AGENTS[2] },
  { instanceId: 'web.4', runSpecId: '/web', condition: 'Scheduled', healthy: undefined },
  { instanceId: 'web.5', runSpecId: '/web', condition: 'Killed', healthy: false, agent: AGENTS[3] },
];

function kill(appId: string): MarathonEvent {
  return {
    eventType: 'unhealthy_instance_kill_event', timestamp: '2026-01-01T00:00:00.000Z', appId, taskId: 't', instanceId: 'i',
    version: 'v', reason: 'r', host: 'h', slaveId: 's',
  };
}

function observation(withAgents: boolean): ScenarioObservation {
  return {
    // /web's deployment waits for two unplaced instances, refused for cpus and a constraint; nothing holds /db.
    deployment: (id) => (id === '/web'
      ? { deploymentId: 'd-1', unplaced: 2, notHealthy: 1, toReplace: 0, rejections: { InsufficientCpus: 3, UnfulfilledConstraint: 1 } }
      : undefined),
    nowMs: 120_000,
    instances: (id) => (id === '/web' ? WEB : []),
    events: [
      { atMs: 0, event: { eventType: 'app_terminated_event', timestamp: '2026-01-01T00:00:00.000Z', appId: '/old' } },
      { atMs: 30_000, event: kill('/web') },
      { atMs: 90_000, event: kill('/web') },
      { atMs: 100_000, event: kill('/other') },
    ],
    rejections: (id) => (id === '/web' ? { InsufficientCpus: 4, UnfulfilledConstraint: 2 } : {}),
    ...(withAgents ? { agents: () => AGENTS } : {}),
  };
}

const NONE: Expectation = { instances: [], healthy: [], spread: [], onAgents: [], events: [], rejections: [], deployments: [] };

function check(t: Test, expect: Partial<Expectation>, passed: boolean, lines: readonly string[], withAgents = false): void {
  const result = evaluateExpectation({ ...NONE, ...expect }, observation(withAgents));
  t.strictSame(result, { passed, lines });
}

t.test('instances: counts by condition and total', async (t) => {
  check(t, {
    instances: [{
      runSpecId: '/web',
      counts: [
        { key: 'Running', expected: { op: '=', value: 2 } },
        { key: 'Unreachable', expected: { op: '>=', value: 1 } },
        { key: 'total', expected: { op: '..', min: 4, max: 5 } },
      ],
    }],
  }, true, ['PASS /web Running = 2', 'PASS /web Unreachable >= 1 (got 1)', 'PASS /web total in 4..5 (got 5)']);
  check(t, {
    instances: [
      { runSpecId: '/web', counts: [{ key: 'Running', expected: { op: '=', value: 3 } }, { key: 'Staging', expected: { op: '=', value: 0 } }] },
      { runSpecId: '/db', counts: [{ key: 'total', expected: { op: '>', value: 0 } }] },
    ],
  }, false, ['FAIL /web Running: expected 3, got 2', 'PASS /web Staging = 0', 'FAIL /db total: expected > 0, got 0']);
});

t.test('healthy: instances whose health is true', async (t) => {
  check(t, { healthy: [{ runSpecId: '/web', expected: { op: '=', value: 2 } }] }, true, ['PASS /web healthy = 2']);
  check(t, { healthy: [{ runSpecId: '/web', expected: { op: '>=', value: 3 } }] }, false, ['FAIL /web healthy: expected >= 3, got 2']);
});

t.test('healthy: a failed count says when the run spec has no health check, or does not exist', async (t) => {
  // /web has checks, /plain none, /gone is no run spec.
  const checks = (id: string) => (id === '/web' ? true : id === '/plain' ? false : undefined);
  const table: [string, string, string][] = [
    ['/web', '>= 3', 'FAIL /web healthy: expected >= 3, got 2'],
    ['/plain', '= 1', 'FAIL /plain healthy: expected 1, got 0 (/plain has no health check: the health of its instances stays unknown, as in Marathon, and only instances with a passing check count as healthy)'],
    ['/gone', '= 1', 'FAIL /gone healthy: expected 1, got 0 (no app or pod /gone exists now)'],
  ];
  for (const [runSpecId, comparison, line] of table) {
    const [op, value] = comparison.split(' ');
    const result = evaluateExpectation(
      { ...NONE, healthy: [{ runSpecId, expected: { op: op as '=' | '>=', value: Number(value) } }] },
      { ...observation(false), hasHealthChecks: checks },
    );
    t.strictSame(result, { passed: false, lines: [line] }, runSpecId);
  }
  const passing = evaluateExpectation({ ...NONE, healthy: [{ runSpecId: '/plain', expected: { op: '=', value: 0 } }] }, { ...observation(false), hasHealthChecks: checks });
  t.strictSame(passing, { passed: true, lines: ['PASS /plain healthy = 0'] }, 'a count that holds says nothing more');
});

t.test('spread: live placed instances only, over built-in fields and attributes', async (t) => {
  // Live placed: web.1 (a), web.2 (b), web.3 (a); web.4 is not placed, web.5 is terminal.
  check(t, { spread: [{ runSpecId: '/web', field: '@zone', values: { op: '=', value: 2 }, maxPerValue: 2, minPerValue: 1, maxSkew: 1 }] }, true, [
    'PASS /web spread over @zone: values = 2',
    'PASS /web spread over @zone: max per value <= 2 (got 2)',
    'PASS /web spread over @zone: min per value >= 1 (got 1)',
    'PASS /web spread over @zone: skew <= 1 (got 1)',
  ]);
  check(t, { spread: [{ runSpecId: '/web', field: 'hostname', values: { op: '=', value: 3 }, maxPerValue: 1 }] }, true, [
    'PASS /web spread over hostname: values = 3',
    'PASS /web spread over hostname: max per value <= 1 (got 1)',
  ]);
  check(t, { spread: [{ runSpecId: '/web', field: 'rack', maxPerValue: 1 }] }, false, [
    'FAIL /web spread over rack: max per value: expected <= 1, got 2 (r0: 1, r1: 2)',
  ]);
  check(t, { spread: [{ runSpecId: '/web', field: 'size', values: { op: '=', value: 3 } }] }, true, ['PASS /web spread over size: values = 3']);
  check(t, { spread: [{ runSpecId: '/web', field: '@zone', maxSkew: 0, values: { op: '>=', value: 3 } }] }, false, [
    'FAIL /web spread over @zone: values: expected >= 3, got 2 (a: 2, b: 1)',
    'FAIL /web spread over @zone: skew: expected <= 0, got 1 (a: 2, b: 1)',
  ]);
  check(t, { spread: [{ runSpecId: '/web', field: 'gpu', values: { op: '=', value: 1 } }] }, false, [
    'FAIL /web spread over gpu: values: expected 1, got 0 (no values; 3 on agents without gpu)',
  ]);
});

t.test('spread: with the cluster\'s agents, empty values count as 0', async (t) => {
  check(t, { spread: [{ runSpecId: '/web', field: '@zone', values: { op: '=', value: 2 }, minPerValue: 1, maxSkew: 1 }] }, false, [
    'PASS /web spread over @zone: values = 2',
    'FAIL /web spread over @zone: min per value: expected >= 1, got 0 (a: 2, b: 1, c: 0)',
    'FAIL /web spread over @zone: skew: expected <= 1, got 2 (a: 2, b: 1, c: 0)',
  ], true);
});

t.test('onAgents: every live placed instance on the listed agents', async (t) => {
  check(t, { onAgents: [{ runSpecId: '/web', agentIds: ['agent-1', 'agent-2', 'agent-3'] }] }, true, [
    'PASS /web on agents [agent-1, agent-2, agent-3] (3 placed)',
  ]);
  check(t, { onAgents: [{ runSpecId: '/web', agentIds: ['agent-1'] }] }, false, [
    'FAIL /web on agents [agent-1]: 2 of 3 elsewhere: web.2 on agent-2, web.3 on agent-3',
  ]);
});

t.test('events: by type, where and since', async (t) => {
  check(t, {
    events: [
      { eventType: 'unhealthy_instance_kill_event', where: { appId: '/web' }, sinceMs: 0, expected: [{ op: '=', value: 2 }] },
      { eventType: 'unhealthy_instance_kill_event', where: {}, sinceMs: 60_000, expected: [{ op: '>=', value: 1 }, { op: '<=', value: 2 }] },
      { eventType: 'app_terminated_event', where: {}, sinceMs: 0, expected: [{ op: '>=', value: 1 }] },
    ],
  }, true, [
    'PASS events unhealthy_instance_kill_event [appId=/web] = 2',
    'PASS events unhealthy_instance_kill_event since 1m >= 1 (got 2)',
    'PASS events unhealthy_instance_kill_event since 1m <= 2 (got 2)',
    'PASS events app_terminated_event >= 1 (got 1)',
  ]);
  check(t, {
    events: [
      { eventType: 'unhealthy_instance_kill_event', where: { appId: '/web' }, sinceMs: 60_000, expected: [{ op: '=', value: 2 }] },
      { eventType: 'status_update_event', where: {}, sinceMs: 0, expected: [{ op: '>=', value: 1 }] },
    ],
  }, false, [
    'FAIL events unhealthy_instance_kill_event [appId=/web] since 1m: expected 2, got 1',
    'FAIL events status_update_event: expected >= 1, got 0',
  ]);
});

t.test('rejections: at least one with the reason', async (t) => {
  check(t, { rejections: [{ runSpecId: '/web', reason: 'InsufficientCpus' }] }, true, ['PASS /web rejected for InsufficientCpus (4 times)']);
  check(t, { rejections: [{ runSpecId: '/web', reason: 'InsufficientMemory' }, { runSpecId: '/db', reason: 'InsufficientCpus' }] }, false, [
    'FAIL /web rejected for InsufficientMemory: expected at least 1 rejection, got 0 (recorded: UnfulfilledConstraint: 2, InsufficientCpus: 4)',
    'FAIL /db rejected for InsufficientCpus: expected at least 1 rejection, got 0 (recorded: none)',
  ]);
});

t.test('deployments: whether one runs, what it waits for, and what its offers were refused for', async (t) => {
  check(t, {
    deployments: [{ runSpecId: '/web', running: true, unplaced: { op: '=', value: 2 }, notHealthy: { op: '>=', value: 1 }, reason: 'InsufficientCpus' }],
  }, true, [
    'PASS /web deployment running', 'PASS /web deployment waits: unplaced = 2', 'PASS /web deployment waits: notHealthy >= 1 (got 1)',
    'PASS /web deployment waits: offers refused for InsufficientCpus (3 times)',
  ]);
  // A failed reason says what was recorded instead (or that no deployment runs), as the rejections section does.
  check(t, {
    deployments: [
      { runSpecId: '/web', running: false, toReplace: { op: '=', value: 1 }, reason: 'InsufficientPorts' },
      { runSpecId: '/db', running: true, reason: 'InsufficientCpus' },
    ],
  }, false, [
    'FAIL /web deployment not running: d-1 runs',
    'FAIL /web deployment waits: toReplace: expected 1, got 0',
    'FAIL /web deployment waits: offers refused for InsufficientPorts: expected at least 1 rejection, got 0 (recorded: UnfulfilledConstraint: 1, InsufficientCpus: 3)',
    'FAIL /db deployment running: none runs',
    'FAIL /db deployment waits: offers refused for InsufficientCpus: expected at least 1 rejection, got 0 (no deployment runs)',
  ]);
});

t.test('one failing check fails the whole expectation; an empty one passes', async (t) => {
  check(t, {}, true, []);
  check(t, {
    healthy: [{ runSpecId: '/web', expected: { op: '=', value: 2 } }],
    rejections: [{ runSpecId: '/db', reason: 'InsufficientCpus' }],
  }, false, ['PASS /web healthy = 2', 'FAIL /db rejected for InsufficientCpus: expected at least 1 rejection, got 0 (recorded: none)']);
});
