import type { Group } from '../groups/group';
import type { RunSpec } from '../model/run-spec';

/** The app or pod with this id in the tree, walking down the groups on its path. */
export function findSpec(root: Group, runSpecId: string): RunSpec | undefined {
  for (let g: Group | undefined = root; g !== undefined;) {
    const spec = g.apps.get(runSpecId) ?? g.pods.get(runSpecId);
    if (spec !== undefined) return spec;
    const here: Group = g;
    g = undefined;
    for (const child of here.groups.values()) {
      if (runSpecId.startsWith(`${child.id}/`)) {
        g = child;
        break;
      }
    }
  }
  return undefined;
}
