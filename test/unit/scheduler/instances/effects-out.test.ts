import t, { type Test } from 'tap';
import type { CoreContext } from '../../../../src/scheduler/core-context';
import type { EffectApplier } from '../../../../src/scheduler/instances/effect-applier';
import type { InstanceContext } from '../../../../src/scheduler/instances/instance-context';
import type { InstanceEffect } from '../../../../src/scheduler/instances/instance-effects';
import { onStatus } from '../../../../src/scheduler/instances/on-status';
import type { TaskStatus } from '../../../../src/scheduler/model/inputs';
import type { RunSpec } from '../../../../src/scheduler/model/run-spec';
import type { TaskState } from '../../../../src/scheduler/model/task-state';
import { makeOffer } from '../../../builders/cluster-builders';
import { makeApp, makeHealthCheck } from '../../../builders/run-spec-builders';
import { Harness } from '../../../harness/core-harness';

/*
 * Operations in, effects out (issue 12, problem 3): the instance tracker and its status handlers
 * call no port and emit no event; they append what is to happen to the input's effects
 * (src/scheduler/instances/instance-effects.ts), and the facade's one applier carries them out in
 * order (instances/effect-applier.ts). Proven here by running a status update's whole handling
 * (on-status.ts and the thirteen handlers) on a context whose ports and bus throw when touched,
 * then applying the effects it returned: what leaves the core must equal, call for call, what a
 * twin core that handled the same update the ordinary way sent out.
 */

interface CoreInside {
  readonly ctx: CoreContext;
  readonly applier: EffectApplier;
  afterInput(): void;
}

const inside = (h: Harness): CoreInside => h.scheduler as unknown as CoreInside;

/** Throws on any use: a port or the bus touched from inside the tracker. */
const trap = (name: string): never => new Proxy({}, {
  get: (_target, prop) => {
    throw new Error(`the tracker touched ${name}.${String(prop)}`);
  },
}) as never;

/** The core's tracker context, with every port, the bus and the layers above replaced by traps. */
function trackerOnly(ctx: CoreContext): InstanceContext {
  const { clock, random, options, state, health, effects } = ctx;
  return {
    clock, random, options, state, health, effects,
    ...{ driver: trap('driver'), timers: trap('timers'), store: trap('store'), prober: trap('prober'), bus: trap('bus') },
    ...{ demand: trap('demand'), deployments: trap('deployments'), groups: trap('groups') },
  } as InstanceContext;
}

/** What the harness saw leave the core from record `from` on, comparable between twins (offer ids are global). */
function outside(h: Harness, from = 0): string {
  return JSON.stringify({ effects: h.effects.slice(from), timers: h.timers() }).replace(/"offer-\d+"/g, '"offer"');
}

/**
 * Handles `status` on the core of `h` with the tracker cut off from the world; returns the
 * effects the handling appended, after applying them (in order) and finishing the input as the
 * facade does.
 */
function handleCutOff(t: Test, h: Harness, status: TaskStatus): readonly InstanceEffect[] {
  const core = inside(h);
  core.ctx.state.changeBudget = core.ctx.options.instancesPerInput;
  const effects = onStatus(trackerOnly(core.ctx), status);
  t.equal(core.ctx.effects.size, 0, 'every effect returned, none left behind');
  core.applier.applyAll(effects);
  core.afterInput();
  h.advance(0);
  return effects;
}

interface Case {
  readonly name: string;
  readonly spec: RunSpec;
  /** Inputs handled the ordinary way before the one under test (both twins). */
  readonly before?: (h: Harness, taskId: string) => void;
  readonly state: TaskState;
  readonly extra?: Partial<TaskStatus>;
  /** Kinds of effects the update must give, at least. */
  readonly kinds: readonly InstanceEffect['kind'][];
}

const checked = makeApp({ healthChecks: [makeHealthCheck({ protocol: 'HTTP', gracePeriodMs: 0 })] });
const agentChecked = makeApp({ healthChecks: [makeHealthCheck({ protocol: 'MESOS_HTTP' })] });
const unreachable = makeApp({ unreachable: { kind: 'enabled', inactiveAfterMs: 10_000, expungeAfterMs: 20_000 } });

