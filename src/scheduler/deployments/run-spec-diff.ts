import type { Group } from '../groups/group';
import { editedKeys } from '../groups/map-edits';
import type { RunSpec } from '../model/run-spec';

/** A run spec of the target root that is not the original's object, with what the original had under its id. */
export interface ChangedRunSpec {
  readonly before: RunSpec | undefined;
  readonly after: RunSpec;
}

/** What differs between two roots, each list sorted by id (code units). */
export interface RunSpecDiff {
  /** Run specs of `original` whose id is not in `target`. */
  readonly removed: readonly RunSpec[];
  /** Run specs of `target` that are new or another object than the original's under the same id. */
  readonly changed: readonly ChangedRunSpec[];
}

/**
 * The run specs a change of the root touched. Roots are immutable and a change copies only the
 * groups on the path to what it changed, sharing every other subtree, children map and run spec
 * object (stamping a new version on every group copies the group, not its maps): so a group, a
 * map of apps or pods, or a run spec that is the same object in both roots is unchanged and is
 * not read; a map made from the other by a few edits is read at the edited keys only
 * (groups/map-edits.ts). Planning a change of one run spec so costs the depth of the tree, not the
 * size of its group or of the whole tree. Ids are unique across
 * the tree (groups, apps and pods share one namespace), and a run spec's parent is given by its
 * id, so the same-id group of the other root holds its other version. The walk is iterative.
 */
export function runSpecDiff(original: Group, target: Group): RunSpecDiff {
  const removed: RunSpec[] = [];
  const changed: ChangedRunSpec[] = [];
  const pending: [Group | undefined, Group | undefined][] = [[original, target]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [before, after] = next;
    if (before === after) continue;
    if (before?.apps !== after?.apps || before?.pods !== after?.pods) {
      const ids = before !== undefined && after !== undefined ? editedIds(before, after) : undefined;
      if (before !== undefined && after !== undefined && ids !== undefined) diffIds(before, after, ids, removed, changed);
      else diffWhole(before, after, removed, changed);
    }
    for (const child of before?.groups.values() ?? []) if (after?.groups.has(child.id) !== true) pending.push([child, undefined]);
    for (const child of after?.groups.values() ?? []) pending.push([before?.groups.get(child.id), child]);
  }
  removed.sort((a, b) => byId(a.id, b.id));
  changed.sort((a, b) => byId(a.after.id, b.after.id));
  return { removed, changed };
}

/** The run specs under `ids` that differ between two versions of a group. */
function diffIds(before: Group, after: Group, ids: ReadonlySet<string>, removed: RunSpec[], changed: ChangedRunSpec[]): void {
  for (const id of ids) {
    const was = runSpecIn(before, id);
    const now = runSpecIn(after, id);
    if (was === now) continue;
    if (now !== undefined) changed.push({ before: was, after: now });
    else if (was !== undefined) removed.push(was);
  }
}

/** Every run spec that differs between two versions of a group (either may be missing), read entry by entry. */
function diffWhole(before: Group | undefined, after: Group | undefined, removed: RunSpec[], changed: ChangedRunSpec[]): void {
  if (before !== undefined) {
    before.apps.forEach((spec) => { if (after === undefined || runSpecIn(after, spec.id) === undefined) removed.push(spec); });
    before.pods.forEach((spec) => { if (after === undefined || runSpecIn(after, spec.id) === undefined) removed.push(spec); });
  }
  if (after !== undefined) {
    const note = (spec: RunSpec): void => {
      const was = before === undefined ? undefined : runSpecIn(before, spec.id);
      if (was !== spec) changed.push({ before: was, after: spec });
    };
    after.apps.forEach(note);
    after.pods.forEach(note);
  }
}

/**
 * The ids whose app or pod may differ between two versions of a group, when both of its maps are
 * known edits of the earlier ones (map-edits.ts): the common change of one run spec in a big
 * group reads that one id, not the whole group. Undefined when not known.
 */
function editedIds(before: Group, after: Group): ReadonlySet<string> | undefined {
  const apps = editedKeys(before.apps, after.apps);
  const pods = apps === undefined ? undefined : editedKeys(before.pods, after.pods);
  return apps === undefined || pods === undefined ? undefined : new Set([...apps, ...pods]);
}

function runSpecIn(group: Group, id: string): RunSpec | undefined {
  return group.apps.get(id) ?? group.pods.get(id);
}

function byId(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
