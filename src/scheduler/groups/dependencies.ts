import type { RunSpec } from '../model/run-spec';
import type { Group } from './group';
import { ancestorsOf, comparePathIds, parentOf, resolvePathId } from './path-id';
import { allGroups } from './tree-query';

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

/** {@link effectiveDependencies} of every run spec of `root`, keyed (and ordered) by path id. Cached per root. */
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
  const state = new Map<string, 'open' | 'done'>();
  for (const start of graph.keys()) {
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

function buildGraph(root: Group): ReadonlyMap<string, readonly string[]> {
  const groups = allGroups(root);
  const groupsById = new Map(groups.map((g) => [g.id, g] as const));
  const specs = new Map<string, RunSpec>();
  for (const g of groups) {
    for (const a of g.apps.values()) specs.set(a.id, a);
    for (const p of g.pods.values()) specs.set(p.id, p);
  }
  const expanded = new Map<string, readonly string[]>();
  const expand = (id: string): readonly string[] => {
    let ids = expanded.get(id);
    if (ids === undefined) {
      const group = groupsById.get(id);
      ids = specs.has(id) ? [id] : group === undefined ? [] : runSpecIdsUnder(group);
      expanded.set(id, ids);
    }
    return ids;
  };
  const graph = new Map<string, readonly string[]>();
  for (const id of [...specs.keys()].sort(comparePathIds)) {
    const spec = specs.get(id) as RunSpec;
    const declared = declaredDependencies(spec).map((d) => resolvePathId(d, parentOf(id)));
    for (const ancestorId of ancestorsOf(id)) {
      const ancestor = groupsById.get(ancestorId) as Group;
      for (const d of ancestor.dependencies) declared.push(resolvePathId(d, ancestorId));
    }
    const all = new Set<string>();
    for (const d of declared) for (const target of expand(d)) all.add(target);
    graph.set(id, [...all].sort(comparePathIds));
  }
  return graph;
}

/** An app's own `dependencies`; pods have none (rule 8). */
function declaredDependencies(spec: RunSpec): string[] {
  return spec.kind === 'app' ? [...spec.dependencies] : [];
}

function runSpecIdsUnder(group: Group): readonly string[] {
  const out: string[] = [];
  for (const g of allGroups(group)) {
    for (const id of g.apps.keys()) out.push(id);
    for (const id of g.pods.keys()) out.push(id);
  }
  return out;
}
