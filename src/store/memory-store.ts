import type { Instance } from '../scheduler/model/instance';
import type { RunSpec } from '../scheduler/model/run-spec';
import type { Store, StoredState } from '../scheduler/ports/store';

/**
 * A Store that keeps everything in memory (the simulator, tests, benchmarks). Writes are
 * synchronous like the embedded store's. Instances are kept by reference: the core owns them.
 */
export class MemoryStore implements Store {
  private readonly runSpecs = new Map<string, RunSpec>();
  private readonly instances = new Map<string, Instance>();
  private frameworkId?: string;
  writes = 0;

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

  load(): StoredState {
    return { runSpecs: [...this.runSpecs.values()], instances: [...this.instances.values()], frameworkId: this.frameworkId };
  }
}
