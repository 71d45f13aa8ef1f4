import type { Deployment } from '../../src/scheduler/model/deployment';
import type { Group } from '../../src/scheduler/groups/group';
import { Instance, type InstanceFields } from '../../src/scheduler/model/instance';
import type { RunSpec } from '../../src/scheduler/model/run-spec';
import type { TaskFailure } from '../../src/scheduler/model/task-failure';
import type { SetAsideRecord, Store, StoredState } from '../../src/scheduler/ports/store';

/** A store write, as recorded (instances are snapshotted at write time). */
export type StoreWrite =
  | { readonly type: 'saveRunSpec'; readonly spec: RunSpec }
  | { readonly type: 'deleteRunSpec'; readonly runSpecId: string }
  | { readonly type: 'saveInstances'; readonly instances: readonly Instance[] }
  | { readonly type: 'deleteInstance'; readonly instanceId: string }
  | { readonly type: 'saveFrameworkId'; readonly frameworkId: string }
  | { readonly type: 'saveRoot'; readonly root: Group }
  | { readonly type: 'saveRunSpecVersion'; readonly spec: RunSpec }
  | { readonly type: 'deleteRunSpecVersion'; readonly runSpecId: string; readonly version: string }
  | { readonly type: 'saveRootVersion'; readonly root: Group }
  | { readonly type: 'deleteRootVersion'; readonly version: string }
  | { readonly type: 'saveDeployment'; readonly deployment: Deployment }
  | { readonly type: 'deleteDeployment'; readonly deploymentId: string }
  | { readonly type: 'saveTaskFailure'; readonly failure: TaskFailure }
  | { readonly type: 'deleteTaskFailure'; readonly runSpecId: string }
  | { readonly type: 'setAside'; readonly record: SetAsideRecord };

/**
 * An in-memory Store. It keeps snapshots, not the core's live objects, so a test sees what was
 * durable at each moment (e.g. an instance's Provisioned record before the accept).
 */
export class MemoryStore implements Store {
  readonly runSpecs = new Map<string, RunSpec>();
  readonly instances = new Map<string, Instance>();
  readonly versions = new Map<string, RunSpec>();
  readonly deployments = new Map<string, Deployment>();
  readonly rootVersions = new Map<string, Group>();
  readonly taskFailures = new Map<string, TaskFailure>();
  root?: Group;
  frameworkId?: string;
  readonly writes: StoreWrite[] = [];

  constructor(private readonly onWrite: (write: StoreWrite) => void = () => undefined) {}

  saveRunSpec(spec: RunSpec): void {
    this.runSpecs.set(spec.id, spec);
    this.record({ type: 'saveRunSpec', spec });
  }

  deleteRunSpec(runSpecId: string): void {
    this.runSpecs.delete(runSpecId);
    this.record({ type: 'deleteRunSpec', runSpecId });
  }

  saveInstances(instances: readonly Instance[]): void {
    const snaps = instances.map(snapshot);
    for (const s of snaps) this.instances.set(s.instanceId, s);
    this.record({ type: 'saveInstances', instances: snaps });
  }

  deleteInstance(instanceId: string): void {
    this.instances.delete(instanceId);
    this.record({ type: 'deleteInstance', instanceId });
  }

  saveFrameworkId(frameworkId: string): void {
    this.frameworkId = frameworkId;
    this.record({ type: 'saveFrameworkId', frameworkId });
  }

  saveTaskFailure(failure: TaskFailure): void {
    const snap = { ...failure };
    this.taskFailures.set(failure.appId, snap);
    this.record({ type: 'saveTaskFailure', failure: snap });
  }

  deleteTaskFailure(runSpecId: string): void {
    this.taskFailures.delete(runSpecId);
    this.record({ type: 'deleteTaskFailure', runSpecId });
  }

  saveRoot(root: Group): void {
    this.root = root;
    this.record({ type: 'saveRoot', root });
  }

  saveRunSpecVersion(spec: RunSpec): void {
    this.versions.set(`${spec.id} ${spec.version}`, spec);
    this.record({ type: 'saveRunSpecVersion', spec });
  }

  deleteRunSpecVersion(runSpecId: string, version: string): void {
    this.versions.delete(`${runSpecId} ${version}`);
    this.record({ type: 'deleteRunSpecVersion', runSpecId, version });
  }

