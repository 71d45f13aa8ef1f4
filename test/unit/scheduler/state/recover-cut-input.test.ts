import t from 'tap';
import { makeApp } from '../../../builders/run-spec-builders';
import { Harness } from '../../../harness/core-harness';
import { MemoryStore } from '../../../harness/memory-store';
import type { StoredState } from '../../../../src/scheduler/ports/store';

/*
 * A kill -9 in the middle of a cluster input. The runtime wraps each API command in one store
 * transaction, but not the cluster's inputs (an offer's instances must be durable before the
 * ACCEPT inside the same input), so a status update's writes can be cut between any two of them.
 * For each cut, a core restarted on what was durable must converge: no deployment left running
 * (found by the crash test, test/e2e/local-crash.test.ts: the run spec's delete was durable, the
 * deployment's was not, and the recovered StopApplication waited forever).
 */

/** What was durable after the first `count` of `writes`, on top of `base`. */
function durableAfter(base: StoredState, writes: MemoryStore['writes'], count: number): StoredState {
  const store = new MemoryStore();
  store.fill(base);
  for (const write of writes.slice(0, count)) store.apply(write);
  return store.load();
}

/** Answers every kill the core sends with TASK_KILLED, until it sends no more. */
function confirmKills(h: Harness): void {
  const answered = new Set<string>();
  for (let round = 0; round < 10; round++) {
    const open = h.calls('kill').map((k) => k.taskId).filter((id) => !answered.has(id));
    if (open.length === 0) return;
    for (const id of open) {
      answered.add(id);
      h.status(id, 'TASK_KILLED');
    }
  }
}

interface Case {
  readonly name: string;
  /** Brings the core to just before the input that is cut; answers the task that input is about. */
  readonly setup: (h: Harness) => string;
  /** The run specs (id → instances) once converged. */
  readonly expected: Record<string, number>;
}

const cases: Case[] = [
  {
    name: 'the last instance of a deleted app is killed',
    setup: (h) => {
      const [task] = h.deploy(makeApp({ id: '/gone' }));
      h.delete('/gone');
      return task.taskId;
    },
    expected: {},
  },
  {
    name: 'the last instance of a deleted app is killed while another app stays',
    setup: (h) => {
      h.deploy(makeApp({ id: '/stays' }));
      const [task] = h.deploy(makeApp({ id: '/gone' }));
      h.delete('/gone');
      return task.taskId;
    },
    expected: { '/stays': 1 },
  },
  {
    name: 'an instance of a scale-down is killed',
    setup: (h) => {
      const tasks = h.deploy(makeApp({ id: '/app', instances: 2 }));
      h.scale('/app', 1);
      const killed = h.calls('kill').map((k) => k.taskId);
      return killed[0] ?? tasks[0].taskId;
    },
    expected: { '/app': 1 },
  },
];

for (const c of cases) {
  t.test(`a restart after any cut of the status update: ${c.name}`, async (t) => {
    const h1 = new Harness();
    const taskId = c.setup(h1);
    const base = h1.store.load();
    const from = h1.store.writes.length;
    h1.status(taskId, 'TASK_KILLED');
    const writes = h1.store.writes.slice(from);
    t.ok(writes.length >= 2, `the input writes several records (${writes.map((w) => w.type).join(', ')})`);
    t.same(h1.scheduler.deployments(), [], 'without a cut, the deployment finishes');
    for (let cut = 0; cut <= writes.length; cut++) {
      const h2 = new Harness({ stored: durableAfter(base, writes, cut), startMs: h1.nowMs });
      confirmKills(h2);
      const at = `cut after ${cut} of ${writes.length} writes`;
      t.same(h2.scheduler.deployments().map((d) => d.deployment.plan.steps.map((s) => s.actions.map((a) => `${a.action} ${a.runSpecId}`))), [],
        `${at}: no deployment left`);
      t.same(Object.fromEntries(h2.scheduler.runSpecs().map((s) => [s.id, h2.instances(s.id).length])), c.expected, `${at}: the run specs converged`);
      t.same(h2.store.load().deployments, [], `${at}: no deployment stored`);
    }
  });
}
