import { parse as parseYaml } from 'yaml';
import { segments, joinSegments, validatePathId } from '../../scheduler/index';
import { actionsNamed, type AuthorizedAction } from './authorized-action';
import { Policy, type Grant } from './policy';

/**
 * Reads an authorization policy (`--authorization_file`), YAML or JSON (JSON is YAML):
 *
 * ```yaml
 * principals:
 *   team-a:                        # a basic-auth user or a token's principal; "*": everyone
 *     - path: /team-a              # this group and everything below it
 *       actions: [view, create, update, delete]
 *   monitor:
 *     - { path: /, actions: [view] }
 * ```
 *
 * Actions are Marathon's names (`ViewRunSpec`, `UpdateGroup`, …, see `authorized-action.ts`) or
 * the aliases `view`, `create`, `update`, `delete`, `all`. Errors name the principal and entry.
 */
export function parsePolicyFile(text: string): Policy | { error: string } {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (err) {
    return { error: `not YAML or JSON (${(err as Error).message.split('\n')[0]})` };
  }
  if (!isRecord(doc) || !isRecord(doc.principals)) return { error: 'expected an object with "principals": {principal: [{path, actions}, …]}' };
  const extra = Object.keys(doc).filter((k) => k !== 'principals');
  if (extra.length > 0) return { error: `unknown top-level key ${JSON.stringify(extra[0])} (only "principals")` };
  const grants = new Map<string, Grant[]>();
  for (const [principal, entries] of Object.entries(doc.principals)) {
    if (!Array.isArray(entries)) return { error: `principal ${JSON.stringify(principal)}: expected a list of {path, actions}` };
    const list: Grant[] = [];
    for (const [i, entry] of entries.entries()) {
      const grant = grantOf(entry);
      if ('error' in grant) return { error: `principal ${JSON.stringify(principal)}, entry ${i + 1}: ${grant.error}` };
      list.push(grant);
    }
    grants.set(principal, list);
  }
  return new Policy(grants);
}

function grantOf(entry: unknown): Grant | { error: string } {
  if (!isRecord(entry)) return { error: 'expected {path, actions}' };
  const unknown = Object.keys(entry).filter((k) => k !== 'path' && k !== 'actions');
  if (unknown.length > 0) return { error: `unknown key ${JSON.stringify(unknown[0])} (only path and actions)` };
  const { path, actions } = entry;
  if (typeof path !== 'string' || !path.startsWith('/')) return { error: 'path must be an absolute group path such as /team-a' };
  const problems = validatePathId(path, { allowRoot: true });
  if (problems.length > 0) return { error: `path ${JSON.stringify(path)}: ${problems[0]}` };
  if (!Array.isArray(actions) || actions.length === 0) return { error: 'actions must be a non-empty list' };
  const set = new Set<AuthorizedAction>();
  for (const name of actions) {
    const named = typeof name === 'string' ? actionsNamed(name) : undefined;
    if (named === undefined) return { error: `unknown action ${JSON.stringify(name)} (view, create, update, delete, all, or Marathon's ViewRunSpec, CreateRunSpec, UpdateRunSpec, DeleteRunSpec, ViewGroup, CreateGroup, UpdateGroup, DeleteGroup, ViewResource, UpdateResource)` };
    for (const action of named) set.add(action);
  }
  return { path: joinSegments(segments(path)), actions: set };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
