import { assert } from '../kernel/assert';
import type { RunSpec } from '../model/run-spec';
import type { Group } from './group';
import { editedKeys } from './map-edits';
import { findRunSpec } from './tree-query';

/** `--zk_max_versions`: versions kept per run spec and of the root (Marathon default 50). */
export const DEFAULT_MAX_VERSIONS = 50;

/** One stored version of a run spec. */
export interface RunSpecVersion {
  readonly version: string;
  readonly spec: RunSpec;
}

/**
 * The stored versions of every run spec id and of the root group (`GET /v2/apps/{id}/versions`,
 * `/v2/pods/{id}::versions`, `/v2/groups/{id}/versions`), at most `maxVersions` each; the oldest
 * recorded version goes first.
 *
 * History belongs to the id, not to one life of the run spec: deleting a run spec keeps its
 * versions, and a run spec created again under the same id continues the same history, even with
 * another definition. For a pod that is for good (spec section 1, rule 12: history is tied
 * permanently to the pod id; the spec wins over Marathon, whose GcActor deletes pods too). An
 * app's versions go once no kept root version holds the app any more: it was deleted and the
 * roots that held it fell out of the bounded root history. Marathon keeps a deleted app's
 * versions (`deleteCurrent`) and its GcActor deletes them once no root in use refers to the app
 * (the current root and those of running deployments); pacer counts every kept root version as
 * in use, which keeps them at least as long. Without it every distinct app id ever created kept
 * its versions in memory and in the store (the soak trial of 2026-11-30). Recording a version
 * that is already stored replaces it and makes it the newest. The roots of running deployments
 * are in use too ({@link VersionHistory.holdRoot}): the versions they hold stay, beyond the cap
 * if need be, until the deployment ends (its stored record refers to them: store format 6), and
 * so do those roots' own root versions (the record refers to them by version: store format 8), as
 * Marathon's GC keeps the root versions its deployment plans name. So the kept root versions are at
 * most `maxVersions` plus two per running deployment.
 *
 * Mutable, owned by the core's state; deterministic (insertion order only, no clock).
 */
export class VersionHistory {
  private readonly specs = new Map<string, Map<string, RunSpec>>();
  private readonly roots = new Map<string, Group>();
  /**
   * The kept root versions in the order they were recorded, but for those a hold kept beyond the
   * cap ({@link heldAside}): what eviction scans, oldest first. The roots are always the held
   * aside ones (the oldest) followed by these, so eviction reads no held version twice: with
   * thousands of running deployments every change had scanned all their roots.
   */
  private readonly rootQueue = new Set<string>();
  /** Kept root versions that eviction met held (beyond the cap): they go when their hold ends. */
  private readonly heldAside = new Set<string>();
  /** Each kept root version's place in the order roots were recorded. */
  private readonly rootSeq = new Map<string, number>();
  private nextSeq = 0;
  /** The root recorded last (the root in force). */
  private newest: Group | undefined;
  /**
   * Apps that the root recorded at `seq` no longer held though the one before did, in `seq` order:
   * once no kept root is older than `seq`, none holds the app unless it came back (then it is
   * in {@link newest}, or left again: {@link leftAt} names the later leave).
   */
  private readonly leaving: { readonly id: string; readonly seq: number }[] = [];
  private leavingHead = 0;
  /** The latest leave of each app in {@link leaving}. */
  private readonly leftAt = new Map<string, number>();
  /**
   * The roots running deployments go between (their original and target), each with how many
   * holds it has: every app and pod version one of them holds is kept, whatever the cap and
   * however long ago the app left the root, since a deployment's stored record refers to them
   * (store format 6). Marathon's GcActor likewise keeps what the roots of running deployments use.
   */
  private readonly heldRoots = new Map<Group, number>();
  /**
   * The versions of {@link heldRoots}' roots, each with how many held roots have it (two root
   * objects may share a version: a restart's recovered root and the stored one): kept as holds
   * begin and end, so that recording a root does not gather them again (one set per change made
   * every change cost the running deployments: 2 ms with 5,000 running).
   */
  private readonly heldVersions = new Map<string, number>();
  /** Run spec ids left above the cap because a held root holds an old version of theirs. */
  private readonly overCap = new Set<string>();
  /** Apps whose versions {@link dropLeft} would have dropped but a held root holds. */
  private readonly leftButHeld = new Set<string>();
  /** Told about every version stored and evicted (the durable store); unset while recovering. */
  listener?: HistoryListener;

  constructor(readonly maxVersions: number = DEFAULT_MAX_VERSIONS) {
    if (!(Number.isInteger(maxVersions) && maxVersions >= 1)) assert(false, `maxVersions must be a positive integer (got ${maxVersions})`);
  }

