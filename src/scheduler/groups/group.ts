import type { AppSpec } from '../model/app';
import type { PodSpec } from '../model/pod';

/**
 * A node of the root group tree (immutable: every change builds a new root). Groups, apps and pods
 * share one namespace of absolute path ids (`/prod/web`); the root's id is `/`.
 * Children are kept in maps keyed by absolute id, inserted in id order, so iteration is
 * deterministic.
 */
export interface Group {
  readonly id: string;
  readonly apps: ReadonlyMap<string, AppSpec>;
  readonly pods: ReadonlyMap<string, PodSpec>;
  readonly groups: ReadonlyMap<string, Group>;
  /** Absolute ids of run specs or groups this group's content depends on (inherited by everything below). */
  readonly dependencies: readonly string[];
  /** Only meaningful on top-level groups (spec 2.7 rule 4). */
  readonly enforceRole: boolean;
  readonly version: string;
}
