import { emptyRoot } from '../../../src/scheduler/groups/group-tree';
import t from 'tap';
import type { Condition } from '../../../src/scheduler/model/condition';
import type { MarathonEvent } from '../../../src/scheduler/model/events';
import type { Goal, KillReason } from '../../../src/scheduler/model/instance';
import { DecisionReader, shortInstanceId, type InstanceLookup } from '../../../src/runtime/decision-reader';
import { decisionFields } from '../../../src/runtime/decision-line';

const TS = '2026-01-01T00:00:00.000Z';
const ID = 'web.instance-705d41b3-b83a-4221-aefc-5ab6e8d29917';

function changed(condition: Condition, agentId: string | null = 'agent-1', instanceId = ID): MarathonEvent {
  return { eventType: 'instance_changed_event', timestamp: TS, instanceId, condition, runSpecId: '/web', agentId, host: agentId, runSpecVersion: TS };
}

/** A core stand-in: what each instance's goal and kill reason are when the reader asks. */
function lookup(state: Record<string, { goal: Goal; killReason?: KillReason }>): InstanceLookup {
  return { instance: (id) => state[id] };
}

interface Case {
  readonly name: string;
  /** Events in order; `state` is applied to the lookup before the event is read. */
  readonly steps: readonly { readonly event: MarathonEvent; readonly state?: { goal: Goal; killReason?: KillReason } }[];
  /** The decision texts, in order (events that decide nothing give none). */
  readonly texts: readonly string[];
}

