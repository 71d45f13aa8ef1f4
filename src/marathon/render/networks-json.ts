import type { Network } from '../../scheduler/model/networks';
import { isEmptyMap } from './json-helpers';

/** One of an app's `networks` (Marathon's `Network`: `name` when set, `labels` left out when empty). */
export function appNetworkJson(n: Network): Record<string, unknown> {
  const json: Record<string, unknown> = { mode: n.mode };
  if (n.name !== undefined) json.name = n.name;
  if (!isEmptyMap(n.labels)) json.labels = { ...n.labels };
  return json;
}

/** One of a pod's `networks` (the pod rule of spec 2.1: unset `name` as `null`, `labels` always). */
export function podNetworkJson(n: Network): Record<string, unknown> {
  return { mode: n.mode, name: n.name ?? null, labels: { ...n.labels } };
}
