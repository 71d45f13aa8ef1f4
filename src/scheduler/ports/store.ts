import type { Instance } from '../model/instance';
import type { RunSpec } from '../model/run-spec';

/**
 * Durable state port. Writes are synchronous (the embedded store, better-sqlite3, is synchronous):
 * when `saveInstances` returns, the records are durable, which is how instances are persisted before
 * an offer is accepted. This departs from the architecture page's "store writes complete later as an
 * input": a synchronous embedded store makes that ordering trivially true and keeps the core simple.
 */
export interface Store {
  saveRunSpec(spec: RunSpec): void;
  deleteRunSpec(runSpecId: string): void;
  saveInstances(instances: readonly Instance[]): void;
  deleteInstance(instanceId: string): void;
  saveFrameworkId(frameworkId: string): void;
  load(): StoredState;
}

export interface StoredState {
  readonly runSpecs: readonly RunSpec[];
  readonly instances: readonly Instance[];
  readonly frameworkId?: string;
}
