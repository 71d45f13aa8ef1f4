/**
 * The root group tree's public face: an empty root, queries and changes. Every change is a pure
 * function from one immutable root to the next (or to a refusal value); the new root and every
 * group in it carry the change's version, as Marathon's `RootGroup` does.
 */
export { emptyRoot } from './group-tree';
export { allGroups, allRunSpecs, containsRunSpecs, findGroup, findRunSpec } from './tree-query';
export { namespaceConflict, treeConflict } from './namespace-conflict';
export { withRunSpec } from './with-run-spec';
export { withoutRunSpec } from './without-run-spec';
export { putGroup } from './put-group';
export { removeGroup } from './remove-group';
export { setEnforceRole } from './set-enforce-role';
export { updateGroup } from './update-group';
