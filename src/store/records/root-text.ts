import type { Deployment } from '../../scheduler/model/deployment';
import type { Group } from '../../scheduler/index';
import { rootToStored } from './spec-records';
import { planToStored, rootVersionReference } from './stored-deployment';
import type { StoredRootVersions } from './stored-root-versions';

/** How many roots' texts are kept: a change's new root and the one before it, with room for a deployment's step. */
const KEPT_ROOTS = 4;

/**
 * The stored texts of the last few roots encoded, by identity. A root is immutable (every change
 * builds a new one: scheduler/groups/group.ts), so its text never changes. One change writes the
 * same new root up to three times (the root, its root version, its deployment's target) and the
 * root before it once more (the deployment's original, the previous change's root): with 1,285
 * apps and 585 deployments waiting, encoding them again was half of an app creation's store time
 * (CPU profile, 2026-11-30). Bounded at {@link KEPT_ROOTS} entries, so it holds a few roots' texts
 * at most (~90 KB each at that size), never every root a deployment refers to.
 */
const recent: { root: Group; text: string }[] = [];

/** The stored record text of a root or root version (`JSON.stringify(rootToStored(root))`), encoded once for the last few roots. */
export function rootText(root: Group): string {
  const at = recent.findIndex((entry) => entry.root === root);
  if (at >= 0) return recent[at].text;
  const text = JSON.stringify(rootToStored(root));
  recent.push({ root, text });
  if (recent.length > KEPT_ROOTS) recent.shift();
  return text;
}

/**
 * The stored record text of a deployment: byte for byte `JSON.stringify(deploymentToStored(d, rootVersions))`
 * (the same keys in the same order; record-codec.test.ts checks it), each root a reference to its
 * root version where `rootVersions` holds that very root, else its text from {@link rootText}.
 */
export function deploymentText(d: Deployment, rootVersions?: StoredRootVersions): string {
  return `{"plan":${JSON.stringify(planToStored(d.plan))},"original":${deploymentRootText(d.original, rootVersions)}`
    + `,"target":${deploymentRootText(d.target, rootVersions)}`
    + `,"stepIndex":${JSON.stringify(d.stepIndex)},"startedAtMs":${JSON.stringify(d.startedAtMs)}}`;
}

function deploymentRootText(root: Group, rootVersions: StoredRootVersions | undefined): string {
  return rootVersions?.holds(root) === true ? JSON.stringify(rootVersionReference(root.version)) : rootText(root);
}
