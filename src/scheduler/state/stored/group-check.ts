import { dependencyCycle } from '../../groups/dependencies';
import type { Group } from '../../groups/group';
import { isCanonical, parentOf } from '../../groups/path-id';
import { runSpecProblem, type RunSpecCheck } from './run-spec-check';
import { arrayOf, bool, isPlainObject, str } from './checks';

/** Deeper than any group tree ids allow (`MAX_ID_SEGMENTS`); a bound for the walk, not a rule. */
const MAX_WALK_DEPTH = 1_000;

/**
 * What is wrong with a root group (or a stored root version) read back from the store, or
 * undefined when the core can use it: every group has its fields, children are keyed by their
 * ids and sit below their parent, every app and pod in the tree passes {@link runSpecProblem}, and
 * its dependencies have no cycle (every root change is refused whole while its root has one:
 * "Dependency graph has cyclic dependencies.", for new unrelated apps too). The walk is iterative:
 * any tree, however deep, is judged without exhausting the stack. `check` judges each app and pod
 * (recovery passes one that remembers what it found sound: `rememberingRunSpecCheck`).
 */
export function rootProblem(value: unknown, at = '$', check: RunSpecCheck = runSpecProblem): string | undefined {
  const stack: { group: unknown; at: string; parent?: string; depth: number }[] = [{ group: value, at, depth: 0 }];
  while (stack.length > 0) {
    const next = stack.pop() as { group: unknown; at: string; parent?: string; depth: number };
    if (next.depth > MAX_WALK_DEPTH) return `${next.at}: nested deeper than ${MAX_WALK_DEPTH}`;
    const problem = groupFieldsProblem(next.group, next.at, next.parent, check);
    if (problem !== undefined) return problem;
    const group = next.group as Record<string, unknown>;
    for (const [id, child] of group.groups as Map<unknown, unknown>) {
      stack.push({ group: child, at: `${next.at}.groups<${String(id)}>`, parent: group.id as string, depth: next.depth + 1 });
    }
  }
  const cycle = dependencyCycle(value as Group);
  return cycle === undefined ? undefined : `${at}: dependency cycle ${cycle.join(' -> ')}`;
}

/** Judges a stored root or root version: {@link rootProblem}'s contract. */
export type RootCheck = (value: unknown, at?: string) => string | undefined;

/**
 * {@link rootProblem} remembering the root objects it found sound, as `rememberingRunSpecCheck`
 * does for run specs: since store format 8 a running deployment's original and target are the
 * very root version objects the store loaded (a deployment's record refers to them by version),
 * and judging each again for its deployments was a tenth of a start's CPU with 585 deployments
 * waiting among 1,085 apps (2026-11-30). The result is the same as {@link rootProblem}'s for every
 * input (nothing changes the objects while recovery judges them); only problems are computed
 * again, with their own path.
 */
export function rememberingRootCheck(check: RunSpecCheck): RootCheck {
  const sound = new WeakSet<object>();
  return (value, at = '$') => {
    if (typeof value === 'object' && value !== null && sound.has(value)) return undefined;
    const problem = rootProblem(value, at, check);
    if (problem === undefined && typeof value === 'object' && value !== null) sound.add(value);
    return problem;
  };
}

function groupFieldsProblem(group: unknown, at: string, parent: string | undefined, check: RunSpecCheck): string | undefined {
  if (!isPlainObject(group)) return `${at}: expected a group`;
  const id = group.id;
  if (typeof id !== 'string' || !isCanonical(id)) return `${at}.id: expected a canonical group id`;
  if (parent === undefined ? id !== '/' : parentOf(id) !== parent || id === '/') return `${at}.id: ${id} is not where it is stored`;
  const fieldProblem = str(group.version, `${at}.version`) ?? bool(group.enforceRole, `${at}.enforceRole`)
    ?? arrayOf(str)(group.dependencies, `${at}.dependencies`);
  if (fieldProblem !== undefined) return fieldProblem;
  for (const key of ['apps', 'pods', 'groups'] as const) {
    const map = group[key];
    if (!(map instanceof Map)) return `${at}.${key}: expected a Map`;
    for (const [childId, child] of map) {
      if (!isPlainObject(child) || child.id !== childId) return `${at}.${key}<${String(childId)}>: keyed by another id`;
      if (key === 'groups') continue;
      if (parentOf(String(childId)) !== id) return `${at}.${key}<${String(childId)}>: not a child of ${id}`;
      const problem = check(child, `${at}.${key}<${String(childId)}>`, key === 'apps' ? 'app' : 'pod');
      if (problem !== undefined) return problem;
    }
  }
  return undefined;
}