  /** Stores `spec` under its id and `version`. */
  record(spec: RunSpec): void {
    let versions = this.specs.get(spec.id);
    if (versions === undefined) {
      versions = new Map();
      this.specs.set(spec.id, versions);
    }
    versions.delete(spec.version);
    versions.set(spec.version, spec);
    const evicted = this.trim(spec.id, versions);
    if (this.listener === undefined) return;
    this.listener.savedRunSpecVersion(spec);
    for (const version of evicted) this.listener.evictedRunSpecVersion(spec.id, version);
  }

  /**
   * Keeps every version of every app and pod `root` holds, and the root version of `root`'s
   * version, until as many {@link releaseRoot} calls (the deployment manager holds a running
   * deployment's original and target). What the hold kept beyond the cap, or after its app left
   * every kept root, goes when the last hold ends.
   */
  holdRoot(root: Group): void {
    const holds = this.heldRoots.get(root) ?? 0;
    this.heldRoots.set(root, holds + 1);
    if (holds === 0) this.heldVersions.set(root.version, (this.heldVersions.get(root.version) ?? 0) + 1);
  }

  /** Ends one {@link holdRoot} of `root`; the versions no other hold keeps then go (the listener is told). */
  releaseRoot(root: Group): void {
    const holds = this.heldRoots.get(root);
    if (holds === undefined) return;
    if (holds > 1) {
      this.heldRoots.set(root, holds - 1);
      return;
    }
    this.heldRoots.delete(root);
    const sharing = this.heldVersions.get(root.version) ?? 0;
    if (sharing > 1) this.heldVersions.set(root.version, sharing - 1);
    else this.heldVersions.delete(root.version);
    this.trimRoots(root.version);
    for (const id of [...this.overCap]) {
      const versions = this.specs.get(id);
      if (versions === undefined) {
        this.overCap.delete(id);
        continue;
      }
      const evicted = this.trim(id, versions);
      if (this.listener !== undefined) for (const version of evicted) this.listener.evictedRunSpecVersion(id, version);
    }
    for (const id of [...this.leftButHeld]) {
      if (this.heldByDeployment(id)) continue;
      this.leftButHeld.delete(id);
      if (!this.held(id, this.newest)) this.dropApp(id);
    }
  }

  /**
   * Evicts the versions of `id` older than its `maxVersions` newest, except the ones a held root
   * holds: those are kept on top of the cap (then `id` is remembered in {@link overCap} until a
   * release trims it again), so a hold never costs a kept root version its app's version.
   * Returns the evicted, oldest first; the newest (the one just recorded) never goes.
   */
  private trim(id: string, versions: Map<string, RunSpec>): string[] {
    const evicted: string[] = [];
    const over = versions.size - this.maxVersions;
    let kept = false;
    if (over > 0) {
      for (const version of [...versions.keys()].slice(0, over)) {
        if (this.heldRoots.size > 0 && this.heldVersion(id, version)) {
          kept = true;
          continue;
        }
        versions.delete(version);
        evicted.push(version);
      }
    }
    if (kept) this.overCap.add(id);
    else this.overCap.delete(id);
    return evicted;
  }

  /**
   * After the last hold of a root of version `released` ended: evicts the root versions a hold
   * kept beyond the cap and no hold keeps now (`released` itself if it was held aside, and any
   * the cap would have evicted while it waited in {@link rootQueue}), oldest first, telling the
   * listener, and drops the apps only they still held.
   */
  private trimRoots(released: string): void {
    const evicted: string[] = [];
    // Held aside, it is beyond the cap: it goes now, unless another root of its version is held.
    if (!this.heldVersions.has(released) && this.heldAside.delete(released)) {
      this.roots.delete(released);
      evicted.push(released);
    }
    evicted.push(...this.evictBeyond());
    if (evicted.length === 0) return;
    for (const version of evicted) this.rootSeq.delete(version);
    if (this.listener !== undefined) for (const version of evicted) this.listener.evictedRootVersion(version);
    this.dropLeft();
  }

  /**
   * Evicts every root version older than the {@link maxVersions} newest (held aside ones
   * counted) that no hold keeps, and sets aside the held ones it meets; returns the evicted,
   * oldest first. The newest `maxVersions` (the just recorded among them: `maxVersions` ≥ 1)
   * always stay.
   */
  private evictBeyond(): string[] {
    const evicted: string[] = [];
    let older = this.rootQueue.size - this.maxVersions;
    for (const version of this.rootQueue) {
      if (older-- <= 0) break;
      this.rootQueue.delete(version);
      if (this.heldVersions.has(version)) {
        this.heldAside.add(version);
        continue;
      }
      this.roots.delete(version);
      evicted.push(version);
    }
    return evicted;
  }

