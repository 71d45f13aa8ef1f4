import type { Planner } from './deployments/deployment-manager';
import type { Group } from './groups/group';
import type { GroupOps } from './groups/group-ops';

/** How the core builds and plans root groups (the groups module; replaceable in tests). */
export interface CoreWiring {
  readonly emptyRoot: (version: string) => Group;
  readonly planner: Planner;
  readonly groups: GroupOps;
}