const cases: Case[] = [
  {
    name: 'failed with a health check: task failure, condition, checks end, backoff, relaunch', spec: checked, state: 'TASK_FAILED', extra: { uuid: 'u1' },
    kinds: ['event', 'clearTimer', 'setTimer', 'acknowledge'],
  },
  {
    name: 'killed by the agent for its health check: agent kill', spec: agentChecked, state: 'TASK_KILLED', extra: { healthy: false },
    kinds: ['event', 'setTimer'],
  },
  {
    name: 'unreachable: the strategy arms its timers', spec: unreachable, state: 'TASK_UNREACHABLE',
    kinds: ['event', 'setTimer'],
  },
  {
    name: 'unreachable and inactive at once: its replacement is created and announced (one newInstances effect)',
    spec: makeApp({ unreachable: { kind: 'enabled', inactiveAfterMs: 0, expungeAfterMs: 20_000 } }), state: 'TASK_UNREACHABLE',
    kinds: ['event', 'newInstances', 'setTimer'],
  },
  {
    name: 'reachable again: the replacement is killed', spec: unreachable, state: 'TASK_RUNNING',
    before: (h, taskId) => {
      h.status(taskId, 'TASK_UNREACHABLE');
      h.advance(10_000);
      h.offer(makeOffer({ agent: { hostname: 'h2', agentId: 'a2' } }));
    },
    kinds: ['event', 'kill', 'setTimer'],
  },
  {
    name: 'scaled down, then killed: retired and expunged', spec: makeApp(), state: 'TASK_KILLED',
    before: (h) => h.scale('/app', 0),
    kinds: ['event', 'deleteInstance'],
  },
  {
    name: 'deleted, then killed: the delete completes', spec: checked, state: 'TASK_KILLED',
    before: (h) => h.delete('/app'),
    kinds: ['event', 'deleteInstance', 'deleteRunSpec'],
  },
  {
    name: 'an agent-run verdict: instance health', spec: agentChecked, state: 'TASK_RUNNING', extra: { healthy: true },
    kinds: ['event'],
  },
];

t.test('a status update\'s handling touches no port and returns what the ordinary handling does', async (t) => {
  const seen = new Set<InstanceEffect['kind']>();
  for (const c of cases) {
    const twins = [new Harness(), new Harness()].map((h) => {
      const [l] = h.deploy(c.spec, makeOffer({ agent: { hostname: 'h1', agentId: 'a1' } }));
      h.advance(1_000);
      c.before?.(h, l.taskId);
      return { h, taskId: l.taskId };
    });
    const [ordinary, cutOff] = twins;
    t.equal(outside(ordinary.h), outside(cutOff.h), `${c.name}: the twins start alike`);
    const from = ordinary.h.effects.length;
    const status: TaskStatus = { taskId: ordinary.taskId, state: c.state, agentId: 'a1', ...c.extra };
    ordinary.h.handle({ type: 'status', status });
    let effects: readonly InstanceEffect[] = [];
    t.doesNotThrow(() => {
      effects = handleCutOff(t, cutOff.h, { ...status, taskId: cutOff.taskId });
    }, `${c.name}: no port touched`);
    const kinds = new Set(effects.map((e) => e.kind));
    for (const kind of c.kinds) t.ok(kinds.has(kind), `${c.name}: returns a ${kind} effect`);
    for (const kind of kinds) seen.add(kind);
    t.equal(outside(cutOff.h, from), outside(ordinary.h, from), `${c.name}: the applied effects are what the ordinary handling sent, in order`);
  }
  t.ok(seen.has('kill') && seen.has('setTimer') && seen.has('clearTimer') && seen.has('deleteRunSpec') && seen.has('newInstances'), 'the cases reach kills, timers, store writes and new instances');
});

t.test('an unknown task that is alive: a kill, returned', async (t) => {
  const h = new Harness();
  h.deploy(makeApp());
  const effects = handleCutOff(t, h, { taskId: 'gone_app.instance-x._app.1', state: 'TASK_RUNNING', agentId: 'a9' });
  t.same(effects.map((e) => e.kind), ['kill']);
  t.match(h.calls('kill'), [{ type: 'kill', taskId: 'gone_app.instance-x._app.1' }], 'and the applier sent it');
});

t.test('a timer set and cleared before the applier runs is never scheduled', async (t) => {
  const h = new Harness();
  const { effects } = inside(h).ctx;
  const handle = effects.setTimer(h.nowMs + 1_000, { type: 'timer', timer: { kind: 'backoffExpired', runSpecId: '/x' } });
  effects.clearTimer(handle);
  const before = h.timers().length;
  inside(h).applier.drain();
  t.equal(h.timers().length, before, 'scheduled, then cancelled in the same drain');
  t.equal(handle.id, undefined);
});

t.test('a direct port call of a layer above the tracker carries out the pending effects first', async (t) => {
  const h = new Harness();
  const ctx = inside(h).ctx;
  h.clearRecords();
  ctx.effects.kill('t1', 'a1', 3_000);
  ctx.driver.decline(['o1'], 5_000);
  t.same(h.calls().map((c) => c.type), ['kill', 'decline'], 'the kill decided first leaves first');
});
