import { assert } from '../kernel/assert';
import type { RunSpec } from '../model/run-spec';
import type { Group } from './group';

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
 * another definition (spec section 1, rule 12 for pods; Marathon's `deleteCurrent` keeps app
 * versions the same way). Recording a version that is already stored replaces it and makes it
 * the newest.
 *
 * Mutable, owned by the core's state; deterministic (insertion order only, no clock).
 */
export class VersionHistory {
  private readonly specs = new Map<string, Map<string, RunSpec>>();
  private readonly roots = new Map<string, Group>();
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
    const evicted = keep(versions, spec.version, spec, this.maxVersions);
    if (this.listener === undefined) return;
    this.listener.savedRunSpecVersion(spec);
    for (const version of evicted) this.listener.evictedRunSpecVersion(spec.id, version);
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

  /** Stores `root` under its version. */
  recordRoot(root: Group): void {
    const evicted = keep(this.roots, root.version, root, this.maxVersions);
    if (this.listener === undefined) return;
    this.listener.savedRootVersion(root);
    for (const version of evicted) this.listener.evictedRootVersion(version);
  }

  /**
   * Forgets one root version without telling the listener: for an entry that was never made
   * durable (the empty root a starting core begins with, replaced by the recovered one).
   */
  forgetRoot(version: string): void {
    this.roots.delete(version);
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

/** Stores `value` as the newest entry; returns the versions evicted beyond `max`, oldest first. */
function keep<V>(versions: Map<string, V>, version: string, value: V, max: number): string[] {
  versions.delete(version);
  versions.set(version, value);
  const evicted: string[] = [];
  for (const oldest of versions.keys()) {
    if (versions.size <= max) break;
    versions.delete(oldest);
    evicted.push(oldest);
  }
  return evicted;
}