const cases: readonly Case[] = [
  {
    name: 'a launch reads once; staging and starting decide nothing; running is said',
    steps: [{ event: changed('Scheduled', null) }, { event: changed('Provisioned') }, { event: changed('Staging') }, { event: changed('Starting') }, { event: changed('Running') }],
    texts: ['launch web.instance-705d41b3 of /web on agent-1', 'web.instance-705d41b3 of /web on agent-1 running'],
  },
  {
    name: 'a partition: unreachable, inactive (replaced), reachable again',
    steps: [{ event: changed('Running') }, { event: changed('Unreachable') }, { event: changed('UnreachableInactive') }, { event: changed('Running') }],
    texts: [
      'web.instance-705d41b3 of /web on agent-1 running', 'web.instance-705d41b3 of /web on agent-1 unreachable',
      'web.instance-705d41b3 of /web on agent-1 unreachable inactive: replaced', 'web.instance-705d41b3 of /web on agent-1 reachable again',
    ],
  },
  {
    name: 'the goal change is the kill order, with the reason the core recorded; Killing and Killed add nothing',
    steps: [
      { event: changed('Running'), state: { goal: 'Running' } },
      { event: changed('Running'), state: { goal: 'Decommissioned', killReason: 'scale-down' } },
      { event: changed('Killing') },
      { event: changed('Killed') },
    ],
    texts: ['web.instance-705d41b3 of /web on agent-1 running', 'kill web.instance-705d41b3 of /web on agent-1: scale-down (more instances than the target)', 'web.instance-705d41b3 of /web on agent-1 Killed'],
  },
  {
    name: 'a kill that keeps the goal Running (a user kill to relaunch) reads at Killing, once',
    steps: [{ event: changed('Running'), state: { goal: 'Running' } }, { event: changed('Killing'), state: { goal: 'Running', killReason: 'user' } }, { event: changed('Killed') }],
    texts: ['web.instance-705d41b3 of /web on agent-1 running', 'kill web.instance-705d41b3 of /web on agent-1: user (killed through the API)', 'web.instance-705d41b3 of /web on agent-1 Killed'],
  },
  {
    name: 'without TASK_KILLING the end says why',
    steps: [{ event: changed('Running'), state: { goal: 'Running' } }, { event: changed('Killed'), state: { goal: 'Running', killReason: 'user' } }],
    texts: ['web.instance-705d41b3 of /web on agent-1 running', 'web.instance-705d41b3 of /web on agent-1 Killed: user (killed through the API)'],
  },
  {
    name: 'an unplaced instance killed by a scale-down is dropped, and forgotten',
    steps: [{ event: changed('Scheduled', null), state: { goal: 'Running' } }, { event: changed('Scheduled', null), state: { goal: 'Decommissioned', killReason: 'scale-down' } }],
    texts: ['drop unplaced web.instance-705d41b3 of /web: scale-down (more instances than the target)'],
  },
  {
    // A lookup answers for now, not for the event: an instance made and dropped in one input would
    // read as dropped at its creation too. Delivered facts read it (the test after the table).
    name: 'an unplaced instance first seen with a lookup that says dropped decides nothing (its facts at the event are unknown)',
    steps: [{ event: changed('Scheduled', null), state: { goal: 'Decommissioned', killReason: 'scale-down' } }],
    texts: [],
  },
  {
    name: 'an unplaced instance first seen waiting (goal Running) decides nothing',
    steps: [{ event: changed('Scheduled', null), state: { goal: 'Running' } }],
    texts: [],
  },
  {
    name: 'an unhealthy kill reads from its event, and the Killing after it adds nothing',
    steps: [
      { event: changed('Running'), state: { goal: 'Running' } },
      {
        event: { eventType: 'unhealthy_instance_kill_event', timestamp: TS, appId: '/web', taskId: `${ID}._app.1`, instanceId: ID, version: TS, reason: 'HTTP 500', host: 'agent-1', slaveId: 'agent-1' },
        state: { goal: 'Running', killReason: 'unhealthy' },
      },
      { event: changed('Killing') },
    ],
    texts: ['web.instance-705d41b3 of /web on agent-1 running', 'kill web.instance-705d41b3 of /web on agent-1: unhealthy (HTTP 500)'],
  },
  {
    name: 'a crash ends the instance; its relaunch is a launch again',
    steps: [{ event: changed('Running'), state: { goal: 'Running' } }, { event: changed('Failed') }, { event: changed('Scheduled', null) }, { event: changed('Provisioned', 'agent-2') }],
    texts: ['web.instance-705d41b3 of /web on agent-1 running', 'web.instance-705d41b3 of /web on agent-1 Failed', 'launch web.instance-705d41b3 of /web on agent-2'],
  },
  {
    name: 'deployments: each step with its actions, then finished or failed; plans stay out',
    steps: [
      {
        event: {
          eventType: 'deployment_info', timestamp: TS,
          plan: {
            id: '8a820388-d6ed-41cf-8bb1-52dbf5a48cd3', version: TS,
            steps: [{ actions: [{ action: 'StartApplication', app: '/web' }] }, { actions: [{ action: 'ScaleApplication', app: '/web' }, { action: 'ScaleApplication', app: '/db' }] }],
            original: emptyRoot(TS),
            target: emptyRoot(TS),
          },
          currentStep: { actions: [{ action: 'ScaleApplication', app: '/web', type: 'ScaleApplication' }, { action: 'ScaleApplication', app: '/db', type: 'ScaleApplication' }] },
        },
      },
      { event: { eventType: 'deployment_success', timestamp: TS, id: '8a820388-d6ed-41cf-8bb1-52dbf5a48cd3', plan: { id: '8a820388-d6ed-41cf-8bb1-52dbf5a48cd3', steps: [], version: TS } } },
      { event: { eventType: 'deployment_failed', timestamp: TS, id: 'c8c68af2-0000', plan: { id: 'c8c68af2-0000', steps: [], version: TS }, reason: 'canceled' } },
      { event: { eventType: 'group_change_success', timestamp: TS, groupId: '/', version: TS } },
    ],
    texts: ['deployment 8a820388 step 2/2: ScaleApplication /web, ScaleApplication /db', 'deployment 8a820388 finished', 'deployment c8c68af2 failed: canceled'],
  },
  {
    name: 'kill-storm floor: a held kill, then dropped as the instance passes again; killed and gone outcomes read as the kill and the end do',
    steps: [
      {
        event: {
          eventType: 'pacer_unhealthy_kill_deferred_event', timestamp: TS, appId: '/web', taskId: `${ID}._app.1`, instanceId: ID, version: TS,
          reason: 'HTTP 500', host: 'agent-1', slaveId: 'agent-1', instances: 10, floor: 9, counted: 9,
        },
      },
      { event: { eventType: 'pacer_unhealthy_kill_deferral_ended_event', timestamp: TS, appId: '/web', taskId: `${ID}._app.1`, instanceId: ID, outcome: 'recovered' } },
      { event: { eventType: 'pacer_unhealthy_kill_deferral_ended_event', timestamp: TS, appId: '/web', taskId: `${ID}._app.1`, instanceId: ID, outcome: 'killed' } },
      { event: { eventType: 'pacer_unhealthy_kill_deferral_ended_event', timestamp: TS, appId: '/web', taskId: `${ID}._app.1`, instanceId: ID, outcome: 'gone' } },
    ],
    texts: [
      'kill of web.instance-705d41b3 of /web on agent-1 held: kill-storm floor 9 of 10 reached (HTTP 500)',
      'held kill of web.instance-705d41b3 of /web dropped: it passed its health check again',
    ],
  },
  {
    name: 'health changes and unknown instances',
    steps: [
      { event: { eventType: 'health_status_changed_event', timestamp: TS, appId: '/web', instanceId: ID, version: TS, alive: false } },
      { event: { eventType: 'unknown_instance_terminated_event', timestamp: TS, instanceId: ID, runSpecId: '/web', condition: 'Killed' } },
      { event: { eventType: 'app_terminated_event', timestamp: TS, appId: '/web' } },
    ],
    texts: ['web.instance-705d41b3 of /web unhealthy', 'unknown web.instance-705d41b3 of /web killed (Killed)', '/web deleted'],
  },
];

