/** The parts of an app's JSON that are only written when embedded (fact 36). */
export type AppEmbed = 'counts' | 'deployments' | 'tasks' | 'lastTaskFailure' | 'readiness' | 'taskStats';

const KNOWN: ReadonlySet<string> = new Set<AppEmbed>(['counts', 'deployments', 'tasks', 'lastTaskFailure', 'readiness', 'taskStats']);

/** Values that stand for several parts (fact 36): `tasks` brings the deployments along. */
const SHORTHANDS: Readonly<Record<string, readonly AppEmbed[]>> = {
  tasks: ['tasks', 'deployments'],
  failures: ['tasks', 'lastTaskFailure', 'deployments'],
};

/**
 * Resolves `embed` values into the app parts to write. The prefixes `apps.`, `app.` and
 * `group.apps.` (or none) are accepted (fact 36: `apps.tasks`, `app.tasks`, `group.apps.tasks`
 * and `tasks` mean the same); `tasks` also embeds deployments, `failures` means tasks,
 * lastTaskFailure and deployments; unknown values are ignored, as Marathon ignores them.
 */
export function resolveAppEmbed(embed: Iterable<string>): Set<AppEmbed> {
  const out = new Set<AppEmbed>();
  for (const raw of embed) {
    const name = raw.replace(/^(group\.)?apps?\./, '');
    const parts = Object.hasOwn(SHORTHANDS, name) ? SHORTHANDS[name] : KNOWN.has(name) ? [name as AppEmbed] : [];
    for (const part of parts) out.add(part);
  }
  return out;
}
