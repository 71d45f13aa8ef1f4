import type { CoreContext } from '../core-context';
import { isoTime } from '../kernel/iso-time';
import type { RunSpec } from '../model/run-spec';

/**
 * `add_health_check_event` for every check of `next` that `previous` lacked, and
 * `remove_health_check_event` for every check that went away (compared by their wire form).
 * Pods' container checks are announced the same way.
 */
export function emitHealthCheckChanges(ctx: CoreContext, previous: RunSpec | undefined, next: RunSpec | undefined): void {
  const before = wires(previous);
  const after = wires(next);
  const timestamp = isoTime(ctx.clock.nowMs());
  const appId = (next ?? previous)?.id ?? '';
  for (const [key, wire] of before) {
    if (!after.has(key)) ctx.bus.emit({ eventType: 'remove_health_check_event', timestamp, appId, healthCheck: wire });
  }
  for (const [key, wire] of after) {
    if (!before.has(key)) {
      ctx.bus.emit({ eventType: 'add_health_check_event', timestamp, appId, version: next?.version ?? '', healthCheck: wire });
    }
  }
}

function wires(spec: RunSpec | undefined): Map<string, Readonly<Record<string, unknown>>> {
  const out = new Map<string, Readonly<Record<string, unknown>>>();
  if (spec === undefined) return out;
  const checks = spec.kind === 'app' ? spec.healthChecks : spec.containers.flatMap((c) => (c.healthCheck === undefined ? [] : [c.healthCheck]));
  for (const c of checks) out.set(JSON.stringify(c.wire), c.wire);
  return out;
}
