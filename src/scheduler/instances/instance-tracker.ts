import type { InstanceContext } from './instance-context';
import type { Instance } from '../model/instance';

/**
 * Writes every instance changed since the last write (the state's dirty set) that still exists, in
 * one store call, and empties the set: an instance is written at most once per flush, with all the
 * changes of the input so far. Two places flush: the facade once at the end of every input, and the
 * matcher right before each ACCEPT, because the instances an offer launches must be durable before
 * the cluster sees the launch (the Store port's contract; with the ZooKeeper store the driver's
 * calls wait for the writes made before them, store/durable-driver.ts). Expunged instances are
 * deleted at once by `expungeInstance` and skipped here.
 */
export function flushInstances(ctx: InstanceContext): void {
  const state = ctx.state;
  if (state.dirty.size === 0) return;
  const live: Instance[] = [];
  for (const inst of state.dirty) if (state.isCurrent(inst)) live.push(inst);
  state.dirty.clear();
  if (live.length > 0) ctx.store.saveInstances(live);
}