  /** Whether a held root holds run spec `id` at `version`. */
  private heldVersion(id: string, version: string): boolean {
    for (const root of this.heldRoots.keys()) if (findRunSpec(root, id)?.version === version) return true;
    return false;
  }

  /** Whether a held root holds run spec `id` (any version). */
  private heldByDeployment(id: string): boolean {
    for (const root of this.heldRoots.keys()) if (findRunSpec(root, id) !== undefined) return true;
    return false;
  }

  /** Stores every run spec of `root` and the root itself (what one deployment writes). */
  recordAll(root: Group, runSpecs: Iterable<RunSpec>): void {
    for (const spec of runSpecs) this.record(spec);
    this.recordRoot(root);
  }

  /** The stored versions of `id`, newest first; empty when none. */
  list(id: string): string[] {
    return [...(this.specs.get(id)?.keys() ?? [])].reverse();
  }

  /** All stored versions of `id` with their definitions, newest first. */
  entries(id: string): RunSpecVersion[] {
    return [...(this.specs.get(id)?.entries() ?? [])].reverse().map(([version, spec]) => ({ version, spec }));
  }

  /** The run spec `id` as it was at `version`, or undefined. */
  get(id: string, version: string): RunSpec | undefined {
    return this.specs.get(id)?.get(version);
  }

  /** True when some version of `id` is stored (also after the run spec was deleted). */
  has(id: string): boolean {
    return (this.specs.get(id)?.size ?? 0) > 0;
  }

  /**
   * Stores `root` under its version; an app that no kept root holds any more once older roots fall
   * out loses its versions (told to the listener after the root's own changes). What left is read
   * from the previous root by the keys its maps were edited at (map-edits.ts), so a change costs
   * the groups walked, not every app (a whole walk cost 8 ms a change with 10,000 apps).
   */
  recordRoot(root: Group): void {
    const seq = this.nextSeq++;
    if (this.newest !== undefined) {
      // Every version a kept root holds is stored (the store's roots refer to them, store format
      // 4): one that changed without being recorded (a deployment records the run specs its plan
      // acts on, and a change of version alone, such as a scale to the count it had, gets no
      // action) is recorded now, before the root.
      const changed: RunSpec[] = [];
      changedRunSpecs(this.newest, root, changed);
      for (const spec of changed) if (this.get(spec.id, spec.version) === undefined) this.record(spec);
      const left: string[] = [];
      removedApps(this.newest, root, left);
      for (const id of left) {
        this.leftAt.set(id, seq);
        this.leaving.push({ id, seq });
      }
    }
    this.newest = root;
    this.roots.delete(root.version);
    this.roots.set(root.version, root);
    this.heldAside.delete(root.version);
    this.rootQueue.delete(root.version);
    this.rootQueue.add(root.version);
    const evicted = this.evictBeyond();
    this.rootSeq.delete(root.version);
    this.rootSeq.set(root.version, seq);
    for (const version of evicted) this.rootSeq.delete(version);
    if (this.listener !== undefined) {
      this.listener.savedRootVersion(root);
      for (const version of evicted) this.listener.evictedRootVersion(version);
    }
    this.dropLeft();
  }

  /**
   * Forgets one root version without telling the listener: for an entry that was never made
   * durable (the empty root a starting core begins with, replaced by the recovered one).
   */
  forgetRoot(version: string): void {
    const root = this.roots.get(version);
    this.roots.delete(version);
    this.rootQueue.delete(version);
    this.heldAside.delete(version);
    this.rootSeq.delete(version);
    if (root !== undefined && root === this.newest) this.newest = undefined;
  }

  /**
   * Drops the versions of every app that no kept root version holds nor `current` (the root in
   * force, which a store may hold without its root version) nor a held root and returns them, for the caller to
   * delete from the store (the listener is not told: recovery calls it once, after loading,
   * before a listener is set): a store written before apps' versions went with their last root.
   * Pods keep theirs (spec rule 12).
   */
  dropUnheldApps(current: Group): { readonly runSpecId: string; readonly version: string }[] {
    const dropped: { runSpecId: string; version: string }[] = [];
    for (const [id, versions] of this.specs) {
      const newest = [...versions.values()].pop();
      if (newest?.kind !== 'app' || this.held(id, current)) continue;
      if (this.heldRoots.size > 0 && this.heldByDeployment(id)) {
        // A stored deployment's root still refers to it: it goes when the deployment ends.
        this.leftButHeld.add(id);
        continue;
      }
      this.specs.delete(id);
      for (const version of versions.keys()) dropped.push({ runSpecId: id, version });
    }
    return dropped;
  }

