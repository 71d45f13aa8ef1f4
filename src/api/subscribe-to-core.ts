import type { ApiDeps } from './api-deps';
import type { MarathonEvent } from '../scheduler/model/events';

/**
 * Subscribes `listener` to the core's events for as long as this pacer serves: through
 * `deps.subscribeCore` with HA (each leadership term's core is a new object and a standby has
 * none), else to the one core. Returns the unsubscribe function. For the API's own listeners
 * (render/task-text-ahead.ts, render/app-definition-ahead.ts).
 */
export function subscribeToCore(deps: ApiDeps, listener: (event: MarathonEvent) => void): () => void {
  return deps.subscribeCore !== undefined ? deps.subscribeCore(listener) : deps.scheduler.subscribe(listener);
}
