import { readFileSync } from 'node:fs';
import t from 'tap';
import { STATUS_HANDLERS } from '../../../../src/scheduler/instances/status-handlers';
import type { RunSpec } from '../../../../src/scheduler/model/run-spec';
import type { TaskState } from '../../../../src/scheduler/model/task-state';
import { makeOffer } from '../../../builders/cluster-builders';
import { makeApp, makeHealthCheck } from '../../../builders/run-spec-builders';
import { Harness } from '../../../harness/core-harness';
import { repoPath } from '../../../harness/repo-path';

/*
 * A status update's reactions are one ordered list (issue 12, problem 3;
 * src/scheduler/instances/status-handlers.ts), run once per update. The list is the documented
 * one (docs/architecture.md, "The instance tracker"), and its order shows in what comes out of
 * the core: events, store and driver calls, timers.
 */

t.test('the handlers run in the order docs/architecture.md documents', async (t) => {
  const doc = readFileSync(repoPath('docs', 'architecture.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## The instance tracker'));
  const documented = [...section.matchAll(/^\| (\d+) \| `([a-z ]+)` \|/gm)].map((m) => m[2]);
  t.same(documented, STATUS_HANDLERS.map((h) => h.name));
  t.equal(new Set(documented).size, 13, 'thirteen handlers, each named once');
});

/** One running instance of `spec` on agent a1. */
function running(spec: RunSpec) {
  const h = new Harness();
  const [l] = h.deploy(spec, makeOffer({ agent: { hostname: 'h1', agentId: 'a1' } }));
  h.advance(1_000);
  return { h, l };
}

const cases: {
  name: string; spec?: RunSpec; state: TaskState; extra?: { healthy?: boolean };
  events: string[]; timers: string[]; backoff: boolean; condition: string;
}[] = [
  {
    name: 'failed: task failure, condition, checks end, backoff, relaunch', state: 'TASK_FAILED',
    spec: makeApp({ healthChecks: [makeHealthCheck({ protocol: 'HTTP' })] }),
    events: ['status_update_event', 'instance_changed_event', 'instance_changed_event'], timers: ['backoffExpired'], backoff: true, condition: 'Scheduled',
  },
  {
    name: 'finished by the agent for its health check: agent kill before the relaunch', state: 'TASK_KILLED', extra: { healthy: false },
    spec: makeApp({ healthChecks: [makeHealthCheck({ protocol: 'MESOS_HTTP' })] }),
    events: ['status_update_event', 'instance_changed_event', 'unhealthy_task_kill_event', 'unhealthy_instance_kill_event', 'instance_changed_event'],
    timers: ['backoffExpired'], backoff: true, condition: 'Scheduled',
  },
  {
    name: 'unreachable: the unreachable strategy arms its timers', state: 'TASK_UNREACHABLE',
    spec: makeApp({ unreachable: { kind: 'enabled', inactiveAfterMs: 10_000, expungeAfterMs: 20_000 } }),
    events: ['status_update_event', 'instance_changed_event'], timers: ['unreachableInactive', 'unreachableExpunge'], backoff: false, condition: 'Unreachable',
  },
  {
    name: 'a repeated RUNNING: no condition change, no reaction', state: 'TASK_RUNNING',
    events: [], timers: [], backoff: false, condition: 'Running',
  },
];

t.test('what each kind of update sets off, in order', async (t) => {
  for (const c of cases) {
    const { h, l } = running(c.spec ?? makeApp());
    const events = h.log.length;
    const timers = new Set(h.timers().map((x) => x.id));
    h.status(l.taskId, c.state, c.extra ?? {});
    t.same(h.log.slice(events).map((e) => e.eventType).filter((e) => !e.startsWith('health')), c.events, `${c.name}: events`);
    t.same(h.timers().filter((x) => !timers.has(x.id) && x.timer.kind !== 'healthProbe').map((x) => x.timer.kind).sort(), [...c.timers].sort(), `${c.name}: timers`);
    t.equal(h.scheduler.backoffUntilMs('/app') !== undefined, c.backoff, `${c.name}: backoff`);
    t.same(h.conditions('/app'), [c.condition], `${c.name}: condition`);
  }
});

t.test('a user kill is no launch failure: relaunched without backoff', async (t) => {
  const { h, l } = running(makeApp());
  h.kill('/app', [l.instanceId]);
  h.status(l.taskId, 'TASK_KILLED');
  t.equal(h.scheduler.backoffUntilMs('/app'), undefined);
  t.same(h.conditions('/app'), ['Scheduled'], 'relaunched (same instance, queued again)');
  t.equal(h.instances('/app')[0].instanceId, l.instanceId);
});
