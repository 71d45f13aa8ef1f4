import { setFlagsFromString } from 'node:v8';

/**
 * Makes every regular expression that backtracks too much finish in linear time: V8 then runs it
 * again on its linear-time engine (`--enable-experimental-regexp-engine-on-excessive-backtracks`,
 * after V8's default of 50,000 backtracks), with the same result. A LIKE/UNLIKE constraint's
 * pattern is matched by the core against every agent attribute value it meets, on the one thread
 * that also answers the API: a pattern such as `(.*.*.*.*)*z`, accepted with 201, kept it busy
 * for seconds per value (hours for a long value) and so stopped the API and every deployment
 * (found by an API trial on 2026-12-03). The patterns the linear engine cannot run (with a
 * backreference or a lookaround) are refused when a constraint is validated
 * (src/scheduler/constraints/linear-time-pattern.ts). Call once, first thing, in every process
 * that runs the core on input it did not write itself (src/main.ts, sim/cli.ts); regular
 * expressions made before the call are not affected.
 */
export function limitRegexpBacktracking(): void {
  setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
}
