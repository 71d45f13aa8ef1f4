import type { ApiDeps } from '../../src/api/api-deps';
import type { MarathonEvent } from '../../src/scheduler/model/events';

/** API deps as a standby pacer has them, with what a listener subscribed through them sees. */
export interface StandbyDeps {
  readonly deps: ApiDeps;
  /** The listeners subscribed through `subscribeCore`, in order. */
  readonly listeners: ((event: MarathonEvent) => void)[];
  /** How many times an unsubscribe function it returned was called. */
  unsubscribed(): number;
}

/**
 * API deps of a standby (HA): `scheduler` throws as it does while no core leads here, and
 * `subscribeCore` records its listeners (the API's own listeners must subscribe through it).
 */
export function standbyDeps(): StandbyDeps {
  const listeners: ((event: MarathonEvent) => void)[] = [];
  let unsubscribed = 0;
  const deps = {
    get scheduler(): never {
      throw new Error('Could not determine the current leader');
    },
    subscribeCore: (listener: (event: MarathonEvent) => void) => {
      listeners.push(listener);
      return () => void unsubscribed++;
    },
  } as unknown as ApiDeps;
  return { deps, listeners, unsubscribed: () => unsubscribed };
}
