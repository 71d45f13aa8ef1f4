import t from 'tap';
import { createRunSession, type RunSession } from '../../sim/runner/run-scenario';
import { convertDefinition } from '../../sim/runner/convert-definitions';
import { VIRTUAL_EPOCH_MS } from '../../sim/runner/virtual-epoch';
import { loadScenario } from '../../sim/scenario/load-scenario';
import type { Scenario } from '../../sim/scenario/scenario';
import { DecisionReader } from '../../src/runtime/decision-reader';
import { isoTime } from '../../src/scheduler/kernel/iso-time';
import type { Command } from '../../src/scheduler/model/inputs';
import { LastOffers } from '../../src/whatif/last-offers';
import { WhatIf, type WhatIfAnswer } from '../../src/whatif/what-if';

/**
 * Issue 18, done means: a what-if answer matches what the live cluster then does for the same
 * change. A simulated cluster runs a workload; at T the what-if forks it (its core's state and the
 * last offer per agent, as production does) and answers for a change; then the same change is
 * applied for real in the same run, and the two are compared: the deployment finishes in both,
 * in about the same time; new instances land on the same agents (per app, as multisets: instance
 * ids are random); the same existing instances are killed; the same number waits, for the same
 * reasons.
 */
const WORKLOAD = `
name: what-if-live
seed: 18
duration: 10m
cluster:
  agents:
    - { count: 2, idPrefix: big, resources: { cpus: 4, mem: 8192, disk: 10000, ports: "31000-31100" }, attributes: { rack: "r{n}" } }
    - { count: 2, idPrefix: small, resources: { cpus: 1, mem: 2048, disk: 10000, ports: "31000-31100" }, attributes: { rack: "s{n}" } }
timeline:
  - at: 0s
    app: { id: /web, cmd: "sleep 1000", instances: 4, cpus: 0.5, mem: 256 }
  - at: 0s
    app: { id: /db, cmd: "sleep 1000", instances: 2, cpus: 1, mem: 512, constraints: [["hostname", "UNIQUE"]] }
`;

interface Change {
  readonly name: string;
  readonly atMs: number;
  readonly command: (nowIso: string) => Command;
  /** What the answer must hold at least, so that the comparison is not between two empty answers. */
  readonly expect: { readonly launched: number; readonly killed: number; readonly waiting: number };
}

function app(definition: Record<string, unknown>, nowIso: string): Command {
  const r = convertDefinition('app', definition, '*', nowIso);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return { type: 'putRunSpec', spec: r.spec, force: false };
}

const CHANGES: readonly Change[] = [
  { name: 'scale up past what fits', atMs: 40_000, command: (iso) => app({ id: '/web', cmd: 'sleep 1000', instances: 22, cpus: 0.5, mem: 256 }, iso), expect: { launched: 12, killed: 0, waiting: 6 } },
  { name: 'a new app with a constraint', atMs: 40_000, command: (iso) => app({ id: '/api', cmd: 'sleep 1000', instances: 3, cpus: 0.25, mem: 128, constraints: [['rack', 'LIKE', 'r.*']] }, iso), expect: { launched: 3, killed: 0, waiting: 0 } },
  { name: 'a rolling upgrade (replaces every instance)', atMs: 40_000, command: (iso) => app({ id: '/web', cmd: 'sleep 2000', instances: 4, cpus: 0.5, mem: 256 }, iso), expect: { launched: 4, killed: 4, waiting: 0 } },
  { name: 'a scale down', atMs: 40_000, command: (iso) => app({ id: '/web', cmd: 'sleep 1000', instances: 1, cpus: 0.5, mem: 256 }, iso), expect: { launched: 0, killed: 3, waiting: 0 } },
];

function workload(): Scenario {
  const loaded = loadScenario('what-if-live.yaml', WORKLOAD);
  if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
  return loaded.scenario;
}

/** What the live run did after the change: launches per app per agent, kills, finish time. */
interface Observed {
  readonly placements: Record<string, string[]>;
  readonly killed: string[];
  finishedAfterMs?: number;
}

function placementsOf(launches: readonly { runSpecId: string; agentId: string }[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const l of launches) (out[l.runSpecId] ??= []).push(l.agentId);
  for (const k of Object.keys(out)) out[k].sort();
  return out;
}

