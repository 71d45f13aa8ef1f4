import { assert } from '../kernel/assert';

/**
 * Groups run spec ids into deployment layers by the length of their longest dependency path
 * (Marathon's `runSpecsGroupedByLongestPath`): a run spec with no dependencies has length 1, any
 * other has 1 + the longest length among its dependencies. Layers come out shortest first, so
 * every run spec follows everything it depends on.
 *
 * - `dependenciesOf(id)` gives the direct dependencies of a run spec (run spec ids). Paths are
 *   followed through ids that are not in `runSpecIds` too, so an unchanged run spec in the middle
 *   of a chain still separates the ones around it.
 * - Each layer is sorted by id; duplicates in `runSpecIds` are ignored; empty layers are never
 *   returned (the result has as many layers as distinct lengths).
 * - A cycle is a programmer error (validation rejects cyclic dependencies before planning): it
 *   fails an assertion. The walk is iterative, so long chains cannot overflow the call stack.
 */
export function dependencyLayers(
  runSpecIds: readonly string[],
  dependenciesOf: (runSpecId: string) => readonly string[],
): readonly (readonly string[])[] {
  const lengths = new Map<string, number>();
  const byLength = new Map<number, string[]>();
  for (const id of [...new Set(runSpecIds)].sort()) {
    const length = longestPathLength(id, dependenciesOf, lengths);
    const layer = byLength.get(length);
    if (layer === undefined) byLength.set(length, [id]);
    else layer.push(id);
  }
  return [...byLength.keys()].sort((a, b) => a - b).map((length) => byLength.get(length) ?? []);
}

interface Frame {
  readonly id: string;
  readonly dependencies: readonly string[];
  next: number;
  longest: number;
}

/** Longest dependency path from `start` (counted in run specs), memoized in `lengths`. */
function longestPathLength(
  start: string,
  dependenciesOf: (runSpecId: string) => readonly string[],
  lengths: Map<string, number>,
): number {
  const known = lengths.get(start);
  if (known !== undefined) return known;
  const onPath = new Set<string>([start]);
  const stack: Frame[] = [{ id: start, dependencies: dependenciesOf(start), next: 0, longest: 0 }];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1];
    if (frame.next < frame.dependencies.length) {
      const dependency = frame.dependencies[frame.next];
      frame.next += 1;
      const length = lengths.get(dependency);
      if (length !== undefined) {
        frame.longest = Math.max(frame.longest, length);
        continue;
      }
      if (onPath.has(dependency)) assert(false, `dependency cycle through ${dependency} (validation rejects cycles before planning)`);
      onPath.add(dependency);
      stack.push({ id: dependency, dependencies: dependenciesOf(dependency), next: 0, longest: 0 });
      continue;
    }
    stack.pop();
    onPath.delete(frame.id);
    const length = frame.longest + 1;
    lengths.set(frame.id, length);
    const parent = stack[stack.length - 1];
    if (parent !== undefined) parent.longest = Math.max(parent.longest, length);
  }
  return lengths.get(start) ?? 1;
}
