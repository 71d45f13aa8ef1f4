/**
 * The bounds the REST API puts on what it accepts, each in one constant (docs/limits.md lists them
 * with the error a client gets). Marathon's RAML types give most numbers only a minimum and read
 * them as 32-bit integers or doubles; pacer adds maxima so that no accepted value can overflow the
 * core's arithmetic (milli-units, milliseconds, array sizes) or make one request cost unbounded
 * work. The bounds the core relies on itself live in the core: `MAX_INSTANCES`
 * (scheduler/model/run-spec-limits.ts), `MAX_ID_LENGTH` and `MAX_ID_SEGMENTS`
 * (scheduler/groups/path-id.ts).
 */

/** Java's `Integer.MAX_VALUE`: the largest value of Marathon's int32 fields. */
export const MAX_INT32 = 2_147_483_647;

/**
 * Every duration in seconds of a definition (health and readiness check timings, grace periods,
 * backoff, launch delay, kill grace, unreachable timeouts): about 68 years. Marathon's int32
 * maximum; also applied to its int64 fields (`inactiveAfterSeconds`, `expungeAfterSeconds`) and to
 * the pods' double-typed ones, so that seconds × 1000 stays an exact millisecond count.
 */
export const MAX_SECONDS = MAX_INT32;

/** `maxConsecutiveFailures` of a health check: Marathon's int32 maximum. */
export const MAX_CONSECUTIVE_FAILURES = MAX_INT32;

/**
 * Most of one scalar resource per instance, container or executor (cpus, mem and disk in MiB,
 * gpus, resource limits, persistent volume sizes): a million times a large agent, and small enough
 * that milli-units (× 1000) stay exact integers. A double such as `1e308` became `Infinity` there.
 */
export const MAX_RESOURCE = 1_000_000_000;

/**
 * Largest launch backoff factor (`backoffFactor`, pods' `scheduling.backoff.backoffFactor`). A
 * factor this large reaches any `maxLaunchDelaySeconds` after the second failure; beyond it the
 * delay overflows to `Infinity`.
 */
export const MAX_BACKOFF_FACTOR = 1_000;

/**
 * Longest string value of a definition (`cmd`, each of `args`, env and label values, …) in
 * characters, unless the RAML gives a shorter one (URIs and paths 1,024, names 63). 32,768
 * characters of UTF-8 are at most 128 KiB: Linux's limit on one argument of `exec`
 * (MAX_ARG_STRLEN), which `sh -c <cmd>` must respect.
 */
export const MAX_STRING_LENGTH = 32_768;

/** Longest key of a map in a definition (label keys, env names, secret names), in characters. */
export const MAX_KEY_LENGTH = 1_024;

/**
 * Most entries of any list or map in one definition (labels, env, args, constraints, health
 * checks, port definitions, containers, endpoints, volumes, a group's `apps`, `groups` and
 * `dependencies`, …).
 */
export const MAX_ITEMS = 1_000;

/**
 * Most apps in one request: the elements of a bulk `PUT`/`PATCH /v2/apps`, or every app of a
 * group body with all its subgroups.
 */
export const MAX_APPS_PER_REQUEST = 1_000;

/** The 422 "Object is not valid" message (at `/`) of a request with `count` apps, more than {@link MAX_APPS_PER_REQUEST}. */
export function tooManyAppsMessage(count: number): string {
  return `a request may hold at most ${MAX_APPS_PER_REQUEST} apps, this one holds ${count}`;
}

/**
 * Deepest nesting of arrays and objects in a request body, checked before it is parsed. The
 * deepest legitimate bodies are group trees: 2 levels per group (`groups`, then the group) for the
 * 32 groups an id may have (`MAX_ID_SEGMENTS`), plus an app's own ~10 levels. Bodies nested 5,000
 * deep answered `500 Maximum call stack size exceeded` (issue 11).
 */
export const MAX_JSON_DEPTH = 128;