function runUntil(session: RunSession, untilMs: number): void {
  while (session.step(VIRTUAL_EPOCH_MS + untilMs)) {
    // every entry handled inside step
  }
}

for (const change of CHANGES) {
  t.test(`what-if matches the live run: ${change.name}`, async (t) => {
    const scenario = workload();
    const session = createRunSession(scenario, { trace: false, invariants: false });
    const offers = new LastOffers();
    session.onInput((atMs, input) => offers.beforeInput(atMs, input));
    runUntil(session, change.atMs);

    const whatIf = new WhatIf({ scheduler: session.scheduler, lastOffers: () => offers.all(), nowMs: () => session.nowMs(), timings: scenario.options.timings });
    const command = change.command(isoTime(session.nowMs()));
    const answer = whatIf.simulate(command, 30 * 60_000);
    if ('refused' in answer) throw new Error(`refused: ${answer.refused.message}`);
    const a: WhatIfAnswer = answer;

    // The same change, for real, in the same run.
    const reader = new DecisionReader(session.scheduler);
    const live: Observed = { placements: {}, killed: [] };
    const launches: { runSpecId: string; agentId: string }[] = [];
    const startMs = session.nowMs();
    const result = session.submit(command);
    t.ok(result.ok, 'the live change is accepted');
    const deploymentId = result.ok ? result.deploymentId : undefined;
    session.onEvent((_atMs, event, instance) => {
      const d = reader.read(event, instance);
      if (d?.kind === 'launch' && d.agentId !== undefined && d.runSpecId !== undefined) launches.push({ runSpecId: d.runSpecId, agentId: d.agentId });
      if ((d?.kind === 'kill' || (d?.kind === 'ended' && d.reason !== undefined)) && d.instanceId !== undefined && !live.killed.includes(d.instanceId)) live.killed.push(d.instanceId);
      if (d?.kind === 'deployment-finished' && d.deploymentId === deploymentId) live.finishedAfterMs = session.nowMs() - startMs;
    });
    runUntil(session, change.atMs + 30 * 60_000 > scenario.durationMs ? scenario.durationMs : change.atMs + 30 * 60_000);

    t.comment(JSON.stringify({ launched: a.launched.length, killed: a.killed.map((k) => k.reason), waiting: a.waiting }));
    t.equal(a.launched.length, change.expect.launched, 'instances placed in the what-if');
    t.equal(a.killed.length, change.expect.killed, 'instances killed in the what-if');
    t.equal(a.waiting.reduce((n, w) => n + w.instances, 0), change.expect.waiting, 'instances left waiting in the what-if');
    const finishes = change.expect.waiting === 0;
    t.equal(a.deployment, finishes ? 'finished' : 'running', finishes ? 'the what-if says the deployment finishes' : 'the what-if says the deployment does not finish');
    t.equal(live.finishedAfterMs !== undefined, finishes, finishes ? 'the live deployment finished' : 'the live deployment did not finish');
    const diff = Math.abs((a.finishedAfterMs ?? 0) - (live.finishedAfterMs ?? 0));
    t.ok(diff <= 5_000, `finish times agree within 5 s (what-if ${a.finishedAfterMs} ms, live ${live.finishedAfterMs} ms)`);
    t.same(placementsOf(a.launched), placementsOf(launches), 'new instances land on the same agents');
    t.same([...a.killed.map((k) => k.instanceId)].sort(), [...live.killed].sort(), 'the same instances are killed');
    const liveWaiting = session.scheduler.queue().map((q) => ({ runSpecId: q.runSpec.id, instances: q.scheduled }));
    t.same(a.waiting.map((w) => ({ runSpecId: w.runSpecId, instances: w.instances })), liveWaiting, 'the same number waits');
    for (const w of a.waiting) {
      const liveReasons = Object.keys(session.scheduler.queue().find((q) => q.runSpec.id === w.runSpecId)?.stats.byReason() ?? {}).sort();
      t.same(Object.keys(w.reasons).sort(), liveReasons, `${w.runSpecId} waits for the same reasons`);
    }
  });
}