  /** How many ids have stored versions (tests: deleted apps' go with their last root). */
  get idsWithVersions(): number {
    return this.specs.size;
  }

  /** Whether `current` or a kept root version holds app `id` (O(kept roots × depth)). */
  private held(id: string, current: Group | undefined): boolean {
    if (current !== undefined && findRunSpec(current, id) !== undefined) return true;
    for (const root of this.roots.values()) if (findRunSpec(root, id) !== undefined) return true;
    return false;
  }

  /** Drops the apps whose leave is older than every kept root, unless they came back. */
  private dropLeft(): void {
    const oldest = this.rootSeq.values().next();
    const oldestSeq = oldest.done === true ? this.nextSeq : oldest.value;
    while (this.leavingHead < this.leaving.length) {
      const { id, seq } = this.leaving[this.leavingHead] as { id: string; seq: number };
      if (seq > oldestSeq) break;
      this.leavingHead++;
      if (this.leftAt.get(id) !== seq) continue;
      this.leftAt.delete(id);
      if (this.newest !== undefined && findRunSpec(this.newest, id) !== undefined) continue;
      if (this.heldRoots.size > 0 && this.heldByDeployment(id)) {
        this.leftButHeld.add(id);
        continue;
      }
      this.dropApp(id);
    }
    if (this.leavingHead > 1024 && this.leavingHead * 2 > this.leaving.length) {
      this.leaving.splice(0, this.leavingHead);
      this.leavingHead = 0;
    }
  }

  /** Drops every version of app `id`, telling the listener. */
  private dropApp(id: string): void {
    const versions = this.specs.get(id);
    if (versions === undefined) return;
    this.specs.delete(id);
    if (this.listener === undefined) return;
    for (const version of versions.keys()) this.listener.evictedRunSpecVersion(id, version);
  }

  /** The stored root versions, newest first. */
  rootVersions(): string[] {
    return [...this.roots.keys()].reverse();
  }

  /** The root group as it was at `version`, or undefined. */
  getRoot(version: string): Group | undefined {
    return this.roots.get(version);
  }
}

/** What a {@link VersionHistory} reports, so that history can be made durable. */
export interface HistoryListener {
  savedRunSpecVersion(spec: RunSpec): void;
  evictedRunSpecVersion(runSpecId: string, version: string): void;
  savedRootVersion(root: Group): void;
  evictedRootVersion(version: string): void;
}

/**
 * The apps and pods of `next` that are not the very objects `prev` holds under their ids (new, or
 * changed), read by the keys their maps were edited at (map-edits.ts) where that is known, as
 * {@link removedApps} reads what left; a key may be given twice.
 */
function changedRunSpecs(prev: Group | undefined, next: Group, out: RunSpec[]): void {
  if (prev === next) return;
  changedIn(prev?.apps, next.apps, out);
  changedIn(prev?.pods, next.pods, out);
  if (prev === undefined || prev.groups !== next.groups) for (const [id, child] of next.groups) changedRunSpecs(prev?.groups.get(id), child, out);
}

function changedIn(prev: ReadonlyMap<string, RunSpec> | undefined, next: ReadonlyMap<string, RunSpec>, out: RunSpec[]): void {
  if (prev === next) return;
  const keys = prev === undefined ? undefined : editedKeys(prev, next);
  if (keys === undefined) {
    for (const [id, spec] of next) if (prev?.get(id) !== spec) out.push(spec);
    return;
  }
  for (const id of keys) {
    const spec = next.get(id);
    if (spec !== undefined && prev?.get(id) !== spec) out.push(spec);
  }
}

/**
 * Adds to `out` the apps `prev` holds and `next` does not (a key may come twice). A group map
 * made from the other by edits is read at its edited keys only; one whose ancestry is not known
 * (read from the store) entry by entry; a group gone, every app below it.
 */
function removedApps(prev: Group, next: Group | undefined, out: string[]): void {
  if (prev === next) return;
  if (next === undefined) {
    for (const id of prev.apps.keys()) out.push(id);
    for (const child of prev.groups.values()) removedApps(child, undefined, out);
    return;
  }
  if (prev.apps !== next.apps) {
    const keys = editedKeys(prev.apps, next.apps);
    if (keys === undefined) {
      for (const id of prev.apps.keys()) if (!next.apps.has(id)) out.push(id);
    } else {
      for (const id of keys) if (prev.apps.has(id) && !next.apps.has(id)) out.push(id);
    }
  }
  if (prev.groups !== next.groups) for (const [id, child] of prev.groups) removedApps(child, next.groups.get(id), out);
}
