import seedrandom from 'seedrandom';
import t from 'tap';
import { Scheduler } from '../../src/scheduler/scheduler';
import { durableDriver, type Durability } from '../../src/store/durable-driver';
import { makeOffer } from '../builders/cluster-builders';
import { makeApp, makePod } from '../builders/run-spec-builders';
import { MemoryStore, type StoreWrite } from '../harness/memory-store';
import { RecordingDriver, launchedTasks } from '../harness/recording-driver';
import { waitFor } from '../harness/wait';

/*
 * Durability before acting, end to end, with a store that writes behind (as the ZooKeeper store
 * does): the core writes each changed instance once per input (instances/instance-tracker.ts), and
 * flushes the instances an offer launches before it calls `accept`; the runtime's durable driver
 * holds every cluster call until the writes made before it are durable. Together: no task reaches
 * the cluster before its instance, with that task, is durable.
 */

/** The harness's recording store, whose writes become durable only when `persist()` says so. */
class WriteBehindStore extends MemoryStore implements Durability {
  durable = 0;
  private readonly waiters: { seq: number; resolve: () => void }[] = [];

  constructor(readonly log: StoreWrite[]) {
    super((write) => log.push(write));
  }

  get writeSeq(): number {
    return this.log.length;
  }

  hasPendingWrites(): boolean {
    return this.durable < this.log.length;
  }

  whenDurable(seq = this.log.length): Promise<void> {
    if (seq <= this.durable) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ seq, resolve }));
  }

  persist(): void {
    this.durable = this.log.length;
    for (const w of this.waiters.splice(0)) w.resolve();
  }

  /** Task ids of every instance record durable so far, by instance id (the latest record wins). */
  durableTasks(): Map<string, Set<string>> {
    const out = new Map<string, Set<string>>();
    for (const w of this.log.slice(0, this.durable)) {
      if (w.type === 'saveInstances') for (const inst of w.instances) out.set(inst.instanceId, new Set(inst.tasks.map((task) => task.taskId)));
    }
    return out;
  }
}

for (const spec of [makeApp({ instances: 3 }), makePod({ instances: 2 })]) {
  t.test(`${spec.kind}: the ACCEPT reaches the cluster only once its instances are durable with its tasks`, async (t) => {
    const store = new WriteBehindStore([]);
    const cluster = new RecordingDriver();
    let nextTimer = 0;
    const rng = seedrandom('durable-launch');
    const core = new Scheduler({
      clock: { nowMs: () => Date.UTC(2026, 0, 1) },
      random: { next: () => rng() },
      timers: { schedule: () => ++nextTimer, cancel: () => undefined },
      driver: durableDriver(cluster, store),
      store,
      prober: { probe: () => undefined },
    });
    core.handle({ type: 'putRunSpec', spec });
    store.persist();
    await waitFor(() => !store.hasPendingWrites() && cluster.calls.length > 0, 'the calls of the put');
    const before = cluster.calls.length;
    core.handle({ type: 'offers', offers: [makeOffer({ cpus: 16, mem: 16_384 })] });
    const offerWrites = store.log.slice(store.durable).filter((w) => w.type === 'saveInstances');
    t.equal(offerWrites.length, 1, 'the offer input writes its instances once');
    await new Promise((resolve) => setImmediate(resolve));
    t.same(cluster.calls.slice(before).filter((c) => c.type === 'accept'), [], 'no ACCEPT while the instances are not durable');
    store.persist();
    await waitFor(() => cluster.calls.slice(before).some((c) => c.type === 'accept'), 'the ACCEPT, once durable');
    const launched = launchedTasks(cluster.calls.slice(before));
    t.equal(new Set(launched.map((task) => task.instanceId)).size, spec.instances, `launched every instance (${launched.length} tasks)`);
    const durable = store.durableTasks();
    for (const task of launched) t.ok(durable.get(task.instanceId)?.has(task.taskId), `${task.taskId} was durable before its launch`);
  });
}
