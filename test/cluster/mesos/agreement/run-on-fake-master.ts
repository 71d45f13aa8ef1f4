import { MesosCluster } from '../../../../src/cluster/mesos/mesos-cluster';
import { StaticMasterDetector } from '../../../../src/cluster/mesos/static-master-detector';
import { launchedInstanceCount } from '../../../../src/runtime/launched-instances';
import { HeapLoop } from '../../../../src/scheduler/kernel/heap-loop';
import type { SchedulerInput } from '../../../../src/scheduler/model/inputs';
import { Scheduler } from '../../../../src/scheduler/scheduler';
import type { SimEvent } from '../../../../sim/cluster/sim-event';
import { SimProber } from '../../../../sim/cluster/sim-prober';
import { performStep } from '../../../../sim/runner/perform-step';
import type { ExpectOutcome } from '../../../../sim/runner/run-result';
import { RunRecorder } from '../../../../sim/runner/run-recorder';
import { runStore } from '../../../../sim/runner/run-store';
import { Trace } from '../../../../sim/runner/trace';
import { VIRTUAL_EPOCH_MS } from '../../../../sim/runner/virtual-epoch';
import type { Scenario, TimelineStep } from '../../../../sim/scenario/scenario';
import { createWorldStreams } from '../../../../sim/world';
import { BARRIER_PREFIX, SimBackedMaster } from '../fake-master/sim-backed-master';
import { waitUntil } from '../fake-master/wait-until';
import { PATIENCE_MS, waitFor } from '../../../harness/wait';
import { PlacementLog } from './placement-log';

/** Entries of the lockstep loop: a core timer or probe answer, a cluster event, an event for the wire, a timeline step, a failover's takeover. */
type Item =
  | { readonly to: 'core'; readonly input: SchedulerInput; readonly gen: number }
  | { readonly to: 'sim'; readonly event: SimEvent }
  | { readonly to: 'wire'; readonly input: SchedulerInput; readonly gen: number }
  | { readonly to: 'step'; readonly step: TimelineStep }
  | { readonly to: 'takeover' };

/**
 * How often the lockstep loop looks whether the wire is quiet. Every entry that moves something
 * over the wire waits for it (one or two HTTP round trips on 127.0.0.1, well under a millisecond
 * each), so the pause between looks is most of a scenario's cost: 1 ms, not the harness's 5.
 */
const POLL_MS = 1;

/** What a run against the fake master produced. */
export interface FakeMasterRun {
  readonly log: PlacementLog;
  readonly expectations: readonly ExpectOutcome[];
  /** The agents the master reported lost (FAILURE), in order. */
  readonly lostAgents: readonly string[];
  /** Calls or inputs the sim-backed master could not translate. */
  readonly problems: readonly string[];
  /** Loop entries handled (each one round trip over the wire at least). */
  readonly entries: number;
  /** Per accepted SUBSCRIBE, in order: the framework id it named (`FrameworkInfo.id`), or `(none)` for a new framework. */
  readonly subscriptions: readonly string[];
}

/**
 * Runs a scenario against the real core and the real Mesos driver (`MesosCluster`), talking over
 * HTTP on 127.0.0.1 to a {@link SimBackedMaster} whose cluster is built from the scenario's agents.
 *
 * Lockstep virtual time: one loop ordered by (dueMs, seq), as in sim/runner/run-scenario.ts,
 * holds the core's timers, the simulated cluster's events, the cluster's messages for the
 * framework and the timeline steps; the core's clock is the loop's virtual clock. After each
 * entry the run waits until the wire is quiet: (1) the driver has posted to the core one input
 * for every event the master wrote, then (2) a barrier RECONCILE sent through the driver reached
 * the master (the driver runs with one call in flight, so calls arrive in order), so every call
 * the core made is applied to the cluster before virtual time moves on. The barrier is skipped
 * when neither the core called the driver nor the master wrote an event since the last one. Timeline steps run through the simulator's own
 * `performStep`, so commands and expectations are the same code as in the simulator.
 *
 * A `schedulerFailover` step is the leader's process dying, as a real master sees it: the driver
 * stops (its subscription closes), the master deactivates the framework and keeps its tasks
 * (`SimBackedMaster.frameworkDisconnected`), and what was on its way to the dead core is lost
 * (entries carry the core generation they were meant for, as in sim/runner/run-scenario.ts).
 * After the downtime a new core is built from the same store (records kept as stored text, as the
 * simulator keeps them for a run with a failover) with a new driver, which re-SUBSCRIBEs with the
 * framework id the core recovered; the core reconciles on `subscribed`.
 */
