/**
 * The bounds of scenario files (docs/limits.md, "Scenario files"): "a limit on everything", so no
 * file can make `npm run sim` run for hours or take all memory without being refused up front.
 * Each is checked before the value is used; the API's own maxima (MAX_INSTANCES, MAX_RESOURCE,
 * MAX_STRING_LENGTH, MAX_KEY_LENGTH, MAX_ITEMS) apply to the file's own fields too.
 */

/** Bytes of a scenario file; a larger one is refused before it is read (the largest in scenarios/ and of the swarm are ~20 KB). */
export const SCENARIO_FILE_MAX_BYTES = 1024 * 1024;

/** Nesting of lists and maps in a scenario file (checked on the YAML's syntax tree, before anything recurses over it). */
export const SCENARIO_DEPTH_MAX = 64;

/** Virtual time of a run, ms (24 h, as a what-if's `simulate`; the scenarios of the repository run minutes). */
export const SCENARIO_DURATION_MAX_MS = 24 * 3_600_000;

/** Agents of a run: the cluster's and every `addAgents` step's together. */
export const SCENARIO_AGENTS_MAX = 10_000;

/** Steps of a timeline. */
export const SCENARIO_STEPS_MAX = 10_000;

/**
 * Nodes of the document once its YAML aliases are expanded (each alias counts the nodes it
 * stands for): aliases let a 1 MiB file stand for a gigabyte of data otherwise.
 */
export const SCENARIO_NODES_MAX = 1_000_000;

/**
 * YAML aliases (`*name`) in a file: yaml resolves each by a search among the aliases and anchors
 * before it, so their cost grows with the square of their number (100,000 aliases in a 300 KB file
 * took minutes). The repository's scenarios and the swarm's dumps hold a few.
 */
export const SCENARIO_ALIASES_MAX = 1000;

/**
 * Loop steps of one run by default (`npm run sim`, `hashes`, the swarm): the bound on a run's
 * overall work, which the bounds above leave open (10,000 agents, 100,000 instances with health
 * checks every second and 24 h are each within bounds, and together days of work). A step is one
 * entry of the run's loop (an input for the core, an event of the simulated cluster, a timeline
 * step), each bounded in turn by the core's per-input limits. Counted, not timed, so a run stops
 * at the same step on every machine: same file and seed, same trace, same stop. The committed
 * scenarios take at most a few thousand steps, the swarm's runs at most a few hundred thousand,
 * bench:sim's day of 1,000 agents and 10,000 instances about 3.7 million (docs/limits.md).
 */
export const RUN_LOOP_STEPS_DEFAULT = 10_000_000;

/** The most `--max-steps` may allow: 100 × the default. */
export const RUN_LOOP_STEPS_MAX = 1_000_000_000;
