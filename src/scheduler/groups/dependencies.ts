import type { RunSpec } from '../model/run-spec';
import type { Group } from './group';
import { comparePathIds, parentOf, resolvePathId } from './path-id';
import { editedFrom } from './map-edits';
import { allGroups, findGroup, findRunSpec } from './tree-query';

/** Marathon's message for a root whose dependency graph has a cycle (fact 74, `state/RootGroup.scala`). */
export const CYCLIC_DEPENDENCIES_MESSAGE = 'Dependency graph has cyclic dependencies.';

/**
 * The run specs `runSpecId` depends on in `root`, sorted by path id:
 *
 * - its own dependencies: an app's `dependencies` (relative ids resolved against the app's group,
 *   as Marathon normalizes them, fact 66); pods declare none
 *   (spec section 1, rule 8);
 * - the dependencies of every group above it, up to the root (relative ids resolved against that
 *   group): inherited by everything below, pods included (rule 9);
 * - a dependency naming a group stands for every app and pod in that group's subtree; one naming
 *   nothing that exists is ignored, as Marathon ignores it.
 *
 * A group that depends on a group holding the run spec itself makes the run spec depend on itself;
 * that is kept, so {@link dependencyCycle} reports it (Marathon rejects such a root too).
 * Unknown `runSpecId` → `[]`. Results are computed once per root (roots are immutable).
 */
export function effectiveDependencies(root: Group, runSpecId: string): string[] {
  return [...(dependencyGraph(root).get(runSpecId) ?? [])];
}

/** {@link effectiveDependencies} of the run specs of `root` that have any, keyed by path id (no entry: none). Cached per root. */
export function dependencyGraph(root: Group): ReadonlyMap<string, readonly string[]> {
  let graph = cache.get(root);
  if (graph === undefined) {
    graph = buildGraph(root);
    cache.set(root, graph);
  }
  return graph;
}

/**
 * A dependency cycle of `root` as a path of run spec ids that starts and ends with the same id
 * (`['/a', '/b', '/a']`; a run spec depending on itself gives `['/a', '/a']`), or undefined when
 * the graph is acyclic. Deterministic: run specs and their dependencies are visited in path id
 * order, so the same root always reports the same cycle.
 */
export function dependencyCycle(root: Group): string[] | undefined {
  const graph = dependencyGraph(root);
  // Only run specs with dependencies have entries: one without is on no cycle, and a walk that
  // starts from it visits nothing else. The others are walked in path id order.
  const starts = [...graph.keys()].sort(comparePathIds);
  const state = new Map<string, 'open' | 'done'>();
  for (const start of starts) {
    if (state.has(start)) continue;
    const path: string[] = [start];
    const next: number[] = [0];
    state.set(start, 'open');
    while (path.length > 0) {
      const top = path.length - 1;
      const deps = graph.get(path[top]) ?? [];
      if (next[top] >= deps.length) {
        state.set(path[top], 'done');
        path.pop();
        next.pop();
        continue;
      }
      const dep = deps[next[top]++];
      const seen = state.get(dep);
      if (seen === 'open') return [...path.slice(path.indexOf(dep)), dep];
      if (seen === undefined) {
        state.set(dep, 'open');
        path.push(dep);
        next.push(0);
      }
    }
  }
  return undefined;
}

const cache = new WeakMap<Group, ReadonlyMap<string, readonly string[]>>();

/**
 * One walk down the tree: each group hands its children the dependencies it inherited plus its
 * own (resolved against it), so a run spec's list is its declared ones plus what its groups pass
 * down. Only run specs that have dependencies get an entry (a lookup of any other id finds none,
 * which is its empty list): most trees have few or none, and then the walk allocates nothing per
 * run spec. Keys are in walk order (the cycle check sorts what it walks).
 */
function buildGraph(root: Group): ReadonlyMap<string, readonly string[]> {
  const graph = new Map<string, readonly string[]>();
  const expanded = new Map<string, readonly string[]>();
  const expand = (id: string): readonly string[] => {
    let ids = expanded.get(id);
    if (ids === undefined) {
      const group = findGroup(root, id);
      ids = findRunSpec(root, id) !== undefined ? [id] : group === undefined ? [] : runSpecIdsUnder(group);
      expanded.set(id, ids);
    }
    return ids;
  };
  const add = (spec: RunSpec, inherited: readonly string[]): void => {
    const declared = declaredDependencies(spec);
    if (declared.length === 0 && inherited.length === 0) return;
    const all = new Set<string>();
    for (const d of [...declared.map((x) => resolvePathId(x, parentOf(spec.id))), ...inherited]) for (const target of expand(d)) all.add(target);
    graph.set(spec.id, [...all].sort(comparePathIds));
  };
  const pending: { group: Group; inherited: readonly string[] }[] = [{ group: root, inherited: [] }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { group } = next;
    if (next.inherited.length === 0 && !declaresDependencies(group)) continue;
    const inherited = group.dependencies.length === 0 ? next.inherited : [...next.inherited, ...group.dependencies.map((d) => resolvePathId(d, group.id))];
    for (const a of group.apps.values()) add(a, inherited);
    for (const p of group.pods.values()) add(p, inherited);
    for (const child of group.groups.values()) pending.push({ group: child, inherited });
  }
  return graph;
}

/**
 * True when the group, a group below it or one of their apps declares a dependency. What its apps
 * declare is cached per map of apps: maps are immutable, and a root change copies only the maps
 * it changed (stamping versions copies every group, not their maps), so one change reads only the
 * apps of the groups it touched.
 */
function declaresDependencies(group: Group): boolean {
  if (group.dependencies.length > 0) return true;
  return appsDeclare(group.apps) || [...group.groups.values()].some(declaresDependencies);
}

/**
 * Whether an app of `apps` declares a dependency, once per map. A map made by one edit of a map
 * where none does (map-edits.ts) is answered by the edited app alone: creating an app in a group
 * of 10,000 reads one app, not 10,000.
 */
function appsDeclare(apps: ReadonlyMap<string, RunSpec>): boolean {
  let declares = appsDeclaring.get(apps);
  if (declares !== undefined) return declares;
  const from = editedFrom(apps);
  if (from !== undefined && appsDeclaring.get(from.parent) === false) {
    declares = declaredDependencies(apps.get(from.key)).length > 0;
  } else {
    declares = false;
    for (const a of apps.values()) {
      if (declaredDependencies(a).length > 0) {
        declares = true;
        break;
      }
    }
  }
  appsDeclaring.set(apps, declares);
  return declares;
}

const appsDeclaring = new WeakMap<ReadonlyMap<string, RunSpec>, boolean>();

/** An app's own `dependencies`; pods have none (rule 8). */
function declaredDependencies(spec: RunSpec | undefined): readonly string[] {
  return spec?.kind === 'app' ? spec.dependencies : [];
}

function runSpecIdsUnder(group: Group): readonly string[] {
  const out: string[] = [];
  for (const g of allGroups(group)) {
    for (const id of g.apps.keys()) out.push(id);
    for (const id of g.pods.keys()) out.push(id);
  }
  return out;
}
