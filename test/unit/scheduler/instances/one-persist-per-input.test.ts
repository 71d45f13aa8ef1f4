import t from 'tap';
import { makeAgent, makeOffer } from '../../../builders/cluster-builders';
import { makeApp, makeHealthCheck, makePod } from '../../../builders/run-spec-builders';
import { Harness, type HarnessOptions } from '../../../harness/core-harness';
import { launchedTasks } from '../../../harness/recording-driver';

/*
 * The instance tracker writes each changed instance once per input (issue 12, problem 3): the
 * dirty set is written when the input is done, or earlier right before an ACCEPT — the instances
 * an offer launches are durable before the cluster sees the launch. This audits every input of
 * several flows (commands, offers, status updates, probe results, timers) from the harness's
 * ordered effect log:
 * - no instance id is in two instance writes of one input;
 * - every task of an ACCEPT belongs to an instance written earlier in the same input, with that
 *   task (the incarnation the ACCEPT launches);
 * - after the input, the stored record of every instance is the live one (no change left unwritten).
 */

interface Audit {
  readonly problems: string[];
  /** Inputs audited, and instance writes seen (so a flow that writes nothing cannot pass). */
  readonly totals: { inputs: number; instanceWrites: number; accepts: number };
}

function audit(h: Harness): Audit {
  const problems: string[] = [];
  const totals = { inputs: 0, instanceWrites: 0, accepts: 0 };
  let from = h.effects.length;
  h.observe(() => {
    const input = totals.inputs++;
    const written = new Map<string, ReadonlySet<string>>();
    for (const e of h.effects.slice(from)) {
      if (e.kind === 'store' && e.write.type === 'saveInstances') {
        for (const inst of e.write.instances) {
          totals.instanceWrites++;
          if (written.has(inst.instanceId)) problems.push(`input ${input}: ${inst.instanceId} written twice`);
          written.set(inst.instanceId, new Set(inst.tasks.map((task) => task.taskId)));
        }
      }
      if (e.kind === 'driver' && e.call.type === 'accept') {
        totals.accepts++;
        for (const task of launchedTasks([e.call])) {
          if (written.get(task.instanceId)?.has(task.taskId) !== true) problems.push(`input ${input}: ${task.taskId} launched before its instance was durable`);
        }
      }
    }
    from = h.effects.length;
    for (const spec of h.scheduler.runSpecs()) {
      for (const inst of h.instances(spec.id)) {
        const stored = h.store.instances.get(inst.instanceId);
        if (JSON.stringify(stored) !== JSON.stringify(inst)) {
          problems.push(`input ${input}: ${inst.instanceId} stored differs from live (${stored?.condition} vs ${inst.condition})`);
        }
      }
    }
  });
  return { problems, totals };
}

