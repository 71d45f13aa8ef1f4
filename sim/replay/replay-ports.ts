import type { SchedulerPorts } from '../../src/scheduler/index';
import type { StoredState } from '../../src/scheduler/ports/store';
import { MemoryStore } from '../../src/store/memory-store';

/** Thrown when the replayed core asks for more than the recording holds: it has diverged. */
export class ReplayDiverged extends Error {}

/**
 * The ports a replayed core runs on: the recording's instant as its clock (`nowMs` is moved by the
 * replay to each input's), the recorded random numbers in order, and a cluster, prober, timers and
 * store that do nothing — what the live core did through them is recorded, and the replay compares
 * what the replayed core does with it. The store's `load` returns the recorded snapshot.
 */
export function replayPorts(clock: { nowMs(): number }, draws: readonly number[], snapshot: StoredState): SchedulerPorts {
  let drawn = 0;
  let timerIds = 0;
  const store = new MemoryStore();
  store.load = () => snapshot;
  return {
    clock,
    random: {
      next: () => {
        if (drawn >= draws.length) throw new ReplayDiverged(`the replayed core drew more random numbers than the ${draws.length} recorded`);
        return draws[drawn++];
      },
    },
    timers: { schedule: () => ++timerIds, cancel: () => undefined },
    driver: {
      accept: () => undefined, decline: () => undefined, kill: () => undefined, acknowledge: () => undefined,
      reconcile: () => undefined, revive: () => undefined, suppress: () => undefined, updateFrameworkRoles: () => undefined,
    },
    store,
    prober: { probe: () => undefined },
  };
}
