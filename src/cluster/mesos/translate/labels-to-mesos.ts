import type { Labels } from '../codec/mesos-model';

/**
 * A string map as Mesos `Labels` (mesos-v1-scheduler-api.md §5.2), in the map's order.
 * Undefined for an empty map, so that the field is left out rather than sent empty.
 */
export function labelsToMesos(labels: Readonly<Record<string, string>>): Labels | undefined {
  const entries = Object.entries(labels);
  return entries.length === 0 ? undefined : { labels: entries.map(([key, value]) => ({ key, value })) };
}