for (const c of cases) {
  t.test(c.name, async (t) => {
    const state: Record<string, { goal: Goal; killReason?: KillReason }> = {};
    const reader = new DecisionReader(lookup(state));
    const texts: string[] = [];
    for (const step of c.steps) {
      if (step.state !== undefined) state[ID] = step.state;
      const decision = reader.read(step.event);
      if (decision !== undefined) texts.push(decision.text);
    }
    t.strictSame(texts, c.texts);
  });
}

t.test('the machine fields of a decision, in a fixed order, beside its sentence', async (t) => {
  const reader = new DecisionReader(lookup({ [ID]: { goal: 'Decommissioned', killReason: 'deleted' } }));
  reader.read(changed('Running'));
  const kill = reader.read(changed('Running'));
  if (kill === undefined) throw new Error('no kill decision');
  t.equal(kill.text, 'kill web.instance-705d41b3 of /web on agent-1: deleted (its app or pod was deleted)');
  t.strictSame(decisionFields(kill), { decision: 'kill', runSpecId: '/web', instanceId: ID, agentId: 'agent-1', condition: 'Running', reason: 'deleted' });
  t.strictSame(Object.keys(decisionFields(kill)), ['decision', 'runSpecId', 'instanceId', 'agentId', 'condition', 'reason']);
});

t.test('sweep with a clock: a launch delay that starts or grows after an instance ended reads as backoff, once per deadline', async (t) => {
  let nowMs = 10_000;
  let untilMs: number | undefined;
  const reader = new DecisionReader({ instance: () => ({ goal: 'Running' }), backoffUntilMs: () => untilMs }, { nowMs: () => nowMs });
  reader.read(changed('Running'));
  untilMs = 15_000;
  t.strictSame(reader.sweep(), [], 'no instance ended: not asked');
  reader.read(changed('Failed'));
  t.strictSame(reader.sweep(), [{ kind: 'backoff', runSpecId: '/web', delayMs: 5000, text: 'launches of /web delayed 5s (backoff after a failure)' }]);
  t.strictSame(reader.sweep(), [], 'said once');
  reader.read(changed('Running', 'agent-1', 'web.instance-22222222-2222-2222-2222-222222222222'));
  reader.read(changed('Failed', 'agent-1', 'web.instance-22222222-2222-2222-2222-222222222222'));
  t.strictSame(reader.sweep(), [], 'the same deadline: nothing new');
  nowMs = 20_000;
  untilMs = 30_000;
  reader.read(changed('Running', 'agent-1', 'web.instance-33333333-3333-3333-3333-333333333333'));
  reader.read(changed('Failed', 'agent-1', 'web.instance-33333333-3333-3333-3333-333333333333'));
  t.match(reader.sweep(), [{ kind: 'backoff', delayMs: 10_000, text: /delayed 10s/ }], 'a longer delay is read again');
  t.strictSame(decisionFields({ kind: 'backoff', runSpecId: '/web', delayMs: 10_000, text: '' }), { decision: 'backoff', runSpecId: '/web', delayMs: 10_000 });
  const withoutClock = new DecisionReader({ instance: () => ({ goal: 'Running' }), backoffUntilMs: () => 99_000 });
  withoutClock.read(changed('Running'));
  withoutClock.read(changed('Failed'));
  t.strictSame(withoutClock.sweep(), [], 'without a clock backoffs are not read');
});

t.test('short instance ids keep the run spec and 8 hex digits; other ids stay whole', async (t) => {
  t.equal(shortInstanceId(ID), 'web.instance-705d41b3');
  t.equal(shortInstanceId('a.b.marathon-0123456789ab'), 'a.b.marathon-01234567');
  t.equal(shortInstanceId('odd-id'), 'odd-id');
});

