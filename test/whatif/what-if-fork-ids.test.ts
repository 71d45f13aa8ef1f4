import t from 'tap';
import { readFileSync } from 'node:fs';
import { createRunSession, type RunSession } from '../../sim/runner/run-scenario';
import { convertDefinition } from '../../sim/runner/convert-definitions';
import { VIRTUAL_EPOCH_MS } from '../../sim/runner/virtual-epoch';
import { loadScenario } from '../../sim/scenario/load-scenario';
import { isoTime } from '../../src/scheduler/kernel/iso-time';
import type { Command } from '../../src/scheduler/model/inputs';
import { LastOffers } from '../../src/whatif/last-offers';
import { WhatIf, type WhatIfAnswer } from '../../src/whatif/what-if';

/**
 * A what-if over a simulated cluster forks a run whose random streams have the scenario's seed
 * (`npm start -- --cluster sim`: scenarios/demo.yaml, seed 1). The fork drew from a stream of
 * the same seed, so its new instances took the ids the live run's first instances had (four
 * launched twice, agents over-committed) and every what-if answered the same deployment id. The
 * fork now has a seed of its own (src/whatif/take-fork.ts).
 */

function demo(): ReturnType<typeof createRunSession> {
  const loaded = loadScenario('scenarios/demo.yaml', readFileSync('scenarios/demo.yaml', 'utf8'));
  if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
  return createRunSession(loaded.scenario, { trace: false, invariants: false });
}

function runUntil(session: RunSession, untilMs: number): void {
  while (session.step(VIRTUAL_EPOCH_MS + untilMs)) {
    // every entry handled inside step
  }
}

function scaleWorker(instances: number, nowIso: string): Command {
  const r = convertDefinition('app', { id: '/worker', cmd: 'sleep 3600', instances, cpus: 0.25, mem: 128 }, '*', nowIso);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return { type: 'putRunSpec', spec: r.spec, force: false };
}

function ask(whatIf: WhatIf, command: Command): WhatIfAnswer {
  const answer = whatIf.simulate(command, 60_000);
  if ('refused' in answer) throw new Error(`refused: ${answer.refused.message}`);
  return answer;
}

t.test('a what-if over the simulator launches new ids, never the live ones, and no agent holds more than it has', async (t) => {
  const session = demo();
  const offers = new LastOffers((id) => session.scheduler.instance(id));
  session.onInput((atMs, input) => offers.beforeInput(atMs, input));
  runUntil(session, 60_000);
  const whatIf = new WhatIf({ scheduler: session.scheduler, lastOffers: () => offers.all(), nowMs: () => session.nowMs() });
  const live = new Set(session.scheduler.runSpecs().flatMap((s) => session.scheduler.instances(s.id).map((i) => i.instanceId)));
  t.ok(live.size >= 8, `the live run has its instances (${live.size})`);

  const a = ask(whatIf, scaleWorker(90, isoTime(session.nowMs())));
  const ids = a.launched.map((l) => l.instanceId);
  t.ok(ids.length > 0, `the fork launched (${ids.length})`);
  t.equal(new Set(ids).size, ids.length, 'each launched instance once');
  t.same(ids.filter((id) => live.has(id)), [], 'no launched id is a live instance\'s');
  t.ok(a.launched.length <= 86, `at most the 86 new instances are launched (${a.launched.length})`);

  // 6 agents of 4 cpus: what the fork placed on each, with what runs there, fits in 4 cpus.
  const perAgentMilli = new Map<string, number>();
  for (const s of session.scheduler.runSpecs()) {
    for (const inst of session.scheduler.instances(s.id)) {
      if (inst.agent === undefined) continue;
      const milli = inst.peekTasks().reduce((n, task) => n + task.resources.cpusMilli, 0);
      perAgentMilli.set(inst.agent.agentId, (perAgentMilli.get(inst.agent.agentId) ?? 0) + milli);
    }
  }
  for (const l of a.launched) perAgentMilli.set(l.agentId, (perAgentMilli.get(l.agentId) ?? 0) + 250);
  for (const [agentId, milli] of perAgentMilli) t.ok(milli <= 4000, `${agentId}: ${milli / 1000} of 4 cpus`);

  runUntil(session, 61_000);
  const b = ask(whatIf, scaleWorker(10, isoTime(session.nowMs())));
  t.not(b.deploymentId, a.deploymentId, 'another fork, another deployment id');
});

t.test('a what-if places nothing on an agent cut off by a partition (its tasks reported unreachable)', async (t) => {
  const session = demo();
  const offers = new LastOffers((id) => session.scheduler.instance(id));
  session.onInput((atMs, input) => offers.beforeInput(atMs, input));
  // demo.yaml partitions agent-2 at 3m and heals it at 7m.
  runUntil(session, 5 * 60_000);
  const onAgent2 = session.scheduler.runSpecs().flatMap((s) => session.scheduler.instances(s.id)).filter((i) => i.agent?.agentId === 'agent-2');
  t.ok(onAgent2.length > 0 && onAgent2.every((i) => i.condition === 'Unreachable' || i.condition === 'UnreachableInactive'),
    `agent-2's instances are unreachable (${onAgent2.map((i) => i.condition).join(', ')})`);
  t.equal(offers.all().find((o) => o.agent.agentId === 'agent-2')?.unreachable, true, 'its last offer is marked cut off');
  const whatIf = new WhatIf({ scheduler: session.scheduler, lastOffers: () => offers.all(), nowMs: () => session.nowMs() });
  const a = ask(whatIf, scaleWorker(90, isoTime(session.nowMs())));
  t.ok(a.launched.length > 0, `the fork launched elsewhere (${a.launched.length})`);
  t.same(a.launched.filter((l) => l.agentId === 'agent-2').map((l) => l.instanceId), [], 'nothing on agent-2');
});
