/**
 * Bounds of a run spec that the core itself relies on (docs/limits.md). The API refuses
 * definitions beyond them (src/marathon/schemas), and recovery sets aside a stored run spec beyond
 * them (state/stored-records.ts) instead of trying to run it.
 */

/**
 * Most instances of one app or pod (`instances`, `scaling.instances`, `scaling.maxInstances`,
 * and the result of a group's `scaleBy`). Marathon reads an int32 (2,147,483,647), which the core
 * cannot hold: `4294967296` failed with "Invalid array length" after being stored, and a million
 * took 49 s and 570 MB to enqueue (issue 11). 100,000 is a Mesos cluster of 10,000 agents (the
 * benchmarks' largest shape) at 10 instances each; one request for that many took 4 s and about
 * 130 MB (test harness included) on the project's machine.
 */
export const MAX_INSTANCES = 100_000;
