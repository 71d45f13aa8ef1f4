import type { MarathonEvent } from '../api/wire';

/** Fields that name what an event is about, in the order the tail shows them. */
const SUBJECT_FIELDS = ['appId', 'runSpecId', 'podId', 'groupId', 'instanceId', 'taskId', 'host'] as const;
/** Fields that say what happened. */
const WHAT_FIELDS = ['taskStatus', 'condition', 'alive', 'healthy', 'reason', 'message', 'uri', 'clientIp', 'remoteAddress'] as const;

/**
 * A one-line summary of an event for the live tail: what it is about (app, pod, group or
 * deployment id, instance or task) and what happened (task status, condition, health, reason),
 * as `key=value` pairs; the whole JSON is one click away in the UI.
 */
export function eventSummary(e: MarathonEvent): string {
  const parts: string[] = [];
  for (const key of [...SUBJECT_FIELDS, ...WHAT_FIELDS]) {
    const v = e[key];
    if (v !== '' && (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')) parts.push(`${key}=${String(v)}`);
  }
  const def = e.appDefinition as { id?: unknown } | undefined;
  if (typeof def?.id === 'string') parts.unshift(`app=${def.id}`);
  const plan = e.plan as { id?: unknown } | undefined;
  if (parts.length === 0 && typeof plan?.id === 'string') parts.push(`deployment=${plan.id}`);
  return parts.join(' ');
}

/** Whether `e` passes the tail's filters: its type among `types` (all when empty) and `text` in its JSON. */
export function eventMatches(e: MarathonEvent, types: ReadonlySet<string>, text: string): boolean {
  if (types.size > 0 && !types.has(e.eventType)) return false;
  return text === '' || JSON.stringify(e).toLowerCase().includes(text.toLowerCase());
}
