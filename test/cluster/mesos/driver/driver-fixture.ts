import type { Test } from 'tap';
import { MesosCluster, type MesosClusterOptions, type RecoveredFramework } from '../../../../src/cluster/mesos/mesos-cluster';
import { StaticMasterDetector } from '../../../../src/cluster/mesos/static-master-detector';
import type { ClusterInput } from '../../../../src/scheduler/model/inputs';
import { FakeMaster } from '../fake-master/fake-master';
import { waitUntil } from '../fake-master/wait-until';
import { PATIENCE_MS } from '../../../harness/wait';

/** A driver against a fake master, with everything it posted and logged. */
export interface DriverFixture {
  readonly master: FakeMaster;
  readonly driver: MesosCluster;
  readonly inputs: ClusterInput[];
  readonly logs: string[];
  readonly fatal: Error[];
  /** Waits (bounded) for the n-th posted input of a type (1-based). */
  waitInput<K extends ClusterInput['type']>(type: K, nth?: number, timeoutMs?: number): Promise<Extract<ClusterInput, { type: K }>>;
  /** Posted inputs of one type. */
  inputsOf<K extends ClusterInput['type']>(type: K): Extract<ClusterInput, { type: K }>[];
}

/**
 * Test timings: short backoffs, so that retries happen at once; the subscribe and call bounds are
 * the generous test patience (test/harness/wait.ts), so that a loaded machine never times out a
 * call to the fake master on 127.0.0.1.
 */
export const FAST: Partial<MesosClusterOptions> = {
  backoffInitialMs: 20, backoffMaxMs: 80, subscribeTimeoutMs: PATIENCE_MS, callTimeoutMs: PATIENCE_MS, user: 'pacer-test',
};

/** What `makeDriver` can be told. */
export interface DriverSetup {
  readonly options?: Partial<MesosClusterOptions>;
  readonly recovered?: RecoveredFramework;
  /** Post inputs here too (e.g. a real core); runs after recording. */
  readonly onInput?: (input: ClusterInput) => void;
  /** Do not start the driver. */
  readonly noStart?: boolean;
  /** Use this master instead of starting one. */
  readonly master?: FakeMaster;
}

/** Starts a fake master and a driver subscribed to it (stopped and closed at teardown). */
export async function makeDriver(t: Test, setup: DriverSetup = {}): Promise<DriverFixture> {
  const master = setup.master ?? await FakeMaster.start();
  const inputs: ClusterInput[] = [];
  const logs: string[] = [];
  const fatal: Error[] = [];
  const driver = new MesosCluster({
    detector: new StaticMasterDetector(master.url),
    logger: { info: (m) => logs.push(m), warn: (m) => logs.push(`WARN ${m}`) },
    onFatal: (err) => fatal.push(err),
    ...FAST,
    ...setup.options,
  }, (input) => {
    inputs.push(input);
    setup.onInput?.(input);
  });
  t.teardown(async () => {
    driver.stop();
    await master.close();
  });
  if (setup.noStart !== true) driver.start(setup.recovered ?? { launchedInstances: 0 });
  const inputsOf = <K extends ClusterInput['type']>(type: K): Extract<ClusterInput, { type: K }>[] =>
    inputs.filter((i): i is Extract<ClusterInput, { type: K }> => i.type === type);
  return {
    master, driver, inputs, logs, fatal, inputsOf,
    waitInput: (type, nth = 1, timeoutMs = PATIENCE_MS) => waitUntil(() => inputsOf(type)[nth - 1], timeoutMs, `${type} input #${nth}`),
  };
}
