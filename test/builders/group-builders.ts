import type { Group } from '../../src/scheduler/groups/group';
import { withRunSpec } from '../../src/scheduler/groups/with-run-spec';
import type { RunSpec } from '../../src/scheduler/model/run-spec';

/** `base` with `specs` put in at `version`, built with the groups module as the API would (throws if refused). */
export function rootWith(base: Group, version: string, ...specs: RunSpec[]): Group {
  let root = base;
  for (const spec of specs) {
    const r = withRunSpec(root, spec, { version, newGroupEnforceRole: 'off' });
    if (!r.ok) throw new Error(r.message);
    root = r.root;
  }
  return root;
}
