import type { RunSpec } from '../model/run-spec';
import type { Group } from './group';
import type { GroupResult } from './group-result';

/**
 * Root-group edits the deployment executor and the commands need (implemented by this folder,
 * wired in default-wiring.ts; replaceable in tests). Each returns a new root or why it refused.
 */
export interface GroupOps {
  withRunSpec(root: Group, spec: RunSpec, version: string): GroupResult;
  withoutRunSpec(root: Group, runSpecId: string, version: string): GroupResult;
  /** A dependency cycle of the tree (`['/a', '/b', '/a']`), or undefined. */
  dependencyCycle(root: Group): readonly string[] | undefined;
}
