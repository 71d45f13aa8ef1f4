import type { Deployment } from '../scheduler/model/deployment';
import type { Group } from '../scheduler/index';
import type { Instance } from '../scheduler/model/instance';
import type { RunSpec } from '../scheduler/model/run-spec';
import type { TaskFailure } from '../scheduler/model/task-failure';
import type { SetAsideRecord, Store, StoredState } from '../scheduler/ports/store';

/**
 * A Store that keeps everything in memory (the simulator, tests, benchmarks). Writes are
 * synchronous like the embedded store's. Instances are kept by reference: the core owns them.
 */
export class MemoryStore implements Store {
  private readonly runSpecs = new Map<string, RunSpec>();
  private readonly instances = new Map<string, Instance>();
  private readonly versions = new Map<string, RunSpec>();
  private readonly deployments = new Map<string, Deployment>();
  private readonly rootVersions = new Map<string, Group>();
  private readonly taskFailures = new Map<string, TaskFailure>();
  private root?: Group;
  private frameworkId?: string;
  /** Records set aside by the core, with what they held, in the order they were set aside. */
  readonly setAsideRecords: { readonly record: SetAsideRecord; readonly value: unknown }[] = [];
  writes = 0;

  setAside(record: SetAsideRecord): void {
    this.writes++;
    this.setAsideRecords.push({ record, value: this.take(record) });
  }

  private take(record: SetAsideRecord): unknown {
    const from = <T>(map: Map<string, T>, key: string): T | undefined => {
      const value = map.get(key);
      map.delete(key);
      return value;
    };
    switch (record.kind) {
      case 'root': {
        const root = this.root;
        this.root = undefined;
        return root;
      }
      case 'frameworkId': {
        const id = this.frameworkId;
        this.frameworkId = undefined;
        return id;
      }
      case 'runSpec': return from(this.runSpecs, record.key);
      case 'runSpecVersion': return from(this.versions, `${record.key}\u0000${record.version ?? ''}`);
      case 'rootVersion': return from(this.rootVersions, record.key);
      case 'deployment': return from(this.deployments, record.key);
      case 'instance': return from(this.instances, record.key);
      case 'taskFailure': return from(this.taskFailures, record.key);
    }
  }

  saveRoot(root: Group): void {
    this.writes++;
    this.root = root;
  }

  saveRunSpecVersion(spec: RunSpec): void {
    this.writes++;
    this.versions.set(`${spec.id}\u0000${spec.version}`, spec);
  }

  deleteRunSpecVersion(runSpecId: string, version: string): void {
    this.writes++;
    this.versions.delete(`${runSpecId}\u0000${version}`);
  }

  saveRootVersion(root: Group): void {
    this.writes++;
    this.rootVersions.set(root.version, root);
  }

  deleteRootVersion(version: string): void {
    this.writes++;
    this.rootVersions.delete(version);
  }

  saveDeployment(deployment: Deployment): void {
    this.writes++;
    this.deployments.set(deployment.plan.id, { ...deployment });
  }

  deleteDeployment(deploymentId: string): void {
    this.writes++;
    this.deployments.delete(deploymentId);
  }

  saveRunSpec(spec: RunSpec): void {
    this.writes++;
    this.runSpecs.set(spec.id, spec);
  }

  deleteRunSpec(runSpecId: string): void {
    this.writes++;
    this.runSpecs.delete(runSpecId);
  }

  saveInstances(instances: readonly Instance[]): void {
    this.writes++;
    for (const inst of instances) this.instances.set(inst.instanceId, inst);
  }

  deleteInstance(instanceId: string): void {
    this.writes++;
    this.instances.delete(instanceId);
  }

  saveFrameworkId(frameworkId: string): void {
    this.writes++;
    this.frameworkId = frameworkId;
  }

  saveTaskFailure(failure: TaskFailure): void {
    this.writes++;
    this.taskFailures.set(failure.appId, failure);
  }

  deleteTaskFailure(runSpecId: string): void {
    this.writes++;
    this.taskFailures.delete(runSpecId);
  }

  load(): StoredState {
    return {
      root: this.root,
      runSpecs: sortedValues(this.runSpecs),
      versions: sortedValues(this.versions),
      rootVersions: sortedValues(this.rootVersions),
      deployments: sortedValues(this.deployments),
      instances: sortedValues(this.instances),
      frameworkId: this.frameworkId,
      ...(this.taskFailures.size === 0 ? {} : { taskFailures: sortedValues(this.taskFailures) }),
    };
  }
}

/** Map values in key order (StoredState promises a deterministic order). */
function sortedValues<T>(map: ReadonlyMap<string, T>): T[] {
  return [...map.keys()].sort().map((k) => map.get(k) as T);
}
