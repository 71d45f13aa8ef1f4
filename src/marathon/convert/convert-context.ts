/**
 * What a conversion needs to know about the world outside the definition itself: the scheduler's
 * configuration (default role, default network name), the version being written, and the role
 * enforcement of the top-level group the run spec lives in.
 */
export interface ConvertContext {
  /** `--mesos_role`: the role of run specs that name none (Marathon's own default is `*`). */
  readonly defaultRole: string;
  /** ISO 8601 timestamp of the version being written (`version`, `versionInfo.*`). */
  readonly versionIso: string;
  /** Role of the top-level group when that group has `enforceRole`; unset when not enforced. */
  readonly enforcedGroupRole?: string;
  /**
   * The role the run spec has now, when it exists: it stays acceptable until it is changed
   * (fact 111, Marathon's `RoleSettings.forService`), even where the group now enforces another.
   * Ignored directly in the root group, where only the default role is ever allowed.
   */
  readonly previousRole?: string;
  /** `--default_network_name`: the name given to `container` networks declared without one. */
  readonly defaultNetworkName?: string;
  /**
   * The definition is a stored record, read back as it was accepted: the rules pacer added after
   * accepting such definitions (an app's persistent volume rules, `volumes-from-wire.ts`) are not
   * applied to it, so a record an older pacer stored still loads instead of being set aside, with
   * every root version that holds it.
   */
  readonly storedRecord?: boolean;
  /**
   * `--enable_features`, for a definition a client sends: Marathon refuses its GPUs without
   * `gpu_resources`, its secrets without `secrets` and its external volumes without
   * `external_volumes` (`feature-rules.ts`). Unset where definitions are not checked against the
   * flags: stored records (a store written with a feature on still loads after a restart without
   * it) and the simulator's scenario files.
   */
  readonly enabledFeatures?: readonly string[];
}
