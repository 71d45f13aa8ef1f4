import { makeOffer } from '../builders/cluster-builders';
import { makeApp, makeHealthCheck, type AppOverrides } from '../builders/run-spec-builders';
import type { Harness } from './core-harness';

/** Interval of the storm app's scheduler-run check (grace 0, one failure kills). */
export const STORM_INTERVAL_MS = 10_000;

/**
 * Deploys `/storm` (or `overrides.id`) with `instances` running instances, each with one
 * scheduler-run HTTP check (grace 0, maxConsecutiveFailures 1), and answers every instance's
 * first probe 200, so each has been healthy once. Returns the instance ids in creation order.
 */
export function healthyApp(h: Harness, instances: number, overrides: AppOverrides = {}): string[] {
  const check = makeHealthCheck({ gracePeriodMs: 0, intervalMs: STORM_INTERVAL_MS, timeoutMs: 2000, maxConsecutiveFailures: 1 });
  const app = makeApp({ id: '/storm', instances, hostPorts: [0], healthChecks: [check], ...overrides });
  h.put(app);
  for (let i = 0; i < instances; i += 5) h.run(h.offer(makeOffer({ agent: { hostname: `h${i}`, agentId: `a${i}` } })));
  const ids = h.instances(app.id).map((i) => i.instanceId);
  answer(h, ids, 200);
  return ids;
}

/** Answers the last probe of each of `ids` with `httpStatus`, in the order given. */
export function answer(h: Harness, ids: readonly string[], httpStatus: number): void {
  for (const id of ids) h.probeInstance(id, { httpStatus });
}

/** Advances one check interval (every running instance gets its next probe), then answers `ids` with `httpStatus`. */
export function nextRound(h: Harness, ids: readonly string[], httpStatus: number): void {
  h.advance(STORM_INTERVAL_MS);
  answer(h, ids, httpStatus);
}

/** Confirms every kill the core sent so far with TASK_KILLED (the killed instances go back to the launch queue). */
export function confirmKills(h: Harness): void {
  for (const k of h.calls('kill')) h.status(k.taskId, 'TASK_KILLED');
}
