import type { Random } from '../../src/scheduler/ports/random';
import { drawChance } from './draw';
import type { HealthModel } from './sim-models';

/**
 * How a task's health endpoint answers one check: whether the service is up (a TCP connect
 * succeeds, a command exits 0), the HTTP status it returns, and — for the `slow` model — how long
 * the answer takes (otherwise the caller draws a latency).
 */
export interface HealthResponse {
  readonly up: boolean;
  readonly status: number;
  readonly latencyMs?: number;
}

const PASS: HealthResponse = { up: true, status: 200 };
const FAIL: HealthResponse = { up: false, status: 500 };

/**
 * The answer of a run spec's health endpoint at virtual time `atMs`. `failingFrom` and
 * `failingDuring` count from `scenarioStartMs`. Only `flaky` draws (one draw from `random` per
 * answer), so constant models never consume randomness.
 */
export function respondHealth(model: HealthModel, atMs: number, scenarioStartMs: number, random: Random): HealthResponse {
  switch (model.kind) {
    case 'healthy':
      return PASS;
    case 'flaky':
      return drawChance(random, model.p) ? FAIL : PASS;
    case 'failingFrom':
      return atMs >= scenarioStartMs + model.fromMs ? FAIL : PASS;
    case 'failingDuring':
      return atMs >= scenarioStartMs + model.fromMs && atMs < scenarioStartMs + model.toMs ? FAIL : PASS;
    case 'slow':
      return { up: true, status: 200, latencyMs: model.latencyMs };
    case 'status':
      return { up: true, status: model.status };
  }
}

/**
 * After a passing answer at `atMs`: the earliest virtual time at which the model could answer
 * differently, or `Infinity` when it never will. Lets an agent-run check sleep until then instead
 * of checking every interval (Mesos reports a healthy→healthy result to nobody).
 */
export function passStableUntilMs(model: HealthModel, atMs: number, scenarioStartMs: number): number {
  switch (model.kind) {
    case 'healthy':
    case 'slow':
    case 'status':
      return Infinity;
    case 'flaky':
      return model.p > 0 ? atMs + 1 : Infinity;
    case 'failingFrom': {
      const from = scenarioStartMs + model.fromMs;
      return atMs < from ? from : atMs + 1;
    }
    case 'failingDuring': {
      const from = scenarioStartMs + model.fromMs;
      const to = scenarioStartMs + model.toMs;
      if (atMs < from && from < to) return from;
      return atMs >= to || from >= to ? Infinity : atMs + 1;
    }
  }
}
