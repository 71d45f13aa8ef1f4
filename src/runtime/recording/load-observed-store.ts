import type { Deployment } from '../../scheduler/model/deployment';
import type { Group } from '../../scheduler/index';
import type { Instance } from '../../scheduler/model/instance';
import type { RunSpec } from '../../scheduler/model/run-spec';
import type { TaskFailure } from '../../scheduler/model/task-failure';
import type { SetAsideRecord, Store, StoredState } from '../../scheduler/ports/store';

/**
 * A store that tells `onLoad` what the core loaded at start-up (the flight recorder's snapshot)
 * and passes every call on to `inner` unchanged.
 */
export class LoadObservedStore implements Store {
  constructor(private readonly inner: Store, private readonly onLoad: (state: StoredState) => void) {}

  load(): StoredState {
    const state = this.inner.load();
    this.onLoad(state);
    return state;
  }

  saveRoot(root: Group): void { this.inner.saveRoot(root); }
  saveRunSpec(spec: RunSpec): void { this.inner.saveRunSpec(spec); }
  deleteRunSpec(runSpecId: string): void { this.inner.deleteRunSpec(runSpecId); }
  saveRunSpecVersion(spec: RunSpec): void { this.inner.saveRunSpecVersion(spec); }
  deleteRunSpecVersion(runSpecId: string, version: string): void { this.inner.deleteRunSpecVersion(runSpecId, version); }
  saveRootVersion(root: Group): void { this.inner.saveRootVersion(root); }
  deleteRootVersion(version: string): void { this.inner.deleteRootVersion(version); }
  saveDeployment(deployment: Deployment): void { this.inner.saveDeployment(deployment); }
  deleteDeployment(deploymentId: string): void { this.inner.deleteDeployment(deploymentId); }
  saveInstances(instances: readonly Instance[]): void { this.inner.saveInstances(instances); }
  deleteInstance(instanceId: string): void { this.inner.deleteInstance(instanceId); }
  saveFrameworkId(frameworkId: string): void { this.inner.saveFrameworkId(frameworkId); }
  saveTaskFailure(failure: TaskFailure): void { this.inner.saveTaskFailure(failure); }
  deleteTaskFailure(runSpecId: string): void { this.inner.deleteTaskFailure(runSpecId); }
  setAside(record: SetAsideRecord): void { this.inner.setAside(record); }
}
