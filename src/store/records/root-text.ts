import type { Group } from '../../scheduler/index';
import { rootToStored } from './spec-records';

/** How many roots' texts are kept: a change's new root and the few before it. */
const KEPT_ROOTS = 4;

/**
 * The stored texts of the last few roots encoded, by identity. A root is immutable (every change
 * builds a new one: scheduler/groups/group.ts), so its text never changes. One change writes its
 * new root twice, as the root and as its root version (a deployment refers to it by version since
 * store format 8; it held it whole before, and encoding it again for it was half of an app
 * creation's store time with 1,285 apps and 585 deployments waiting, 2026-11-30). Bounded at
 * {@link KEPT_ROOTS} entries, so it holds a few roots' texts at most (~90 KB each at that size).
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
