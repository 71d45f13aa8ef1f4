import t from 'tap';
import { body } from '../tasks/tasks-fixture';
import { whatIfApi, type WhatIfFixture } from './what-if-fixture';
import { makeApp } from '../../builders/run-spec-builders';
import { makeAgent, makeOffer } from '../../builders/cluster-builders';
import { launchRunning } from '../tasks/tasks-fixture';

/**
 * A what-if builds each agent from its last offer (src/whatif/last-offers.ts). pacer suppresses
 * offers while nothing waits, so after a scale-down the agent is often not offered again before
 * the next question: the resources the killed tasks gave back were in no offer, and a what-if
 * said nothing fits where the same change then placed everything at once (a new user's trial on
 * the local cluster). A task that ends now gives its resources back to its agent's record, once.
 */

interface Answer {
  deployment: string;
  launched: { instanceId: string; agentId: string }[];
  waiting: { runSpecId: string; instances: number }[];
}

const AGENT = makeAgent({ agentId: 'agent-a', hostname: 'host-a' });

/** `/web`: 4 running instances of 0.5 cpus filling agent-a's 2 cpus; then agent-a offers the 0.1 cpus left. */
function fullAgent(fx: WhatIfFixture): void {
  launchRunning(fx, makeApp({ id: '/web', instances: 4, cpus: 0.5, mem: 256 }), makeOffer({ agent: AGENT, cpus: 2, mem: 2048 }));
  fx.harness.advance(10_000);
  fx.harness.offer(makeOffer({ agent: AGENT, cpus: 0.1, mem: 1024 }));
}

/** Scales `/web` down to 2 and reports its killed tasks TASK_KILLED (`times` times each, as a repeated update would). */
function scaleDownTo2(fx: WhatIfFixture, times: number): void {
  const before = fx.harness.calls('kill').length;
  fx.harness.scale('/web', 2);
  const killed = fx.harness.calls('kill').slice(before).map((c) => c.taskId);
  if (killed.length !== 2) throw new Error(`expected 2 kills, got ${killed.length}`);
  for (let i = 0; i < times; i++) for (const taskId of killed) fx.harness.status(taskId, 'TASK_KILLED');
}

async function whatIfScale(fx: WhatIfFixture, instances: number): Promise<Answer> {
  const res = await fx.app.inject({ method: 'PUT', url: '/v2/apps/web?dryRun=true&simulate=PT2M', payload: { instances } });
  if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
  return body<Answer>(res);
}

const cases: { name: string; killedReports: number; scaleTo: number; launched: number; waiting: number; deployment: string }[] = [
  { name: 'back to 4: the two freed slots fit', killedReports: 1, scaleTo: 4, launched: 2, waiting: 0, deployment: 'finished' },
  { name: 'to 6: two fit, two wait', killedReports: 1, scaleTo: 6, launched: 2, waiting: 2, deployment: 'running' },
  { name: 'each kill reported twice: still only two slots', killedReports: 2, scaleTo: 6, launched: 2, waiting: 2, deployment: 'running' },
];

t.test('after a scale-down and before a new offer, a what-if sees what the killed tasks gave back', async (t) => {
  for (const c of cases) {
    await t.test(c.name, async (t) => {
      const fx = whatIfApi(t);
      fullAgent(fx);
      scaleDownTo2(fx, c.killedReports);
      const a = await whatIfScale(fx, c.scaleTo);
      t.equal(a.launched.length, c.launched, 'launched');
      t.ok(a.launched.every((l) => l.agentId === 'agent-a'), 'on agent-a');
      t.equal(a.waiting.reduce((n, w) => n + w.instances, 0), c.waiting, 'waiting');
      t.equal(a.deployment, c.deployment);
    });
  }
});

t.test('a task launched from the last offer gave nothing back when it ends: that offer counted its resources as free', async (t) => {
  const fx = whatIfApi(t);
  // agent-a offers its 2 cpus; /web's 4 instances take them from that very offer (no later offer).
  launchRunning(fx, makeApp({ id: '/web', instances: 4, cpus: 0.5, mem: 256 }), makeOffer({ agent: AGENT, cpus: 2, mem: 2048 }));
  scaleDownTo2(fx, 1);
  const a = await whatIfScale(fx, 6);
  // The offer's 2 cpus, of which the 2 running instances hold 1: two more fit, not four.
  t.equal(a.launched.length, 2);
  t.equal(a.waiting.reduce((n, w) => n + w.instances, 0), 2);
});

t.test('a task reported unreachable marks its agent cut off until a task there runs again', async (t) => {
  const fx = whatIfApi(t);
  // Unreachable instances wait 15 minutes before they are replaced (the builder's default expunges at once).
  const unreachable = { kind: 'enabled' as const, inactiveAfterMs: 900_000, expungeAfterMs: 604_800_000 };
  launchRunning(fx, makeApp({ id: '/web', instances: 1, cpus: 0.5, mem: 256, unreachable }), makeOffer({ agent: AGENT, cpus: 2, mem: 2048 }));
  fx.harness.advance(10_000);
  fx.harness.offer(makeOffer({ agent: AGENT, cpus: 1.5, mem: 1792 }));
  const taskId = fx.harness.instances('/web')[0].tasks[0].taskId;
  fx.harness.status(taskId, 'TASK_UNREACHABLE');
  t.equal(fx.lastOffers.all()[0].unreachable, true, 'cut off');
  t.equal((await whatIfScale(fx, 3)).launched.length, 0, 'nothing placed on a cut-off agent');
  fx.harness.status(taskId, 'TASK_RUNNING');
  t.equal(fx.lastOffers.all()[0].unreachable, undefined, 'reachable again');
  t.equal((await whatIfScale(fx, 3)).launched.length, 2, 'its free cpus are used again');
});
