/**
 * The scheduler core's surface: what code outside src/scheduler (the API, the runtime, the
 * clusters, the store, the simulator, the benchmarks) may import from the core, besides the model
 * (src/scheduler/model, the vocabulary every layer shares) and the ports (src/scheduler/ports, the
 * contract adapters implement). Everything else is internal: dependency-cruiser's
 * `core-surface` rule (.dependency-cruiser.cjs) refuses an import of it from outside; tests may
 * import internals. docs/architecture.md, "The core's layers".
 */

// The facade: one synchronous, deterministic state machine; every input goes through handle().
export { Scheduler, type QueueEntry } from './scheduler';

// The ports the core is built with (each port's own types: src/scheduler/ports/*).
export type { SchedulerPorts } from './ports/scheduler-ports';

// Options.
export { DEFAULT_MAX_TOTAL_INSTANCES, DEFAULT_SCHEDULER_OPTIONS, MAX_TOTAL_INSTANCES, type SchedulerOptions } from './scheduler-options';

// The kernel: assertions, the (dueMs, seq) loop, ids, ISO time without Date.
export { AssertionError, assert } from './kernel/assert';
export { HeapLoop } from './kernel/heap-loop';
export { instanceIdOfTask, safeRunSpecId } from './kernel/ids';
export { isoTime } from './kernel/iso-time';
export { SweepThreshold } from './kernel/sweep-threshold';

// The root group and its rules (path ids, roles, dependencies, service ports): reading the tree
// and checking a request. Only the core edits the root (issue 12, R2): the API submits a
// `changeRoot`/`setEnforceRole` command; `withRunSpec` stays here for the simulator and the
// benchmarks, and eslint (`apiRootEditBans`) keeps src/api from importing it.
export { EMPTY_ACCEPTED_ROLES_MESSAGE, roleNameProblem } from './groups/accepted-resource-roles';
export type { ChangeOptions, NewGroupEnforceRole } from './groups/change-options';
export { CYCLIC_DEPENDENCIES_MESSAGE, dependencyCycle, effectiveDependencies } from './groups/dependencies';
export type { Group } from './groups/group';
export type { GroupFailure } from './groups/group-result';
export type { GroupUpdate } from './groups/group-update';
export { MAX_ID_LENGTH, PATH_PATTERN_MESSAGE, comparePathIds, dotSegmentProblems, isAncestor, isCanonical, isTopLevel, joinSegments, notChildMessage, PATH_ID_PATTERN, parentOf, resolvePathId, segments, topLevelOf, validatePathId } from './groups/path-id';
export { NOT_TOP_LEVEL_MESSAGE, defaultRoleWhen, enforceRoleProblem, enforcesRole, groupRoleOf, residentStarRoleMessage, roleContextOf, roleNotAllowedMessage, rolesAllowed } from './groups/role-rules';
export { servicePortsOf } from './groups/service-ports';
export { SINGLE_INSTANCE_UPGRADE, isSingleInstance } from './groups/single-instance';
export { javaDouble } from './kernel/java-double';
export { allGroups, allRunSpecs, findGroup, findRunSpec } from './groups/tree-query';
export { withRunSpec } from './groups/with-run-spec';

// Placement constraints: validation and attribute values.
export { fieldValue } from './constraints/field-value';
export { formatAttributeValue } from './constraints/format-attribute';
export { CONSTRAINT_MESSAGES, constraintOperatorOf, validateConstraint, type ConstraintForm } from './constraints/validate-constraint';

// What the core keeps per run spec and shows in /v2/queue.
export { compileLaunchRequest, type LaunchRequest } from './state/launch-request';
export type { RejectionStats, UnusedOffer } from './state/rejection-stats';

// Rules the simulator's invariants check against.
export { restartBounds } from './instances/restart-bounds';

// How long a kill waits before it is retried (the what-if fork's adopted tasks).
export { gracePeriodMs } from './kill/kill-instance';

// Health check results and kill-storm protection, as the API shows them.
export type { CheckState } from './health/health-tracker';
export { UNHEALTHY_KILL_FLOOR_LABEL, floorCapacity, parseFloorCapacity, unhealthyKillFloor } from './health/unhealthy-kill-floor';
export type { HeldKillsStatus } from './health/unhealthy-kill-status';

// Deployment plans: Marathon's planner and the JSON of steps and actions.
export type { ActionStatus } from './deployments/action-status';
export { computePlan } from './deployments/compute-plan';
export { currentStepJson, deploymentStepInfoJson, type ActionInfoJson, type DeploymentStepInfoJson } from './deployments/plan-json';
export { runSpecDiff } from './deployments/run-spec-diff';

export { DEFAULT_MAX_VERSIONS } from './groups/version-history';
