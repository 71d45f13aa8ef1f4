import type { Test } from 'tap';
import { MesosCluster, type MesosClusterOptions } from '../../../../src/cluster/mesos/mesos-cluster';
import { StaticMasterDetector } from '../../../../src/cluster/mesos/static-master-detector';
import { launchedInstanceCount } from '../../../../src/runtime/launched-instances';
import { RealTimeLoop } from '../../../../src/runtime/real-time-loop';
import type { SchedulerInput } from '../../../../src/scheduler/model/inputs';
import { Scheduler } from '../../../../src/scheduler/scheduler';
import type { SchedulerOptions } from '../../../../src/scheduler/scheduler-options';
import type { MemoryStore } from '../../../harness/memory-store';
import type { FakeMaster } from '../fake-master/fake-master';
import { FAST } from './driver-fixture';

/** A pacer made of the real core, the real-time loop and the Mesos driver, as start-mesos composes them. */
export interface CorePacer {
  readonly loop: RealTimeLoop;
  readonly core: Scheduler;
  readonly driver: MesosCluster;
  /** Every input the driver posted to the core, in order. */
  readonly inputs: SchedulerInput[];
  /** What the driver logged. */
  readonly logs: string[];
  stop(): void;
}

/** What {@link startCorePacer} can be told besides the master and the store. */
export interface CorePacerSetup {
  readonly driver?: Partial<MesosClusterOptions>;
  readonly options?: Partial<SchedulerOptions>;
}

/** Starts a core + driver against `master` with `store` (stopped at teardown). */
export function startCorePacer(t: Test, master: FakeMaster, store: MemoryStore, setup: CorePacerSetup = {}): CorePacer {
  const loop = new RealTimeLoop();
  const inputs: SchedulerInput[] = [];
  const logs: string[] = [];
  const driver = new MesosCluster({
    detector: new StaticMasterDetector(master.url),
    logger: { info: (m) => logs.push(m), warn: (m) => logs.push(`WARN ${m}`) },
    ...FAST,
    ...setup.driver,
  }, (input) => {
    inputs.push(input);
    loop.post(input);
  });
  const core = new Scheduler(
    { clock: loop, random: { next: () => Math.random() }, timers: loop, driver, store, prober: { probe: () => undefined } },
    { reconciliationIntervalMs: 0, ...setup.options },
  );
  loop.attach(core);
  const stop = (): void => {
    driver.stop();
    loop.close();
  };
  t.teardown(stop);
  driver.start({ ...(store.frameworkId === undefined ? {} : { frameworkId: store.frameworkId }), launchedInstances: launchedInstanceCount(core) });
  return { loop, core, driver, inputs, logs, stop };
}
