import { sameValue } from '../model/same-config';
import type { InstanceContext } from '../instances/instance-context';
import { isoTime } from '../kernel/iso-time';
import type { HealthCheckSpec } from '../model/health-check';
import type { RunSpec } from '../model/run-spec';

/**
 * `add_health_check_event` for every check of `next` that `previous` lacked, and
 * `remove_health_check_event` for every check that went away (compared structurally).
 * Pods' container checks are announced the same way.
 */
export function emitHealthCheckChanges(ctx: InstanceContext, previous: RunSpec | undefined, next: RunSpec | undefined): void {
  const before = checksOf(previous);
  const after = checksOf(next);
  const timestamp = isoTime(ctx.clock.nowMs());
  const appId = (next ?? previous)?.id ?? '';
  for (const check of before) {
    if (!after.some((c) => sameValue(c, check))) ctx.effects.event({ eventType: 'remove_health_check_event', timestamp, appId, healthCheck: check });
  }
  for (const check of after) {
    if (!before.some((c) => sameValue(c, check))) {
      ctx.effects.event({ eventType: 'add_health_check_event', timestamp, appId, version: next?.version ?? '', healthCheck: check });
    }
  }
}

/** The run spec's checks, each once (two equal checks are announced once, as before). */
function checksOf(spec: RunSpec | undefined): HealthCheckSpec[] {
  if (spec === undefined) return [];
  const checks = spec.kind === 'app' ? spec.healthChecks : spec.containers.flatMap((c) => (c.healthCheck === undefined ? [] : [c.healthCheck]));
  return checks.filter((c, i) => checks.findIndex((other) => sameValue(other, c)) === i);
}