const flows: { name: string; options?: HarnessOptions; run: (h: Harness) => void }[] = [
  {
    name: 'an app: scale up, launch, run, fail and relaunch, scale down, delete',
    run: (h) => {
      h.put(makeApp({ id: '/web', instances: 3 }));
      const launched = h.offer(makeOffer({ agent: { hostname: 'h1' } }));
      h.run(launched);
      h.status(launched[0].taskId, 'TASK_FAILED');
      h.advance(60_000);
      h.run(h.offer(makeOffer({ agent: { hostname: 'h2' } })));
      h.scale('/web', 1);
      for (const call of h.calls('kill')) h.status(call.taskId, 'TASK_KILLED');
      h.delete('/web');
      for (const call of h.calls('kill')) h.status(call.taskId, 'TASK_KILLED');
    },
  },
  {
    name: 'a pod: launch, one container fails (the sibling is killed), relaunch',
    run: (h) => {
      h.put(makePod({ id: '/pod', instances: 2 }));
      const launched = h.offer(makeOffer({ cpus: 8, mem: 8192 }));
      h.run(launched);
      h.status(launched[0].taskId, 'TASK_FAILED');
      for (const call of h.calls('kill')) h.status(call.taskId, 'TASK_KILLED');
      h.advance(60_000);
      h.run(h.offer(makeOffer({ cpus: 8, mem: 8192 })));
    },
  },
  {
    name: 'health checks: healthy, then unhealthy and killed, relaunched',
    run: (h) => {
      h.put(makeApp({ id: '/hc', instances: 2, healthChecks: [makeHealthCheck({ protocol: 'HTTP', gracePeriodMs: 0, maxConsecutiveFailures: 1 })] }));
      const launched = h.offer(makeOffer());
      h.run(launched);
      h.advance(1_000);
      for (const l of launched) h.probeInstance(l.instanceId, { httpStatus: 200 });
      h.advance(60_000);
      h.probeInstance(launched[0].instanceId, { httpStatus: 500 });
      for (const call of h.calls('kill')) h.status(call.taskId, 'TASK_KILLED');
      h.advance(60_000);
      h.run(h.offer(makeOffer()));
    },
  },
  {
    name: 'unreachable: replaced, expunged, its task comes back',
    run: (h) => {
      h.put(makeApp({ id: '/u', instances: 2, unreachable: { kind: 'enabled', inactiveAfterMs: 10_000, expungeAfterMs: 20_000 } }));
      const launched = h.offer(makeOffer());
      h.run(launched);
      h.status(launched[0].taskId, 'TASK_UNREACHABLE');
      h.advance(10_000);
      h.run(h.offer(makeOffer({ agent: { hostname: 'h2' } })));
      h.advance(10_000);
      h.status(launched[0].taskId, 'TASK_RUNNING');
    },
  },
  {
    name: 'a restart while instances wait for offers: the waiting ones take the new version, stored with it',
    run: (h) => {
      h.put(makeApp({ id: '/wait', instances: 4, cpus: 1, mem: 64 }));
      h.run(h.offer(makeOffer({ cpus: 2, mem: 1024 })));
      h.advance(1_000);
      h.handle({ type: 'restart', runSpecId: '/wait', force: true });
      h.run(h.offer(makeOffer({ agent: { hostname: 'h2' }, cpus: 8, mem: 1024 })));
    },
  },
  {
    name: 'a resident app: reserve and launch, fail, relaunch on the reservation, scale to 0 and release',
    options: { options: { defaultRole: 'db' } },
    run: (h) => {
      const agent = makeAgent({ hostname: 'a' });
      h.put(makeApp({ id: '/db', role: 'db', instances: 1, resident: true, cpus: 0.5, mem: 64, container: { type: 'MESOS', portMappings: [], volumes: [{ kind: 'persistent', containerPath: 'data', mode: 'RW', persistent: { size: 100, constraints: [] } }] } }));
      const [task] = h.offer(makeOffer({ agent, cpus: 4 }));
      h.run(task);
      h.status(task.taskId, 'TASK_FAILED');
      h.advance(60_000);
      const pool = {
        reservedFor: 'db', reservationId: task.instanceId, cpusMilli: 500, memMilli: 64_000, diskMilli: 100_000, gpus: 0, ports: [],
        volumes: [{ persistenceId: `${task.instanceId}#vol0`, containerPath: 'data', diskMilli: 100_000 }],
      };
      const reservation = () => ({ ...makeOffer({ agent, cpus: 4 }), pools: [...makeOffer({ agent, cpus: 4 }).pools, pool] });
      const [again] = h.offer(reservation());
      h.run(again);
      h.scale('/db', 0);
      for (const call of h.calls('kill')) h.status(call.taskId, 'TASK_KILLED');
      h.offer(reservation());
    },
  },
];

t.test('one write per changed instance per input, and launches only of durable instances', async (t) => {
  for (const flow of flows) {
    t.test(flow.name, async (t) => {
      const h = new Harness(flow.options);
      const a = audit(h);
      flow.run(h);
      t.same(a.problems, [], 'no instance written twice in an input, none launched before it was durable, none left unwritten');
      t.ok(a.totals.inputs > 5 && a.totals.instanceWrites > 0 && a.totals.accepts > 0, `audited ${JSON.stringify(a.totals)}`);
    });
  }
});

t.test('a placement is written once: before the ACCEPT, not again when the input ends', async (t) => {
  const h = new Harness();
  h.put(makeApp({ instances: 2 }));
  const from = h.effects.length;
  h.offer(makeOffer());
  const order = h.effects.slice(from).flatMap((e) => (e.kind === 'store' ? [e.write.type] : e.kind === 'driver' ? [e.call.type] : []));
  t.same(order, ['saveInstances', 'accept', 'suppress'], 'one instance write, then the ACCEPT (and nothing left to offer for: suppress)');
});

t.test('new instances of a command are written once, with the input', async (t) => {
  const h = new Harness();
  const from = h.store.writes.length;
  h.put(makeApp({ instances: 3 }));
  const writes = h.store.writes.slice(from).filter((w) => w.type === 'saveInstances');
  t.same(writes.map((w) => (w.type === 'saveInstances' ? w.instances.map((i) => i.condition) : [])), [['Scheduled', 'Scheduled', 'Scheduled']]);
});
