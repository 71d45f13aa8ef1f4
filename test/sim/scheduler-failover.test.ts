import { readFileSync } from 'node:fs';
import t from 'tap';
import { SIM_FRAMEWORK_ID } from '../../sim/cluster/sim-cluster';
import { createRunSession, runScenario, type RunSession } from '../../sim/runner/run-scenario';
import { VIRTUAL_EPOCH_MS } from '../../sim/runner/virtual-epoch';
import { loadScenario } from '../../sim/scenario/load-scenario';
import type { Scenario } from '../../sim/scenario/scenario';
import { makeApp } from '../builders/run-spec-builders';
import { repoPath } from '../harness/repo-path';

/**
 * The simulator's `schedulerFailover` fault (issue 16): the leading core dies with everything it
 * held only in memory, the cluster runs on, and a standby core built from the stored records
 * resubscribes with the same framework id, reconciles and resumes. Traced, deterministic, checked
 * by the failover invariant.
 */

const FILE = 'scenarios/scheduler-failover.yaml';

function load(file: string, text = readFileSync(repoPath(file), 'utf8')): Scenario {
  const loaded = loadScenario(file, text);
  if (!loaded.ok) throw new Error(loaded.errors.join('\n'));
  return loaded.scenario;
}

type Record = { readonly t: number; readonly k: string } & { readonly [key: string]: unknown };

function records(text: string): Record[] {
  return text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Record);
}

t.test('same file and seed, same trace; another seed, another trace, also passing', async (t) => {
  const scenario = load(FILE);
  for (const seed of [scenario.seed, 7]) {
    const first = runScenario(scenario, { seed, keepTrace: true });
    const second = runScenario(scenario, { seed, keepTrace: true });
    t.ok(first.passed, `seed ${seed}: passes (${[...first.violations, ...first.expectations.filter((e) => !e.passed).flatMap((e) => e.lines)].join('; ')})`);
    t.equal(first.traceText, second.traceText, `seed ${seed}: byte-identical traces`);
    t.equal(first.traceHash, second.traceHash);
  }
  t.not(runScenario(scenario, { seed: 7 }).traceHash, runScenario(scenario).traceHash, 'the seed matters');
});

t.test('the trace shows the failover: the leader dies, what was meant for it is lost, the standby recovers, resubscribes and reconciles', async (t) => {
  const result = runScenario(load(FILE), { keepTrace: true });
  const trace = records(result.traceText);
  const downAt = trace.findIndex((r) => r.k === 'failover' && r.phase === 'down');
  const takeoverAt = trace.findIndex((r) => r.k === 'failover' && r.phase === 'takeover');
  t.ok(downAt > 0 && takeoverAt > downAt, 'down, then takeover');
  const down = trace[downAt];
  const takeover = trace[takeoverAt];
  t.equal(down.t, 70_000, 'the leader dies at 1m10s');
  t.equal(down.downtimeMs, 20_000);
  t.equal(takeover.t, 90_000, 'the standby takes over 20 s later');
  const between = trace.slice(downAt + 1, takeoverAt);
  t.same(between.filter((r) => r.k === 'in' || r.k === 'call' || r.k === 'event'), [], 'no core handles anything, calls anything or emits anything while none leads');
  t.ok(between.some((r) => r.k === 'lost' && r.type === 'timer'), "the dead core's timers are lost");
  t.ok(between.some((r) => r.k === 'cluster' && r.lost === true), 'what the master says meanwhile is lost');
  t.same(between.filter((r) => r.k === 'cluster' && r.in === 'offers'), [], 'no offers while no scheduler is subscribed');
  const after = trace.slice(takeoverAt + 1);
  t.match(after[0], { k: 'failover', phase: 'recovered', frameworkId: SIM_FRAMEWORK_ID, runSpecs: 1, instances: 6, deployments: 1 },
    'the new core recovered the run spec, its instances and the deployment from the store');
  const subscribed = after.findIndex((r) => r.k === 'in' && r.type === 'subscribed');
  t.equal(after[subscribed]?.frameworkId, SIM_FRAMEWORK_ID, 'it resubscribes with the stored framework id');
  const reconciles = after.slice(subscribed + 1).filter((r) => r.k === 'call' && r.op === 'reconcile' && r.t === 90_000);
  t.equal((reconciles[0]?.tasks as string[] | undefined)?.length, 6, 'explicit reconciliation of the six tasks it knows');
  t.same(reconciles[1]?.tasks, [], 'then implicit');
  t.same(trace.filter((r) => r.k === 'violation'), [], 'no invariant broken');
  t.equal(result.eventCounts.unknown_instance_terminated_event, undefined, 'no task killed as unknown');
});

/** A scenario: /web with 3 instances, a failover at 30s for 10s. */
function failoverSession(keepTrace = false): RunSession {
  const yaml = [
    'name: failover-session', 'seed: 5', 'duration: 2m',
    'cluster:', '  agents:', '    - { count: 2, resources: { cpus: 2, mem: 1024 } }',
    'timeline:',
    '  - at: 0s', '    app: { id: /web, instances: 3, cpus: 0.1, mem: 32, cmd: sleep 1000 }',
    '  - at: 30s', '    schedulerFailover: { downtime: 10s }',
    '',
  ].join('\n');
  return createRunSession(load('failover-session.yaml', yaml), { keepTrace });
}

function runUntil(s: RunSession, untilMs: number): void {
  while (s.step(untilMs)) {
    // each step handled in s.step
  }
}

t.test('the session serves the core that leads; a command while none leads is refused, not handled', async (t) => {
  const s = failoverSession();
  runUntil(s, VIRTUAL_EPOCH_MS + 20_000);
  const first = s.scheduler;
  t.equal(first.instances('/web').filter((i) => i.condition === 'Running').length, 3);
  runUntil(s, VIRTUAL_EPOCH_MS + 35_000);
  const refused = s.submit({ type: 'putRunSpec', spec: makeApp({ id: '/late' }) });
  t.match(refused, { ok: false, message: /No scheduler leads/ }, 'refused while the standby has not taken over');
  runUntil(s, VIRTUAL_EPOCH_MS + 41_000);
  t.not(s.scheduler, first, 'a new core after the takeover');
  t.same(s.scheduler.instances('/web').map((i) => i.instanceId).sort(), first.instances('/web').map((i) => i.instanceId).sort(), 'the same instances');
  t.equal(s.scheduler.runSpec('/late'), undefined, 'the refused command never reached a core');
  t.match(s.submit({ type: 'putRunSpec', spec: makeApp({ id: '/late' }) }), { ok: true }, 'the new leader takes commands');
  runUntil(s, s.endMs);
  const result = s.finish();
  t.same(result.violations, []);
  t.equal(result.finalCounts.find((c) => c.runSpecId === '/web')?.counts.Running, 3);
});
