import type { Store } from '../../src/scheduler/ports/store';

/** Persistence off, for benchmarks of the core (the embedded store has its own benchmark). */
export const NULL_STORE: Store = {
  saveRoot: () => undefined, saveRunSpec: () => undefined, deleteRunSpec: () => undefined,
  saveRunSpecVersion: () => undefined, deleteRunSpecVersion: () => undefined,
  saveRootVersion: () => undefined, deleteRootVersion: () => undefined,
  saveDeployment: () => undefined, deleteDeployment: () => undefined, saveInstances: () => undefined,
  deleteInstance: () => undefined, saveFrameworkId: () => undefined, saveTaskFailure: () => undefined,
  deleteTaskFailure: () => undefined, setAside: () => undefined,
  load: () => ({ runSpecs: [], versions: [], rootVersions: [], deployments: [], instances: [] }),
};
