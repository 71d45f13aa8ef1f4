import type { Group } from '../../scheduler/index';

/**
 * Which root versions a store holds, each as the very root object it wrote or loaded under that
 * version: what lets a deployment's record refer to its original and target root by version
 * (store format 8, stored-deployment.ts) instead of holding them. Each backend keeps one, told of
 * every root version it saves, deletes, sets aside and loads.
 *
 * A reference is written only for the identical object: a root of the same version that is
 * another object (the root a restart recovered, decoded apart from its root version; a root
 * recovery repaired under its old version) may differ from what the store holds, so it is held
 * whole, as before. The core keeps a root version a running deployment refers to until the
 * deployment ends (`VersionHistory.holdRoot`), so the reference outlives the record's use.
 */
export class StoredRootVersions {
  private readonly byVersion = new Map<string, Group>();

  /** `root` is stored under its version (replacing what was there). */
  saved(root: Group): void {
    this.byVersion.set(root.version, root);
  }

  /** The root version `version` is no longer stored (deleted or set aside). */
  deleted(version: string): void {
    this.byVersion.delete(version);
  }

  /** The root versions a load decoded: the objects the deployments it decoded refer to. */
  loaded(roots: readonly Group[]): void {
    for (const root of roots) this.saved(root);
  }

  /** Whether the store holds `root` itself as a root version (a record may then refer to it by its version). */
  holds(root: Group): boolean {
    return this.byVersion.get(root.version) === root;
  }
}
