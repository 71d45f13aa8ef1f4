import type { LaunchOperation } from '../scheduler/model/launch';
import type { ClusterDriver } from '../scheduler/ports/cluster-driver';

/**
 * A store whose writes become durable after the call returns (the ZooKeeper store): it counts
 * writes and says when the first N are durable.
 */
export interface Durability {
  readonly writeSeq: number;
  /** Whether some write is not durable yet. */
  hasPendingWrites(): boolean;
  /** Resolves once the first `seq` writes are durable; rejects when they never will be (the store failed for good). */
  whenDurable(seq?: number): Promise<void>;
}

/**
 * The Store port's contract — a record is durable before the cluster acts on it (instances before
 * the ACCEPT that launches them) — for a store that writes behind: every call to the cluster waits
 * until every store write made before it is durable, and calls keep their order (a kill never
 * overtakes the launch it kills). With nothing pending a call goes straight through; the
 * synchronous SQLite store needs none of this (its writes are durable when they return).
 */
export function durableDriver(driver: ClusterDriver, store: Durability): ClusterDriver {
  const queue: { readonly seq: number; readonly call: () => void }[] = [];
  let draining = false;
  const drain = async (): Promise<void> => {
    draining = true;
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      // A store that failed for good stops pacer (open-store.ts): nothing waiting reaches the cluster.
      if (!(await store.whenDurable(next.seq).then(() => true, () => false))) {
        queue.length = 0;
        break;
      }
      try {
        next.call();
      } catch (err) {
        setImmediate(() => { throw err; }); // as uncaught as a direct call's throw; the queue goes on
      }
    }
    draining = false;
  };
  const gate = (call: () => void): void => {
    if (!draining && !store.hasPendingWrites()) {
      call();
      return;
    }
    queue.push({ seq: store.writeSeq, call });
    if (!draining) void drain();
  };
  const gated: ClusterDriver = {
    accept: (offerId: string, operations: readonly LaunchOperation[], refuseMs: number) => gate(() => driver.accept(offerId, operations, refuseMs)),
    decline: (offerIds, refuseMs) => gate(() => driver.decline(offerIds, refuseMs)),
    kill: (taskId, agentId, gracePeriodMs) => gate(() => driver.kill(taskId, agentId, gracePeriodMs)),
    acknowledge: (agentId, taskId, uuid) => gate(() => driver.acknowledge(agentId, taskId, uuid)),
    reconcile: (tasks) => gate(() => driver.reconcile(tasks)),
    revive: (roles) => gate(() => driver.revive(roles)),
    suppress: (roles) => gate(() => driver.suppress(roles)),
  };
  const update = driver.updateFrameworkRoles?.bind(driver);
  return update === undefined ? gated : { ...gated, updateFrameworkRoles: (roles) => gate(() => update(roles)) };
}