export async function runOnFakeMaster(scenario: Scenario): Promise<FakeMasterRun> {
  let nowMs = VIRTUAL_EPOCH_MS;
  const rel = (): number => nowMs - VIRTUAL_EPOCH_MS;
  const heap = new HeapLoop<Item>();
  const streams = createWorldStreams(scenario.seed);
  const log = new PlacementLog();
  const recorder = new RunRecorder();
  // The core an entry is meant for (as in the simulator's runner): bumped when a core dies, so its
  // own timers, the probe answers on their way to it and the events on their way over its stream
  // are lost with it.
  let generation = 0;
  let core: Scheduler | undefined;
  const master = await SimBackedMaster.start({
    nowMs: () => nowMs,
    toFramework: (dueMs, input) => void heap.schedule(dueMs, { to: 'wire', input, gen: generation }),
    schedule: (dueMs, event) => heap.schedule(dueMs, { to: 'sim', event }),
    cancel: (id) => heap.cancel(id),
    streams,
  }, scenario.agents, {
    timings: scenario.options.timings,
    taskKilling: scenario.options.taskKilling,
    defaultRole: scenario.options.defaultRole,
    runSpecOf: (id) => core?.runSpec(id),
  });
  // Scheduler-run health checks (HTTP, HTTPS, TCP) are pacer's own probes, not Mesos's: as in the
  // simulator they are answered by the simulated cluster's tasks (sim/cluster/sim-prober.ts), the
  // answer going to the core at its virtual time, not over the wire.
  const prober = new SimProber({
    nowMs: () => nowMs,
    toCore: (dueMs, input) => void heap.post(dueMs, { to: 'core', input, gen: generation }),
    schedule: (dueMs, event) => heap.schedule(dueMs, { to: 'sim', event }),
    cancel: (id) => heap.cancel(id),
    streams,
    trace: () => undefined,
  }, master.cluster);
  // The simulator's store: a run that restarts its core keeps each record's stored text.
  const { store, recovered } = runStore(scenario);
  // Lockstep: the driver's inputs reach the core at once (the driver posts them from its own
  // turns, never from inside a call the core made), so `settle` knows the core has seen them.
  // Every SUBSCRIBED is posted (`subscribed`) without being one of the events `deliver` wrote.
  let posted = 0;
  let subscribedInputs = 0;
  let coreCalls = 0;
  let driver: MesosCluster | undefined;
  const drivers: MesosCluster[] = [];
  /** The process of a (new) leader: a core built from the store and a driver subscribing with the framework id it recovers. */
  const startLeader = async (): Promise<Scheduler> => {
    const gen = generation;
    const mesos = new MesosCluster({
      detector: new StaticMasterDetector(master.url),
      logger: { info: () => undefined, warn: () => undefined },
      backoffInitialMs: 20, backoffMaxMs: 80, subscribeTimeoutMs: PATIENCE_MS, callTimeoutMs: PATIENCE_MS, user: 'pacer-test',
      // One call in flight at a time, so calls reach the master in the order the core made them and
      // the barrier RECONCILE arrives after every call before it. With the default 8, unrelated
      // calls race on their own connections (§1.10) and a KILL could land after the barrier, to be
      // applied only at a later virtual time.
      maxConcurrentCalls: 1,
      defaultRole: scenario.options.defaultRole,
      taskKilling: scenario.options.taskKilling,
    }, (input) => {
      posted++;
      if (input.type === 'subscribed') subscribedInputs++;
      if (gen === generation) core?.handle(input);
    });
    drivers.push(mesos);
    driver = mesos;
    const scheduler = new Scheduler(
      {
        clock: { nowMs: () => nowMs },
        random: streams.ids,
        timers: { schedule: (dueMs, input) => heap.schedule(dueMs, { to: 'core', input, gen }), cancel: (id) => heap.cancel(id) },
        driver: countingCalls(mesos, () => void coreCalls++),
        store,
        prober,
      },
      {
        defaultRole: scenario.options.defaultRole,
        taskKilling: scenario.options.taskKilling,
        ...(scenario.options.maxInstancesPerOffer === undefined ? {} : { maxInstancesPerOffer: scenario.options.maxInstancesPerOffer }),
        ...(scenario.options.unhealthyKillFloor === undefined ? {} : { unhealthyKillFloor: scenario.options.unhealthyKillFloor }),
      },
    );
    core = scheduler;
    scheduler.subscribe((event) => {
      log.onEvent(rel(), event);
      recorder.onEvent(rel(), event);
    });
    const before = subscribedInputs;
    mesos.start({ ...recovered, launchedInstances: launchedInstanceCount(scheduler) });
    await waitUntil(() => subscribedInputs > before, PATIENCE_MS, 'the subscribed input');
    return scheduler;
  };
  try {
    let scheduler = await startLeader();
    let barrier = 0;
    let settledCalls = -1;
    let settledInputs = -1;
    const settle = async (): Promise<void> => {
      await waitFor(() => posted - subscribedInputs >= master.inputsSent, `the core to receive ${master.inputsSent} events`, PATIENCE_MS, POLL_MS);
      // Nothing can be on its way to the master when neither the core called the driver nor the
      // master wrote an event (the driver calls on the core's behalf, or in answer to an event)
      // since the last barrier: skip the round trip (most probe answers and timers change nothing).
      // Nor while no leader is subscribed (between a failover and its takeover).
      if (driver === undefined || (coreCalls === settledCalls && master.inputsSent === settledInputs)) return;
      settledCalls = coreCalls;
      settledInputs = master.inputsSent;
      const id = `${BARRIER_PREFIX}${++barrier}`;
      driver.reconcile([{ taskId: id }]);
      await waitFor(() => {
        master.processCalls();
        return master.barriers.includes(id);
      }, `barrier ${id}`, PATIENCE_MS, POLL_MS);
    };
    await settle();

    /**
     * The leader dies (the simulator's `schedulerFailover`): its process ends, the driver's
     * connections with it; the master sees the subscription close and deactivates the framework,
     * keeping its tasks (§1.8). What only that core held in memory is gone.
     */
    const failover = async (downtimeMs: number): Promise<void> => {
      generation++;
      driver?.stop();
      driver = undefined;
      await waitFor(() => !master.fake.subscribed, 'the master to see the subscription close', PATIENCE_MS, POLL_MS);
      master.frameworkDisconnected();
      recorder.step(rel(), `scheduler failover: the leader dies, a standby takes over in ${downtimeMs / 1000}s`);
      heap.schedule(nowMs + downtimeMs, { to: 'takeover' });
    };

    // As in the simulator: the timeline first, then the first offer cycle (same loop order at t=0).
    for (const step of scenario.timeline) heap.schedule(VIRTUAL_EPOCH_MS + step.atMs, { to: 'step', step });
    master.cluster.start();
    const endMs = VIRTUAL_EPOCH_MS + scenario.durationMs;
    const trace = new Trace(false, false);
    let entries = 0;
    for (let entry = heap.popDue(endMs); entry !== undefined; entry = heap.popDue(endMs)) {
      entries++;
      if (entry.dueMs > nowMs) nowMs = entry.dueMs;
      const item = entry.input;
      if (item.to === 'core') {
        if (item.gen === generation) core?.handle(item.input);
      } else if (item.to === 'sim') master.onClusterEvent(item.event);
      else if (item.to === 'wire') {
        if (item.gen === generation) master.deliver(item.input);
      } else if (item.to === 'takeover') scheduler = await startLeader();
      else if (item.step.action.type === 'schedulerFailover') await failover(item.step.action.downtimeMs);
      else performStep(item.step, { scheduler, cluster: master.cluster, recorder, trace, checker: undefined, scenario, nowMs: rel() });
      await settle();
    }
    const subscriptions = master.fake.callsOf('SUBSCRIBE').filter((c) => c.status === 200).map((c) => c.call.subscribe?.frameworkInfo.id?.value ?? '(none)');
    return { log, expectations: recorder.expectations, lostAgents: [...master.lostAgents], problems: [...master.problems], entries, subscriptions };
  } finally {
    for (const d of drivers) d.stop();
    await master.close();
  }
}


/** `driver` as the core sees it, calling `onCall` before each of its methods the core calls. */
function countingCalls<T extends object>(driver: T, onCall: () => void): T {
  return new Proxy(driver, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]): unknown => {
        onCall();
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}