  saveRootVersion(root: Group): void {
    this.rootVersions.set(root.version, root);
    this.record({ type: 'saveRootVersion', root });
  }

  deleteRootVersion(version: string): void {
    this.rootVersions.delete(version);
    this.record({ type: 'deleteRootVersion', version });
  }

  saveDeployment(deployment: Deployment): void {
    const snap = { ...deployment };
    this.deployments.set(deployment.plan.id, snap);
    this.record({ type: 'saveDeployment', deployment: snap });
  }

  deleteDeployment(deploymentId: string): void {
    this.deployments.delete(deploymentId);
    this.record({ type: 'deleteDeployment', deploymentId });
  }

  /** Forgets the record (a test looks at the recorded `setAside` write for what was set aside). */
  setAside(record: SetAsideRecord): void {
    const maps = {
      runSpec: this.runSpecs, runSpecVersion: this.versions, rootVersion: this.rootVersions, deployment: this.deployments, instance: this.instances,
      taskFailure: this.taskFailures,
    };
    if (record.kind === 'root') this.root = undefined;
    else if (record.kind === 'frameworkId') this.frameworkId = undefined;
    else maps[record.kind].delete(record.kind === 'runSpecVersion' ? `${record.key} ${record.version ?? ''}` : record.key);
    this.record({ type: 'setAside', record });
  }

  /**
   * Applies a write another store recorded (replaying a prefix of `writes` rebuilds what was
   * durable when a process was killed after that write).
   */
  apply(write: StoreWrite): void {
    switch (write.type) {
      case 'saveRunSpec': return this.saveRunSpec(write.spec);
      case 'deleteRunSpec': return this.deleteRunSpec(write.runSpecId);
      case 'saveInstances': return this.saveInstances(write.instances);
      case 'deleteInstance': return this.deleteInstance(write.instanceId);
      case 'saveFrameworkId': return this.saveFrameworkId(write.frameworkId);
      case 'saveRoot': return this.saveRoot(write.root);
      case 'saveRunSpecVersion': return this.saveRunSpecVersion(write.spec);
      case 'deleteRunSpecVersion': return this.deleteRunSpecVersion(write.runSpecId, write.version);
      case 'saveRootVersion': return this.saveRootVersion(write.root);
      case 'deleteRootVersion': return this.deleteRootVersion(write.version);
      case 'saveDeployment': return this.saveDeployment(write.deployment);
      case 'deleteDeployment': return this.deleteDeployment(write.deploymentId);
      case 'saveTaskFailure': return this.saveTaskFailure(write.failure);
      case 'deleteTaskFailure': return this.deleteTaskFailure(write.runSpecId);
      case 'setAside': return this.setAside(write.record);
    }
  }

  /** Puts `state` in without recording writes (a store as a previous process left it). */
  fill(state: StoredState): void {
    this.root = state.root;
    this.frameworkId = state.frameworkId;
    for (const spec of state.runSpecs) this.runSpecs.set(spec.id, spec);
    for (const spec of state.versions) this.versions.set(`${spec.id} ${spec.version}`, spec);
    for (const root of state.rootVersions) this.rootVersions.set(root.version, root);
    for (const d of state.deployments) this.deployments.set(d.plan.id, { ...d });
    for (const inst of state.instances) this.instances.set(inst.instanceId, snapshot(inst));
    for (const f of state.taskFailures ?? []) this.taskFailures.set(f.appId, { ...f });
  }

  load(): StoredState {
    const sorted = <T>(m: ReadonlyMap<string, T>): T[] => [...m.keys()].sort().map((k) => m.get(k) as T);
    return {
      root: this.root,
      runSpecs: sorted(this.runSpecs),
      versions: sorted(this.versions),
      rootVersions: sorted(this.rootVersions),
      deployments: sorted(this.deployments),
      instances: sorted(this.instances),
      frameworkId: this.frameworkId,
      ...(this.taskFailures.size === 0 ? {} : { taskFailures: sorted(this.taskFailures) }),
    };
  }

  private record(write: StoreWrite): void {
    this.writes.push(write);
    this.onWrite(write);
  }
}

function snapshot(inst: InstanceFields): Instance {
  // From its plain record: a spread of an Instance would miss its tasks (a getter).
  const json = inst instanceof Instance ? inst.toJSON() : inst;
  return Instance.from({ ...json, tasks: json.tasks.map((t) => ({ ...t })) });
}