t.test('sweep: an unreachable instance the core forgot without an event reads as expunged, once; others are not asked about', async (t) => {
  const state: Record<string, { goal: Goal; killReason?: KillReason } | undefined> = {};
  const asked: string[] = [];
  const reader = new DecisionReader({ instance: (id) => { asked.push(id); return state[id]; } });
  const other = 'db.instance-11111111-2222-3333-4444-555555555555';
  state[ID] = { goal: 'Running' };
  state[other] = { goal: 'Running' };
  reader.read(changed('Running'));
  reader.read(changed('Running', 'agent-2', other));
  reader.read(changed('Unreachable'));
  t.strictSame(reader.sweep(), [], 'still known to the core');
  state[ID] = undefined;
  t.strictSame(reader.sweep().map((d) => [d.kind, d.text]), [['expunged', 'web.instance-705d41b3 of /web on agent-1 expunged']]);
  t.strictSame(reader.sweep(), [], 'once');
  t.notOk(asked.includes(other), 'a running instance is not looked up');
});

t.test('an instance change delivered with its instance as decided reads that, not the live instance', async (t) => {
  // The core carries out its effects after the operation that decided them (issue 12): by the
  // time an event is read the instance may be gone (a Scheduled one dropped) or relaunched (its
  // kill reason cleared). The facts the core delivers with the event are what the decision says.
  const asked: string[] = [];
  const reader = new DecisionReader({ instance: (id) => { asked.push(id); return undefined; } });
  t.equal(reader.read(changed('Scheduled', null), { goal: 'Running', killReason: undefined }), undefined);
  const drop = reader.read(changed('Scheduled', null), { goal: 'Decommissioned', killReason: 'scale-down' });
  t.equal(drop?.text, 'drop unplaced web.instance-705d41b3 of /web: scale-down (more instances than the target)');
  reader.read(changed('Running'), { goal: 'Running', killReason: undefined });
  const ended = reader.read(changed('Killed'), { goal: 'Running', killReason: 'user' });
  t.equal(ended?.text, 'web.instance-705d41b3 of /web on agent-1 Killed: user (killed through the API)');
  t.same(asked, [], 'the lookup is not asked');
});

t.test('the drop of an unplaced instance the reader never saw before, delivered with its facts (waiting when a what-if forked), is read', async (t) => {
  // What a what-if's `killed` lists (docs/what-if.md): an instance waiting when the fork was taken
  // has had no event the reader saw, and its drop is its first (it was left out before 2026-12-03).
  const reader = new DecisionReader({ instance: () => undefined });
  const drop = reader.read(changed('Scheduled', null), { goal: 'Decommissioned', killReason: 'scale-down' });
  t.equal(drop?.text, 'drop unplaced web.instance-705d41b3 of /web: scale-down (more instances than the target)');
  t.equal(reader.read(changed('Scheduled', null), { goal: 'Running', killReason: undefined }), undefined, 'seen waiting first: nothing');
});

t.test('a deleted run spec is forgotten: a churn of new app ids that back off leaves nothing behind (a soak trial)', async (t) => {
  // Each case: app ids created, failed (a backoff announced), then deleted; the reader must keep nothing of them.
  const cases: { name: string; apps: number; deleted: boolean; remembered: (apps: number) => number }[] = [
    { name: 'deleted', apps: 50, deleted: true, remembered: () => 0 },
    { name: 'still there', apps: 3, deleted: false, remembered: (apps) => apps },
  ];
  for (const c of cases) {
    const nowMs = 10_000;
    const reader = new DecisionReader({ instance: () => ({ goal: 'Running' }), backoffUntilMs: () => nowMs + 1000 }, { nowMs: () => nowMs });
    for (let n = 0; n < c.apps; n++) {
      const appId = `/ci/build-${n}`;
      const instanceId = `ci_build-${n}.instance-705d41b3-b83a-4221-aefc-5ab6e8d29917`;
      const at = (condition: Condition): MarathonEvent => ({ ...changed(condition, 'agent-1', instanceId), runSpecId: appId } as MarathonEvent);
      reader.read(at('Running'));
      reader.read(at('Failed'));
      t.match(reader.sweep(), [{ kind: 'backoff', runSpecId: appId }], `${c.name}: ${appId} backs off`);
      if (c.deleted) reader.read({ eventType: 'app_terminated_event', timestamp: TS, appId });
    }
    t.equal(reader.remembered, c.remembered(c.apps), `${c.name}: entries kept`);
  }
});
