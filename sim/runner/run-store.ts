import { MemoryStore } from '../../src/store/memory-store';
import { RecordMemoryStore } from '../../src/store/record-memory-store';
import type { Scenario } from '../scenario/scenario';

/** The store of one scenario run, and the framework id its cores recovered. */
export interface RunStore {
  readonly store: MemoryStore | RecordMemoryStore;
  /** Set each time a core loads the store (once, while it is built). */
  readonly recovered: { frameworkId: string | undefined };
  /** Whether the run restarts its core (a `schedulerFailover` step). */
  readonly failovers: boolean;
}

/**
 * The store a scenario run gives its cores: a run that restarts its core (`schedulerFailover`)
 * keeps what production keeps, each record's stored text, read back by the core that takes over;
 * any other run keeps the objects themselves. `recovered` notes the framework id a core recovers,
 * as start-mesos.ts notes it for the driver's SUBSCRIBE. The simulator's runner and the
 * fake-master agreement run (test/cluster/mesos/agreement) build theirs here.
 */
export function runStore(scenario: Scenario): RunStore {
  const failovers = scenario.timeline.some((step) => step.action.type === 'schedulerFailover');
  const store = failovers ? new RecordMemoryStore() : new MemoryStore();
  const recovered: RunStore['recovered'] = { frameworkId: undefined };
  const load = store.load.bind(store);
  store.load = () => {
    const state = load();
    recovered.frameworkId = state.frameworkId;
    return state;
  };
  return { store, recovered, failovers };
}
